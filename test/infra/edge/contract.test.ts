// Behind the edge (-c edge=true), every answer something before the function sends, as the template
// defines it (WAF's blocks, the CloudFront Function's 404) or CloudFront serves it (its 502 and 504
// pages), passes openapi.yaml's contract checker.

import { beforeAll, describe, expect, it } from '@jest/globals';
import { type Synthesized, synth } from '../../helpers/cdk.ts';
import { assertMatchesContract, type HttpResponse } from '../../helpers/openapi.ts';
import { isResponse, runViewerFunction } from './cloudfront-function.ts';
import { CLOUDFRONT_PAGES } from './cloudfront-pages.ts';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON, read by path
type Json = any;

describe('behind the edge (-c edge=true), every answer the template defines', () => {
  let edge: Synthesized;
  beforeAll(async () => {
    edge = await synth({ edge: 'true' }, { env: { account: '123456789012', region: 'us-east-1' } });
  });

  const only = (type: string) => {
    const found = Object.values(edge.template.findResources(type)) as { Properties: Json }[];
    expect(found).toHaveLength(1);
    return (found[0] as { Properties: Json }).Properties;
  };

  /** What WAF sends for each blocking rule: its status, headers and body as the web ACL spells them. */
  function wafAnswers(): [rule: string, answer: HttpResponse][] {
    const webAcl = only('AWS::WAFv2::WebACL');
    const blocking = (webAcl.Rules as Json[]).filter((rule) => rule.Action?.Block?.CustomResponse);
    expect(blocking.length).toBeGreaterThan(0);
    return blocking.map((rule) => {
      const { ResponseCode, CustomResponseBodyKey, ResponseHeaders } = rule.Action.Block.CustomResponse;
      const body = webAcl.CustomResponseBodies[CustomResponseBodyKey];
      const contentType = { APPLICATION_JSON: 'application/json', TEXT_PLAIN: 'text/plain' }[
        body.ContentType as string
      ];
      const headers = Object.fromEntries((ResponseHeaders as Json[]).map(({ Name, Value }) => [Name, Value]));
      return [
        rule.Name,
        { statusCode: ResponseCode, headers: { 'content-type': contentType, ...headers }, body: body.Content },
      ];
    });
  }

  it('WAF’s blocks (rate limits 429, managed-rule matches 403) pass the contract checker', () => {
    for (const [, answer] of wafAnswers()) {
      expect(() => assertMatchesContract(answer)).not.toThrow();
    }
  });

  it('the CloudFront Function’s 404 for a path or method the API does not serve passes the contract checker', () => {
    const code = only('AWS::CloudFront::Function').FunctionCode as string;
    for (const request of [{ uri: '/nothing' }, { method: 'POST' }]) {
      const result = runViewerFunction(code, request);
      if (!isResponse(result)) throw new Error('the viewer function forwarded a request the API does not serve');
      const headers = Object.fromEntries(Object.entries(result.headers).map(([name, { value }]) => [name, value]));
      expect(() =>
        assertMatchesContract({ statusCode: result.statusCode, headers, body: result.body.data }),
      ).not.toThrow();
    }
  });

  it.each(Object.values(CLOUDFRONT_PAGES))(
    'CloudFront’s own $statusCode page (text/html) passes the contract checker',
    (page) => {
      expect(() => assertMatchesContract(page)).not.toThrow();
    },
  );

  it('an HTML page where only JSON is declared, or a 502 in another media type, does not', () => {
    const page = CLOUDFRONT_PAGES[502];
    expect(() => assertMatchesContract({ ...page, statusCode: 503 })).toThrow(/content-type is "text\/html"/);
    const plain = { ...page, headers: { 'content-type': 'text/plain' }, body: 'Bad Gateway' };
    expect(() => assertMatchesContract(plain)).toThrow(/content-type is "text\/plain"/);
  });
});
