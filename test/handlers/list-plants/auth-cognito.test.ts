// A Cognito user pool issuer, as the default stack deploys it: access tokens shaped as Cognito
// issues them (client_id, token_use, scope, username, auth_time, origin_jti, event_id; no aud),
// verified through the Cognito path, and each refusal counted under its reason.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { httpApiEvent } from '../../helpers/events.ts';
import { type Service, startService } from '../../helpers/service.ts';

const POOL_ISSUER = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_TestPool1';
const CLIENT_ID = 'app-client-123';
let service: Service;

beforeAll(async () => {
  // The pool's keys are served locally; everything else is configured as for a real pool.
  service = await startService({ AUTH_ISSUER: POOL_ISSUER, AUTH_AUDIENCE: CLIENT_ID, AUTH_TOKEN_USE: '' });
  await service.seed([{ owner: 'user-sub-1', id: 'p1', name: 'Cactus' }]);
});
afterAll(() => service?.stop());

const call = (claims: Record<string, unknown> = {}) =>
  service.call(httpApiEvent({ headers: { authorization: `Bearer ${service.token('user-sub-1', claims)}` } }));
const reasons = () =>
  service.logs
    .entries()
    .filter((entry) => 'AuthFailures' in entry)
    .map((entry) => entry.reason);

describe('Cognito user pool tokens', () => {
  it('accepts an access token for the app client, as Cognito issues it', async () => {
    expect(await call()).toMatchObject({ status: 200, body: [{ name: 'Cactus' }] });
  });

  it.each([
    ['another app client', { client_id: 'other-client' }, 'wrong_audience'],
    [
      'an id token (only access tokens by default)',
      { token_use: 'id', aud: CLIENT_ID, client_id: undefined },
      'wrong_token_use',
    ],
    ['no token_use', { token_use: undefined }, 'wrong_token_use'],
    ['another issuer', { iss: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_Other' }, 'wrong_issuer'],
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 60 }, 'expired'],
  ])('refuses a token for %s with 401, counted as %s', async (_, claims, reason) => {
    const before = reasons().length;
    const reply = await call(claims);
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/invalid_token/);
    expect(reasons().slice(before)).toEqual([reason]);
  });
});
