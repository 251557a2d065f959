// What a signed token must also say: access tokens as real issuers shape them pass, ID tokens and
// other kinds do not, and every token expires within the configured lifetime.

import { describe, expect, it } from '@jest/globals';
import type { JwtHeader, JwtPayload } from 'aws-jwt-verify/jwt-model';
import { checkTokenClaims } from '../../../../handlers/lib/auth/token-claims.ts';
import type { AuthConfig } from '../../../../handlers/lib/environment.ts';
import { UnauthorizedError } from '../../../../handlers/lib/errors.ts';

const NOW = 1_800_000_000;
const oidc = (tokenUse: AuthConfig['tokenUse'] = 'not-id') => ({
  issuerType: 'oidc' as const,
  tokenUse,
  audience: ['api'],
  maxTokenLifetime: 86_400,
});
const lifetime = { iat: NOW - 60, exp: NOW + 3540 };

type Claims = Record<string, unknown>;

/** The reason checkTokenClaims refuses with, or 'accepted'. `undefined` claims are left out. */
function outcome(header: JwtHeader, claims: Claims, config = oidc()): string {
  const payload: JwtPayload = JSON.parse(JSON.stringify({ ...lifetime, ...claims }));
  try {
    checkTokenClaims({ header: { alg: 'RS256', kid: 'k', ...header }, payload }, config, NOW);
    return 'accepted';
  } catch (error) {
    if (error instanceof UnauthorizedError) return error.reason;
    throw error;
  }
}

describe('telling access tokens from ID tokens (OIDC issuers, the default)', () => {
  // Header and claims as each issuer documents or is seen to issue them (docs/reliability.md).
  it.each<[string, JwtHeader, Claims]>([
    ['Auth0, default profile', { typ: 'JWT' }, { azp: 'client', scope: 'openid read:plants' }],
    ['Auth0, RFC 9068 profile', { typ: 'at+jwt' }, { client_id: 'client', jti: 'j' }],
    ['Okta, custom authorization server (no typ)', {}, { cid: 'client', uid: 'u', scp: ['plants'] }],
    ['Okta, org authorization server', { typ: 'application/okta-internal-at+jwt' }, { cid: 'client' }],
    ['Entra ID', { typ: 'JWT' }, { azp: 'client', scp: 'Plants.Read', ver: '2.0' }],
    ['Keycloak 25+', { typ: 'JWT' }, { typ: 'Bearer', azp: 'client' }],
    ['Keycloak before 25, which copied the nonce', { typ: 'JWT' }, { typ: 'Bearer', nonce: 'n', azp: 'client' }],
    ['Keycloak with typ at+jwt', { typ: 'at+jwt' }, { typ: 'Bearer', nonce: 'n' }],
    ['an issuer that says token_use access', {}, { token_use: 'access', nonce: 'n' }],
    ['an RFC 9068 token with the application/ prefix', { typ: 'application/at+jwt' }, {}],
  ])('accepts an access token from %s', (_, header, payload) => {
    expect(outcome(header, payload)).toBe('accepted');
  });

  it.each<[string, JwtHeader, Claims]>([
    ['a Cognito-style ID token (token_use id)', {}, { token_use: 'id' }],
    ['an ID token with the nonce the client sent', { typ: 'JWT' }, { nonce: 'n', at_hash: 'h' }],
    ['a Keycloak ID token (typ claim ID)', { typ: 'JWT' }, { typ: 'ID' }],
    ['an OIDC back-channel logout token', { typ: 'logout+jwt' }, { events: {} }],
    ['a token typed as another kind', { typ: 'secevent+jwt' }, {}],
    ['an ID token typed as such', { typ: 'id_token+jwt' }, {}],
  ])('refuses %s as wrong_token_use', (_, header, payload) => {
    expect(outcome(header, payload)).toBe('wrong_token_use');
  });

  it('accepts an ID token only with AUTH_TOKEN_USE=any, the documented opt-out', () => {
    expect(outcome({}, { nonce: 'n', token_use: 'id' }, oidc('any'))).toBe('accepted');
  });

  it('requires token_use when AUTH_TOKEN_USE names one', () => {
    expect(outcome({ typ: 'at+jwt' }, {}, oidc('access'))).toBe('wrong_token_use');
    expect(outcome({}, { token_use: 'id' }, oidc('id'))).toBe('accepted');
  });
});

describe('expiry and lifetime', () => {
  it.each<[string, Claims, string]>([
    ['no exp', { exp: undefined }, 'missing_exp'],
    ['exp = 1e300', { exp: 1e300 }, 'lifetime_too_long'],
    ['iat ten years ahead', { iat: NOW + 315_360_000, exp: NOW + 315_360_600 }, 'issued_in_future'],
    ['iat two minutes ahead', { iat: NOW + 120, exp: NOW + 720 }, 'issued_in_future'],
    ['a lifetime one second over 24 h', { iat: NOW - 60, exp: NOW - 60 + 86_401 }, 'lifetime_too_long'],
    ['no iat, and more than 24 h left', { iat: undefined, exp: NOW + 86_401 }, 'lifetime_too_long'],
  ])('refuses a token with %s', (_, payload, reason) => {
    expect(outcome({}, payload)).toBe(reason);
  });

  it.each<[string, Claims]>([
    ['a lifetime of exactly 24 h', { iat: NOW - 60, exp: NOW - 60 + 86_400 }],
    ['iat within a minute ahead (clock skew)', { iat: NOW + 60, exp: NOW + 660 }],
    ['no iat and an hour left', { iat: undefined, exp: NOW + 3600 }],
  ])('accepts a token with %s', (_, payload) => {
    expect(outcome({}, payload)).toBe('accepted');
  });

  it('applies the configured maximum', () => {
    const config = { ...oidc(), maxTokenLifetime: 900 };
    expect(outcome({}, { iat: NOW, exp: NOW + 901 }, config)).toBe('lifetime_too_long');
    expect(outcome({}, { iat: NOW, exp: NOW + 900 }, config)).toBe('accepted');
  });
});

describe('crit', () => {
  it.each([[['b64']], [['exp']], [[]], ['b64']])('refuses a token whose header has crit %j', (crit) => {
    expect(outcome({ crit, b64: false }, {})).toBe('unsupported_crit');
  });
});
