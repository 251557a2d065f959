// Why the function refused a token, for the local server's log: the token is checked again here
// with the function's own settings, since the function answers every caller with a short reason
// on purpose. Local only; the token itself is never written.

import { JwtVerifier } from 'aws-jwt-verify';
import {
  JwtExpiredError,
  JwtInvalidIssuerError,
  JwtInvalidSignatureError,
  JwtParseError,
  KidNotFoundInJwksError,
} from 'aws-jwt-verify/error';
import { hasScope } from '../handlers/lib/auth.ts';
import type { AuthConfig } from '../handlers/lib/config.ts';
import { UnauthorizedError } from '../handlers/lib/errors.ts';
import { refuseForeignIssuer, verifierSettings } from '../handlers/lib/token-verifier.ts';

export type RefusalExplainer = (authorization: string | undefined) => Promise<string>;

/** `jwks`: the local issuer's key set, used as is; without it the verifier fetches the issuer's. */
export function refusalExplainer(config: AuthConfig, port: number, jwks?: object): RefusalExplainer {
  // The function's own checks, in its order, so the reason given is the one that refused the token.
  const verifier = JwtVerifier.create(verifierSettings(config));
  // biome-ignore lint/suspicious/noExplicitAny: cacheJwks takes aws-jwt-verify's own Jwks type
  if (jwks) verifier.cacheJwks(jwks as any);
  return async (authorization) => {
    const [scheme = '', token, ...rest] = (authorization ?? '').split(' ').filter(Boolean);
    if (!authorization) return 'no Authorization header (send "Authorization: Bearer <token>")';
    if (scheme.toLowerCase() !== 'bearer' || !token || rest.length > 0) {
      return 'the Authorization header is not "Bearer <token>" (paste the token alone after "Bearer ")';
    }
    try {
      // As in the function: this verifier would otherwise keep a key object per forged `iss`.
      refuseForeignIssuer(token, config.issuer);
      const payload = await verifier.verify(token);
      if (config.requiredScope && !hasScope(payload, config.requiredScope)) {
        return `the token's scope has none of "${config.requiredScope.join(' ')}" (npm run token -- <user> --scope ...)`;
      }
      return 'the token verifies here: the function refused it for another reason (see its log line)';
    } catch (error) {
      return describe(error, port);
    }
  };
}

function describe(error: unknown, port: number): string {
  const message = (error as Error).message;
  if (error instanceof JwtExpiredError) return `expired: ${message} (a fresh one: npm run token -- <user>)`;
  if (error instanceof JwtInvalidIssuerError) {
    return `wrong issuer: ${message} (a token for this server: npm run token -- <user> --port ${port})`;
  }
  if (error instanceof KidNotFoundInJwksError) {
    return `signed with a key this server does not know: ${message} (minted with another PLANTS_LOCAL_DIR?)`;
  }
  if (error instanceof JwtInvalidSignatureError) return `bad signature: ${message}`;
  if (error instanceof JwtParseError) return `not a JWT: ${message}`;
  if (error instanceof UnauthorizedError && error.reason === 'lifetime_too_long') {
    return `${message}: over AUTH_MAX_TOKEN_LIFETIME (default 24 h; a shorter one: npm run token -- <user> --ttl 1h)`;
  }
  return message;
}
