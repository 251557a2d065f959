// The whole handler behind the edge (BEHIND_EDGE=true), reached as CloudFront reaches it: the edge's
// viewer function (the very source the stack deploys) rewrites the caller's request, origin access
// control replaces Authorization with its signature, and the function URL hands the rest over as a
// payload 2.0 event. Real RS256 tokens, dynalite, every answer checked against openapi.yaml.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BEHIND_EDGE, EDGE_HEADERS } from '../../../../handlers/lib/edge/environment.ts';
import { edgeViewerRequest } from '../../../../handlers/lib/edge/viewer-request.ts';
import { LIST_PLANTS } from '../../../../handlers/lib/operations.ts';
import { viewerFunctionCode } from '../../../../infra/edge/viewer-function.ts';
import { lambdaContext } from '../../../../local/server/lambda.ts';
import type { PlantItem } from '../../../helpers/dynamo.ts';
import { httpApiEvent } from '../../../helpers/events.ts';
import { type Reply, type Service, startService } from '../../../helpers/service.ts';
import { DISTRIBUTION_DOMAIN, isResponse, runViewerFunction } from '../../../infra/edge/cloudfront-function.ts';

const PAGE = 2;
const URL_ID = 'abcdefghijklmnopqrstuvwxyz012345';
const FUNCTION_URL_HOST = `${URL_ID}.lambda-url.eu-west-1.on.aws`;
/** What origin access control puts in Authorization (SigV4 for lambda): never a bearer token. */
const SIGNATURE =
  'AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/20261126/eu-west-1/lambda/aws4_request, SignedHeaders=host;x-amz-date, Signature=0123abcd';
const code = viewerFunctionCode({ paths: ['/plants'], methods: ['GET'] });

let service: Service;
const plants: PlantItem[] = ['p1', 'p2', 'p3'].map((id) => ({ owner: 'alice', id, name: `alice-${id}` }));

beforeAll(async () => {
  service = await startService({ [BEHIND_EDGE]: 'true', MAX_PAGE_SIZE: String(PAGE) });
  await service.seed(plants);
});
afterAll(() => service?.stop());

/** A caller's request through the edge: the viewer function, then the signed origin request. */
async function throughEdge(headers: Record<string, string>, query = ''): Promise<Reply> {
  const result = runViewerFunction(code, { query, headers });
  if (isResponse(result)) throw new Error(`the viewer function answered ${result.statusCode}`);
  const forwarded = Object.fromEntries(Object.entries(result.headers).map(([name, { value }]) => [name, value]));
  const rawQuery = new URLSearchParams(
    Object.fromEntries(Object.entries(result.querystring).map(([name, { value }]) => [name, value])),
  ).toString();
  const event = httpApiEvent({
    query: rawQuery,
    headers: { ...forwarded, authorization: SIGNATURE, host: FUNCTION_URL_HOST },
    domainName: FUNCTION_URL_HOST,
    apiId: URL_ID,
  });
  return service.call({
    ...event,
    routeKey: '$default',
    requestContext: { ...event.requestContext, routeKey: '$default' },
  });
}
const bearer = (sub: string) => ({ authorization: `Bearer ${service.token(sub)}` });

describe('behind the edge', () => {
  it('serves the caller’s token from the edge’s header, not the origin signature in Authorization', async () => {
    const reply = await throughEdge(bearer('alice'));
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(plants.slice(0, PAGE).map(({ name }) => ({ name })));
  });

  it('refuses a caller without a token as unauthenticated, never judging the signature as one', async () => {
    const reply = await throughEdge({});
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Bearer');
  });

  it('refuses a token sent under the edge’s header instead of Authorization: the viewer function removed it', async () => {
    const reply = await throughEdge({ [EDGE_HEADERS.authorization]: bearer('alice').authorization });
    expect(reply.status).toBe(401);
  });

  it('links the next page on the distribution, and the link leads through the edge to the rest', async () => {
    const first = await throughEdge(bearer('alice'));
    const link = first.headers.link ?? '';
    const target = new URL(/^<([^>]+)>/.exec(link)?.[1] ?? '');
    expect(`${target.origin}${target.pathname}`).toBe(`https://${DISTRIBUTION_DOMAIN}/plants`);
    const second = await throughEdge(bearer('alice'), target.search.slice(1));
    expect(second.status).toBe(200);
    expect(second.body).toEqual(plants.slice(PAGE).map(({ name }) => ({ name })));
  });
});

describe('the edge’s middleware', () => {
  it('is not there unless the function is behind the edge', () => {
    expect(edgeViewerRequest(false)).toEqual([]);
    expect(edgeViewerRequest(true)).toEqual([{ before: expect.any(Function), after: expect.any(Function) }]);
  });

  /** The Link header after the middleware's `after`, for a response that carried `link`. */
  function linkAfter(link: string, viewerHost: string): string | undefined {
    const [middleware] = edgeViewerRequest(true);
    const request = {
      event: httpApiEvent({ headers: { [EDGE_HEADERS.viewerHost]: viewerHost } }),
      response: { statusCode: 200, headers: { Link: link }, body: '[]' },
    };
    middleware?.after?.(request as never);
    return request.response.headers.Link;
  }

  it('leaves an absolute next link as it is (a custom domain, a proxy’s PUBLIC_BASE_URL)', () => {
    const absolute = '<https://plants.example.com/plants?limit=2&cursor=abc>; rel="next"';
    expect(linkAfter(absolute, DISTRIBUTION_DOMAIN)).toBe(absolute);
  });

  it('writes no host into a link that is not a host name', () => {
    const relative = '<?limit=2&cursor=abc>; rel="next"';
    expect(linkAfter(relative, 'evil.example/x>; rel="prev", <https://evil.example')).toBe(relative);
    expect(linkAfter(relative, DISTRIBUTION_DOMAIN)).toBe(
      `<https://${DISTRIBUTION_DOMAIN}/plants?limit=2&cursor=abc>; rel="next"`,
    );
  });
});

describe("a route the API has no operation for, the caller's own (a function URL has no routes)", () => {
  it.each([
    ['OPTIONS', '/plants'],
    ['HEAD', '/plants'],
    ['GET', '/plants/'],
    ['GET', '/PLANTS'],
  ])("answers %s %s with 404 as API Gateway would, counted as the caller's mistake", async (method, path) => {
    const event = httpApiEvent({ headers: { ...bearer('alice'), host: FUNCTION_URL_HOST } });
    service.logs.clear();
    const reply = await service.handler(
      {
        ...event,
        routeKey: '$default',
        rawPath: path,
        requestContext: {
          ...event.requestContext,
          routeKey: '$default',
          http: { ...event.requestContext.http, method, path },
        },
      },
      lambdaContext(),
    );
    expect(reply).toMatchObject({ statusCode: 404 });
    expect(JSON.parse((reply as { body: string }).body)).toEqual({ error: 404, message: 'Not Found' });
    const records = service.logs.entries().filter((entry) => entry.message === 'request');
    expect(records).toEqual([expect.objectContaining({ status: 404, outcome: 'bad_request' })]);
  });

  it('names the operation it found in the request record', async () => {
    service.logs.clear();
    expect((await throughEdge({})).status).toBe(401);
    const records = service.logs.entries().filter((entry) => entry.message === 'request');
    expect(records).toEqual([expect.objectContaining({ operation: LIST_PLANTS.operationId })]);
  });
});
