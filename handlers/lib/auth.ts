// Bearer-token authentication with aws-jwt-verify: who is calling, as proven by the token.

import { JwtVerifier } from 'aws-jwt-verify';
import { validateCognitoJwtFields } from 'aws-jwt-verify/cognito-verifier';
import {
  FetchError,
  JwksValidationError,
  JwtExpiredError,
  JwtInvalidScopeError,
  JwtNotBeforeError,
} from 'aws-jwt-verify/error';
import { SimpleFetcher } from 'aws-jwt-verify/https';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import type { AuthConfig } from './config.ts';
import { ForbiddenError, ServiceUnavailableError, UnauthorizedError } from './errors.ts';

export interface TokenVerifier {
  (token: string): Promise<JwtPayload>;
  /** The JWKS fetch started when the verifier was built; settles (never rejects) once it is done. */
  hydrated: Promise<void>;
}

// Bounded so a slow issuer cannot hold the request near the function timeout: aws-jwt-verify
// retries once, so a JWKS fetch gives up after at most 2 × 1.5 s.
const JWKS_FETCH_TIMEOUTS = { timeout: 1000, responseTimeout: 1500 };

/**
 * Built once per container, during init: the JWKS fetch starts at once (aws-jwt-verify's
 * hydrate()), so its TCP and TLS round trips overlap the rest of the cold start instead of
 * delaying the first request. A request that arrives while it is in flight joins it; a failed
 * prefetch is not cached, and the first request fetches again (503 if the issuer is still down).
 */
export function createTokenVerifier(config: AuthConfig): TokenVerifier {
  const jwksCache = new SimpleJwksCache({
    fetcher: new SimpleFetcher({ defaultRequestOptions: JWKS_FETCH_TIMEOUTS }),
  });
  const verifier = JwtVerifier.create(
    {
      issuer: config.issuer,
      jwksUri: config.jwksUri,
      // Cognito access tokens carry `client_id`, not `aud`: checked below instead.
      audience: config.isCognito ? null : config.audience,
      ...(config.requiredScope && { scope: config.requiredScope }),
      customJwtCheck: ({ payload }) => checkTokenUse(payload, config),
    },
    { jwksCache },
  );
  const verify = (token: string) => verifier.verify(token);
  return Object.assign(verify, { hydrated: verifier.hydrate().catch(() => undefined) });
}

function checkTokenUse(payload: JwtPayload, config: AuthConfig): void {
  if (config.isCognito) {
    validateCognitoJwtFields(payload, { tokenUse: config.tokenUse, clientId: config.audience });
  } else if (config.tokenUse !== null && payload.token_use !== config.tokenUse) {
    throw new UnauthorizedError(`The token is not an ${config.tokenUse} token`, 'wrong_token_use');
  }
}

/** Verifies the request's bearer token and returns the caller's `sub`. */
export async function authenticate(
  authorization: string | undefined,
  verify: TokenVerifier,
  requiredScope: readonly string[] | undefined,
): Promise<string> {
  const token = bearerToken(authorization);
  let payload: JwtPayload;
  try {
    payload = await verify(token);
  } catch (error) {
    throw toAuthError(error, requiredScope);
  }
  if (typeof payload.sub !== 'string' || payload.sub === '') {
    throw new UnauthorizedError('The access token has no subject', 'no_subject');
  }
  return payload.sub;
}

/**
 * RFC 6750 §2.1 credentials: `Bearer`, matched case-insensitively (RFC 7235 §2.1), one or more
 * spaces, one b64token. Split on spaces rather than one regex: a header is attacker-sized, and
 * patterns with adjacent space runs backtrack quadratically on long runs of spaces.
 */
function bearerToken(authorization: string | undefined): string {
  const [scheme = '', ...tokens] = (authorization ?? '').split(' ').filter(Boolean);
  if (scheme.toLowerCase() !== 'bearer' || tokens.length === 0) {
    throw new UnauthorizedError('A bearer token is required', 'missing_token');
  }
  // One token of the b64token alphabet: two credentials (repeated headers are joined by ", "),
  // control characters and injected lines are refused before any parsing.
  const [token = ''] = tokens;
  if (tokens.length > 1 || !B64TOKEN.test(token)) {
    throw new UnauthorizedError('The access token is invalid', 'malformed');
  }
  return token;
}

const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

function toAuthError(error: unknown, requiredScope: readonly string[] | undefined): Error {
  // FetchError extends JwtBaseError: check outages first so they never look like bad tokens.
  if (error instanceof FetchError || error instanceof JwksValidationError) {
    return new ServiceUnavailableError(error);
  }
  if (error instanceof UnauthorizedError) return error;
  if (error instanceof JwtInvalidScopeError && requiredScope) return new ForbiddenError(requiredScope);
  if (error instanceof JwtExpiredError) return new UnauthorizedError('The access token has expired', 'expired');
  if (error instanceof JwtNotBeforeError)
    return new UnauthorizedError('The access token is not valid yet', 'not_yet_valid');
  return new UnauthorizedError('The access token is invalid', 'invalid');
}
