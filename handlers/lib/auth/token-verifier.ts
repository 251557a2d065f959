// The verifier built once per container: aws-jwt-verify with this deployment's settings, a JWKS
// that ages out, a cache of tokens that verified, and the issuer checked before the library.

import { JwtVerifier } from 'aws-jwt-verify';
import { JwtInvalidIssuerError } from 'aws-jwt-verify/error';
import { decomposeUnverifiedJwt } from 'aws-jwt-verify/jwt';
import type { AuthConfig } from '../environment.ts';
import type { TokenVerifier } from './authenticate.ts';
import { AgingJwksCache } from './jwks-cache.ts';
import { jwksFetcher } from './jwks-fetcher.ts';
import { refuseNonCanonicalSignature, refuseUnfitSignature } from './signature-shape.ts';
import { tokenKey, VerifiedTokenCache } from './token-cache.ts';
import { checkTokenClaims } from './token-claims.ts';

export interface PrefetchingTokenVerifier extends TokenVerifier {
  /** The JWKS fetch started when the verifier was built; settles (never rejects) once it is done. */
  hydrated: Promise<void>;
  /** The cached key set: its version, whether it is within its maximum age, its refetch in flight. */
  keys: Pick<AgingJwksCache, 'version' | 'fresh' | 'refreshing'>;
  /** The tokens that verified and are remembered (token-cache.ts). */
  verified: Pick<VerifiedTokenCache, 'size'>;
}

/**
 * Built once per container, during init: the JWKS fetch starts at once (aws-jwt-verify's
 * hydrate()), so its TCP and TLS round trips overlap the rest of the cold start instead of
 * delaying the first request. A request that arrives while it is in flight joins it; a failed
 * prefetch is not cached, and the first request fetches again (503 if the issuer is still down).
 * A token that fully verified is remembered until it expires (token-cache.ts); any other is
 * checked for this issuer, and its signature for the key it names, before aws-jwt-verify sees it.
 */
export function createTokenVerifier(config: AuthConfig): PrefetchingTokenVerifier {
  const jwks = new AgingJwksCache({
    fetcher: jwksFetcher(config.jwksTimeoutMs),
    // aws-jwt-verify keeps key objects by kid until told of a new key set: a reused kid must not
    // keep its old key.
    onNewKeys: (keys) => verifier.cacheJwks(keys),
  });
  const verifier = JwtVerifier.create(verifierSettings(config), { jwksCache: jwks });
  const verified = new VerifiedTokenCache();
  const verify = async (token: string) => {
    refuseNonCanonicalSignature(token);
    const key = tokenKey(token);
    const cached = verified.get(key, jwks);
    if (cached) return cached;
    refuseForeignIssuer(token, config.issuer);
    // Read before verifying: a key set that changes meanwhile leaves the entry out of date.
    const keysVersion = jwks.version;
    // The key the library is about to use (cached: it finds the same one), so that a signature
    // it cannot check is refused as invalid rather than thrown as an Error (signature-shape.ts).
    const jwt = decomposeUnverifiedJwt(token);
    refuseUnfitSignature(jwt, await jwks.getJwk(config.jwksUri, jwt));
    const payload = await verifier.verify(token);
    verified.set(key, token, payload, keysVersion);
    return payload;
  };
  return Object.assign(verify, { hydrated: verifier.hydrate().catch(() => undefined), keys: jwks, verified });
}

/**
 * aws-jwt-verify 5.2.1 caches a key object under a token's unverified `iss` before it checks the
 * signature or the issuer, and never evicts it: with one issuer configured, forged tokens with
 * distinct `iss` values grow a warm container's memory without bound (docs/reliability.md). So a
 * token is refused, as any other invalid one, unless its `iss` is exactly this issuer.
 */
export function refuseForeignIssuer(token: string, issuer: string): void {
  const { iss } = decomposeUnverifiedJwt(token).payload;
  if (iss === issuer) return;
  // Quoted (escaped) and cut, since the token chose it.
  const shown = iss === undefined ? 'none' : JSON.stringify(iss.slice(0, 100));
  throw new JwtInvalidIssuerError(`Issuer not allowed: ${shown}, expected ${JSON.stringify(issuer)}`, iss, issuer);
}

/** What aws-jwt-verify checks of this deployment's tokens. */
function verifierSettings(config: AuthConfig) {
  return {
    issuer: config.issuer,
    jwksUri: config.jwksUri,
    // Cognito access tokens carry `client_id`, not `aud`: checked in checkTokenClaims instead.
    audience: config.issuerType === 'cognito' ? null : config.audience,
    // No `scope` here: the library checks it before customJwtCheck, which would answer 403 to a
    // token for another client. authenticate() checks it once the token is known to be ours.
    customJwtCheck: (jwt: Parameters<typeof checkTokenClaims>[0]) => checkTokenClaims(jwt, config),
  };
}
