// The whole handler behind the edge, configured as the edge configures it, reached as CloudFront
// reaches it: the edge's viewer function (the very source the stack deploys) rewrites the caller's
// request, origin access control replaces Authorization with its signature, and the function URL hands
// the rest over as a payload 2.0 event of its catch-all route. Real RS256 tokens, dynalite, every
// answer checked against openapi.yaml.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { functionEnvironment } from '../../../handlers/lib/environment.ts';
import { LIST_PLANTS } from '../../../handlers/lib/operations.ts';
import { EDGE_FUNCTION_SETTINGS, EDGE_HEADERS, viewerFunctionCode } from '../../../infra/edge/viewer-function.ts';
import type { PlantItem } from '../../helpers/dynamo.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { type Reply, type Service, startService } from '../../helpers/service.ts';
import { DISTRIBUTION_DOMAIN, isResponse, runViewerFunction } from './cloudfront-function.ts';

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
  service = await startService({ ...functionEnvironment(EDGE_FUNCTION_SETTINGS), MAX_PAGE_SIZE: String(PAGE) });
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

describe('the request record', () => {
  it('names the operation it found in the request record', async () => {
    service.logs.clear();
    expect((await throughEdge({})).status).toBe(401);
    const records = service.logs.entries().filter((entry) => entry.message === 'request');
    expect(records).toEqual([expect.objectContaining({ operation: LIST_PLANTS.operationId })]);
  });
});
