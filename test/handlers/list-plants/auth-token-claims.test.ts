// An OIDC issuer with AUTH_TOKEN_USE unset (the default): access tokens shaped as real issuers
// shape them pass; ID tokens (a nonce, a token_use or typ that says so, an at_hash or c_hash),
// tokens that never expire or live too long, tokens from the future and tokens with a `crit`
// header are refused, each counted under its own AuthFailures reason.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { signToken } from '../../../local/issuer/issuer.ts';
import { httpApiEvent } from '../../helpers/events.ts';
import { AUDIENCE, type Service, startService } from '../../helpers/service.ts';

let service: Service;

beforeAll(async () => {
  service = await startService({ AUTH_TOKEN_USE: '' });
  await service.seed([{ owner: 'alice', id: 'p1', name: 'Fern' }]);
});
afterAll(() => service?.stop());

const now = () => Math.floor(Date.now() / 1000);
/** Claims as a generic OIDC issuer puts them, without Cognito's `token_use`. */
const signed = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
  signToken(
    service.key,
    { iss: service.issuer.url, aud: AUDIENCE, sub: 'alice', iat: now(), exp: now() + 600, ...claims },
    header,
  );
const call = (token: string) => service.call(httpApiEvent({ headers: { authorization: `Bearer ${token}` } }));
const reasons = () =>
  service.logs
    .entries()
    .filter((entry) => 'AuthFailures' in entry)
    .map((entry) => entry.reason);

describe('the OIDC default', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['Entra ID or Auth0 (typ JWT)', {}, { scp: 'Plants.Read' }],
    ['Okta’s org server', { typ: 'application/okta-internal-at+jwt' }, { cid: 'client' }],
    ['an RFC 9068 issuer (typ at+jwt)', { typ: 'at+jwt' }, { client_id: 'client', jti: 'j' }],
    ['Keycloak before 25 (a nonce, and typ Bearer)', {}, { typ: 'Bearer', nonce: 'n' }],
  ])('accepts an access token from %s', async (_, header, claims) => {
    expect(await call(signed(claims, header))).toMatchObject({ status: 200, body: [{ name: 'Fern' }] });
  });

  it.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
    ['an ID token whose aud is the API (nonce)', 'wrong_token_use', {}, { nonce: 'n', at_hash: 'h' }],
    ['an ID token that says token_use id', 'wrong_token_use', {}, { token_use: 'id' }],
    ['a Keycloak ID token', 'wrong_token_use', {}, { typ: 'ID' }],
    ['a code-flow ID token (at_hash, sid, no nonce)', 'wrong_token_use', {}, { at_hash: 'aGFzaA', sid: 's' }],
    ['an ID token from a hybrid flow (c_hash)', 'wrong_token_use', {}, { c_hash: 'aGFzaA' }],
    ['an Entra ID v2 ID token', 'wrong_token_use', {}, { ver: '2.0', oid: 'o', tid: 't', at_hash: 'aGFzaA' }],
    ['an ID token with at_hash though typed at+jwt', 'wrong_token_use', { typ: 'at+jwt' }, { at_hash: 'aGFzaA' }],
    ['a logout token', 'wrong_token_use', { typ: 'logout+jwt' }, { events: {} }],
    ['no exp', 'missing_exp', {}, { exp: undefined }],
    ['exp = 1e300', 'lifetime_too_long', {}, { exp: 1e300 }],
    ['a lifetime over 24 h', 'lifetime_too_long', {}, { iat: now() - 10, exp: now() - 10 + 86_401 }],
    ['iat ten years ahead', 'issued_in_future', {}, { iat: now() + 315_360_000 }],
    ['a crit header', 'unsupported_crit', { crit: ['b64'], b64: false }, {}],
  ])('refuses %s with 401, counted as %s', async (_, reason, header, claims) => {
    const before = reasons().length;
    const reply = await call(signed(claims, header));
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    expect(reasons().slice(before)).toEqual([reason]);
  });
});
