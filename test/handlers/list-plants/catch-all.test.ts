// A catch-all route (an HTTP API's `$default`, or a front's that forwards every path) sends
// every request to the function, which routes it by the operation table as API Gateway would, and
// the headers a front is configured to set: the token (AUTH_TOKEN_HEADER) and the host clients called
// (PUBLIC_HOST_HEADER). Real RS256 tokens, dynalite, every answer checked against openapi.yaml.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { LIST_PLANTS } from '../../../handlers/lib/operations.ts';
import { lambdaContext } from '../../../local/server/lambda.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { nextUrl } from '../../helpers/links.ts';
import { notRoutes } from '../../helpers/not-routes.ts';
import { type Service, startService } from '../../helpers/service.ts';

const TOKEN_HEADER = 'x-caller-token';
const HOST_HEADER = 'x-front-host';
const FRONT = 'd111111abcdef8.cdn.example.net';
let service: Service;

beforeAll(async () => {
  service = await startService({
    AUTH_TOKEN_HEADER: TOKEN_HEADER,
    PUBLIC_HOST_HEADER: HOST_HEADER,
    MAX_PAGE_SIZE: '1',
  });
  await service.seed(['p1', 'p2'].map((id) => ({ owner: 'alice', id, name: `alice-${id}` })));
});
afterAll(() => service?.stop());

/** A request to the catch-all route, as `$default` (or a front forwarding every path) delivers it. */
function catchAll(method: string, path: string, headers: Record<string, string>): APIGatewayProxyEventV2 {
  const event = httpApiEvent({ headers });
  return {
    ...event,
    routeKey: '$default',
    rawPath: path,
    requestContext: {
      ...event.requestContext,
      routeKey: '$default',
      http: { ...event.requestContext.http, method, path },
    },
  };
}
const token = () => service.token('alice');

describe('a catch-all route', () => {
  it('routes a request to its operation by method and path, named in the request record', async () => {
    service.logs.clear();
    const reply = await service.call(
      catchAll(LIST_PLANTS.method, LIST_PLANTS.path, { [TOKEN_HEADER]: `Bearer ${token()}` }),
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual([{ name: 'alice-p1' }]);
  });

  it.each(notRoutes())(
    "answers %s %s with 404 as API Gateway would, counted as the caller's mistake",
    async (method, path) => {
      service.logs.clear();
      const reply = await service.handler(
        catchAll(method, path, { [TOKEN_HEADER]: `Bearer ${token()}` }),
        lambdaContext(),
      );
      expect(reply).toMatchObject({ statusCode: 404 });
      expect(JSON.parse((reply as { body: string }).body)).toEqual({ error: 404, message: 'Not Found' });
      const records = service.logs.entries().filter((entry) => entry.message === 'request');
      expect(records).toEqual([expect.objectContaining({ status: 404, outcome: 'bad_request' })]);
    },
  );
});

describe('AUTH_TOKEN_HEADER', () => {
  it('reads the token from that header alone: Authorization may carry a front signature', async () => {
    const signature = 'AWS4-HMAC-SHA256 Credential=ASIAEXAMPLE/20261126/eu-west-1/lambda/aws4_request, Signature=0123';
    const headers = { [TOKEN_HEADER]: `Bearer ${token()}`, authorization: signature };
    expect((await service.call(catchAll('GET', '/plants', headers))).status).toBe(200);
  });

  it('refuses a token sent in Authorization instead, as unauthenticated', async () => {
    const reply = await service.call(catchAll('GET', '/plants', { authorization: `Bearer ${token()}` }));
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Bearer');
  });
});

describe('PUBLIC_HOST_HEADER', () => {
  it('links the next page on the host the front names', async () => {
    const reply = await service.call(
      catchAll('GET', '/plants', { [TOKEN_HEADER]: `Bearer ${token()}`, [HOST_HEADER]: FRONT }),
    );
    expect(nextUrl(reply)?.origin).toBe(`https://${FRONT}`);
  });
});
