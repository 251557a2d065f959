// Why the function refused a token, for the local server's log: the token is checked again here
// with the function's own settings, since the function answers every caller with a short reason
// on purpose. Local only; the token itself is never written.

import { JwtVerifier } from 'aws-jwt-verify';
import {
  FetchError,
  JwksValidationError,
  JwtExpiredError,
  JwtInvalidIssuerError,
  JwtInvalidSignatureError,
  JwtParseError,
  KidNotFoundInJwksError,
} from 'aws-jwt-verify/error';
import { bearerToken, hasScope } from '../../handlers/lib/auth/authenticate.ts';
import { refuseNonCanonicalSignature } from '../../handlers/lib/auth/signature-shape.ts';
import { refuseForeignIssuer, verifierSettings } from '../../handlers/lib/auth/token-verifier.ts';
import type { AuthConfig } from '../../handlers/lib/environment.ts';
import { UnauthorizedError } from '../../handlers/lib/errors.ts';

/** `status`: what the function answered (401, 403, or 503 when the issuer's keys were out of reach). */
export type RefusalExplainer = (authorization: string | undefined, status?: number) => Promise<string | undefined>;

/**
 * `jwks`: the local issuer's key set, used as is; without it the issuer is an external one
 * (AUTH_ISSUER), whose keys the verifier fetches, and whose tokens `npm run token` cannot mint.
 */
export function refusalExplainer(config: AuthConfig, port: number, jwks?: object): RefusalExplainer {
  // The function's own checks, in its order, so the reason given is the one that refused the token.
  const verifier = JwtVerifier.create(verifierSettings(config));
  // biome-ignore lint/suspicious/noExplicitAny: cacheJwks takes aws-jwt-verify's own Jwks type
  if (jwks) verifier.cacheJwks(jwks as any);
  const hints = jwks ? localHints(port) : externalHints(config);
  return async (authorization, status) => {
    if (!authorization) return 'no Authorization header (send "Authorization: Bearer <token>")';
    let token: string;
    try {
      // The function's own reading of the header, so what it refused for its form is said so here.
      token = bearerToken(authorization);
    } catch {
      return 'the Authorization header is not "Bearer <token>" (paste the token alone after "Bearer ", one space, nothing after)';
    }
    try {
      // As in the function: the one spelling of a signature; and this verifier would otherwise keep
      // a key object per forged `iss`.
      refuseNonCanonicalSignature(token);
      refuseForeignIssuer(token, config.issuer);
      const payload = await verifier.verify(token);
      if (config.requiredScope && !hasScope(payload, config.requiredScope)) {
        return `the token's scope has none of "${config.requiredScope.join(' ')}" (${hints.scope})`;
      }
      // A 503 with a good token: DynamoDB, most likely; the function's own log line says.
      if (status === 503) return undefined;
      return 'the token verifies here: the function refused it for another reason (see its log line)';
    } catch (error) {
      return describe(error, hints);
    }
  };
}

interface Hints {
  fresh: string;
  issuer: string;
  kid: string;
  scope: string;
}

const localHints = (port: number): Hints => ({
  fresh: 'a fresh one: npm run token -- <user>',
  issuer: `a token for this server: npm run token -- <user> --port ${port}`,
  kid: 'minted with another PLANTS_LOCAL_DIR?',
  scope: 'npm run token -- <user> --scope ...',
});

// `npm run token` mints for the local issuer only: with AUTH_ISSUER set, the tokens come from there.
const externalHints = ({ issuer, jwksUri }: AuthConfig): Hints => ({
  fresh: `a fresh one from ${issuer}`,
  issuer: `this server accepts tokens from ${issuer} (AUTH_ISSUER)`,
  kid: `the keys at ${jwksUri} do not include it`,
  scope: `ask ${issuer} for a token with that scope`,
});

function describe(error: unknown, hints: Hints): string {
  const message = (error as Error).message;
  if (error instanceof FetchError || error instanceof JwksValidationError) return unreachableKeys(message);
  if (error instanceof JwtExpiredError) return `expired: ${message} (${hints.fresh})`;
  if (error instanceof JwtInvalidIssuerError) return `wrong issuer: ${message} (${hints.issuer})`;
  if (error instanceof KidNotFoundInJwksError)
    return `signed with a key this server does not know: ${message} (${hints.kid})`;
  if (error instanceof JwtInvalidSignatureError) return `bad signature: ${message}`;
  if (error instanceof JwtParseError) return `not a JWT: ${message}`;
  if (error instanceof UnauthorizedError && error.reason === 'lifetime_too_long') {
    return `${message}: over AUTH_MAX_TOKEN_LIFETIME (default 24 h; a shorter one: npm run token -- <user> --ttl 1h)`;
  }
  return message;
}

/** The function answered 503: its JWKS could not be had. Says why, and the usual fix for a test issuer. */
function unreachableKeys(message: string): string {
  const untrusted = /self[- ]signed|unable to (get|verify)|certificate/i.test(message);
  const fix = untrusted
    ? ' (a test issuer with its own certificate: start with NODE_EXTRA_CA_CERTS=<its CA certificate, PEM>)'
    : '';
  return `the issuer's keys could not be fetched: ${message}${fix}`;
}
