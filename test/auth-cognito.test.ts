// A Cognito user pool issuer: access tokens carry `client_id` (no `aud`) and `token_use`.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signToken } from '../local/issuer.ts';
import { httpApiEvent } from './helpers/events.ts';
import { type Service, startService } from './helpers/service.ts';

const POOL_ISSUER = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_TestPool1';
const CLIENT_ID = 'app-client-123';
let service: Service;

beforeAll(async () => {
  // The pool's keys are served locally; everything else is configured as for a real pool.
  service = await startService({ AUTH_ISSUER: POOL_ISSUER, AUTH_AUDIENCE: CLIENT_ID, AUTH_TOKEN_USE: '' });
  await service.seed([{ owner: 'user-sub-1', id: 'p1', name: 'Cactus' }]);
});
afterAll(() => service?.stop());

const now = () => Math.floor(Date.now() / 1000);
const cognitoToken = (claims: Record<string, unknown>) =>
  signToken(service.key, { iss: POOL_ISSUER, sub: 'user-sub-1', iat: now(), exp: now() + 600, ...claims });
const call = (token: string) => service.call(httpApiEvent({ headers: { authorization: `Bearer ${token}` } }));

describe('Cognito user pool tokens', () => {
  it('accepts an access token for the app client', async () => {
    const reply = await call(
      cognitoToken({ token_use: 'access', client_id: CLIENT_ID, scope: 'aws.cognito.signin.user.admin' }),
    );
    expect(reply).toMatchObject({ status: 200, body: [{ name: 'Cactus' }] });
  });

  it.each([
    ['another app client', { token_use: 'access', client_id: 'other-client' }],
    ['an id token (only access tokens by default)', { token_use: 'id', aud: CLIENT_ID }],
    ['no token_use', { client_id: CLIENT_ID }],
  ])('refuses a token for %s', async (_, claims) => {
    const reply = await call(cognitoToken(claims));
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/invalid_token/);
  });
});
