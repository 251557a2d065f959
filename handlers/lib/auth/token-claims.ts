// What a signed token must also say before it is accepted: that it is an access token for this
// API, when it expires, and no header extension it would need us to understand.

import { validateCognitoJwtFields } from 'aws-jwt-verify/cognito-verifier';
import type { JwtHeader, JwtPayload } from 'aws-jwt-verify/jwt-model';
import type { AuthConfig } from '../environment.ts';
import { UnauthorizedError } from '../errors.ts';

/** How far ahead of this clock an issuer's `iat` may be: NTP-synced clocks differ by far less. */
export const CLOCK_SKEW_SECONDS = 60;

type ClaimsConfig = Pick<AuthConfig, 'issuerType' | 'tokenUse' | 'audience' | 'maxTokenLifetime'>;

/** Runs as aws-jwt-verify's customJwtCheck: after the signature, `exp`, `nbf`, `iss` and `aud`. */
export function checkTokenClaims(
  { header, payload }: { header: JwtHeader; payload: JwtPayload },
  config: ClaimsConfig,
  now = Date.now() / 1000,
): void {
  // RFC 7515 §4.1.11: a recipient must refuse extensions it does not understand, and this API
  // understands none (`b64: false` from RFC 7797 would change what the signature covers).
  if (header.crit !== undefined) {
    throw new UnauthorizedError(
      'The access token needs a header extension this API does not support',
      'unsupported_crit',
    );
  }
  checkTokenUse(header, payload, config);
  checkLifetime(payload, config.maxTokenLifetime, now);
}

function checkTokenUse(header: JwtHeader, payload: JwtPayload, config: ClaimsConfig): void {
  const { tokenUse } = config;
  if (config.issuerType === 'cognito') {
    const cognitoTokenUse = tokenUse === 'access' || tokenUse === 'id' ? tokenUse : null;
    validateCognitoJwtFields(payload, { tokenUse: cognitoTokenUse, clientId: config.audience });
    return;
  }
  const refused =
    tokenUse === 'not-id' ? marksIdToken(header, payload) : tokenUse !== 'any' && payload.token_use !== tokenUse;
  if (refused) {
    throw new UnauthorizedError(`The token is not an ${tokenUse === 'id' ? 'id' : 'access'} token`, 'wrong_token_use');
  }
}

/**
 * What sets an ID token apart from an access token, at the issuers checked (Auth0, Okta, Entra ID,
 * Keycloak, Cognito; docs/reliability.md): a `token_use` other than `access` (Cognito); an
 * explicitly typed `typ` (`…+jwt`, RFC 8725 §3.11) other than an access token's `at+jwt` (RFC
 * 9068), such as `logout+jwt`; Keycloak's `typ` claim `ID`; or a `nonce` (OpenID Connect Core §2),
 * unless the token says it is an access token: Keycloak before 25 copied the nonce into them; or
 * an `at_hash` or `c_hash`, which OpenID Connect Core (§3.1.3.6, §3.3.2.11) defines for ID
 * tokens only (a code-flow ID token without a nonce, Entra ID v2's) and no issuer checked puts
 * in an access token. `typ: JWT`, or none, says nothing: Entra ID, Auth0 and Keycloak put `JWT`
 * on both kinds.
 */
function marksIdToken(header: JwtHeader, payload: JwtPayload): boolean {
  const typ = typeof header.typ === 'string' ? header.typ.toLowerCase() : '';
  const typedAccess = ACCESS_TYP.test(typ);
  if (typ.endsWith('+jwt') && !typedAccess) return true;
  if (payload.at_hash !== undefined || payload.c_hash !== undefined) return true;
  if (payload.token_use !== undefined && payload.token_use !== 'access') return true;
  const claimTyp = typeof payload.typ === 'string' ? payload.typ.toLowerCase() : undefined;
  if (claimTyp === 'id') return true;
  const saysAccess = typedAccess || payload.token_use === 'access' || claimTyp === 'bearer';
  return payload.nonce !== undefined && !saysAccess;
}

/** `at+jwt`, `application/at+jwt` (RFC 9068 §2.1), `application/okta-internal-at+jwt` (Okta's org server). */
const ACCESS_TYP = /(^|[/-])at\+jwt$/;

/**
 * A token must expire, must not come from the future, and must not live longer than the
 * configured maximum. Without `iat` the time left stands in for the lifetime: it is never longer.
 */
function checkLifetime(payload: JwtPayload, maxLifetime: number, now: number): void {
  // aws-jwt-verify has checked that exp and iat, when present, are finite numbers.
  if (payload.exp === undefined) throw new UnauthorizedError('The access token has no expiry', 'missing_exp');
  if (payload.iat !== undefined && payload.iat > now + CLOCK_SKEW_SECONDS) {
    throw new UnauthorizedError('The access token is issued in the future', 'issued_in_future');
  }
  if (payload.exp - Math.min(payload.iat ?? now, now) > maxLifetime) {
    throw new UnauthorizedError('The access token lives longer than this API accepts', 'lifetime_too_long');
  }
}
