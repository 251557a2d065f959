// A Cognito pool with multi-Region replication (issuer-cognito-idp) and a required scope: the
// token must be ours (client, token_use) before its scope matters, so a token for another client
// or an id token is 401 whatever scopes it carries, and 403 is only for our own access tokens.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpApiEvent } from '../../helpers/events.ts';
import { type Service, startService } from '../../helpers/service.ts';

const REPLICATED_ISSUER = 'https://issuer-cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Replica1';
const CLIENT_ID = 'app-client-456';
const SCOPE = 'plants/read';
let service: Service;

beforeAll(async () => {
  // No AUTH_ISSUER_TYPE: the issuer's form alone must select the Cognito path.
  service = await startService({
    AUTH_ISSUER: REPLICATED_ISSUER,
    AUTH_AUDIENCE: CLIENT_ID,
    AUTH_TOKEN_USE: '',
    AUTH_REQUIRED_SCOPE: SCOPE,
  });
  await service.seed([{ owner: 'user-sub-2', id: 'p1', name: 'Aloe' }]);
});
afterAll(() => service?.stop());

const call = (claims: Record<string, unknown>) =>
  service.call(httpApiEvent({ headers: { authorization: `Bearer ${service.token('user-sub-2', claims)}` } }));

describe('multi-Region Cognito issuer with AUTH_REQUIRED_SCOPE', () => {
  it('accepts an access token of the replicated pool carrying the scope', async () => {
    expect(await call({ scope: `openid ${SCOPE}` })).toMatchObject({ status: 200, body: [{ name: 'Aloe' }] });
  });

  it('answers 403 insufficient_scope to our own access token without the scope', async () => {
    const reply = await call({});
    expect(reply.status).toBe(403);
    expect(reply.headers['www-authenticate']).toBe(`Bearer error="insufficient_scope", scope="${SCOPE}"`);
  });

  it.each([
    ['another client, without the scope', { client_id: 'other-client' }],
    ['another client, with the scope', { client_id: 'other-client', scope: SCOPE }],
    ['an id token, without any scope', { token_use: 'id', aud: CLIENT_ID, client_id: undefined, scope: undefined }],
    ['an id token, with the scope', { token_use: 'id', aud: CLIENT_ID, client_id: undefined, scope: SCOPE }],
  ])('answers 401 to %s', async (_, claims) => {
    const reply = await call(claims);
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
  });
});
