// The issuer's signing keys, cached per container and refetched once they are older than a
// maximum age, so a key the issuer withdraws stops verifying in warm containers too; keys too weak
// to trust, or published for something other than verifying, are left out as the set is read.

import { createPublicKey } from 'node:crypto';
import { KidNotFoundInJwksError } from 'aws-jwt-verify/error';
import type { Fetcher } from 'aws-jwt-verify/https';
import { type Jwk, type Jwks, type JwkWithKid, SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { DecomposedJwt } from 'aws-jwt-verify/jwt';

/**
 * One hour: a withdrawn key is trusted for at most about that long by a warm container, for one
 * background fetch per container-hour (docs/reliability.md gives the reasons).
 */
export const JWKS_MAX_AGE_MS = 3_600_000;
/** After a failed refetch the cached keys keep serving; the next attempt waits this long. */
export const JWKS_RETRY_AFTER_MS = 60_000;

/** RSA keys under this many bits are refused (NIST SP 800-131A). */
export const MIN_RSA_BITS = 2048;
/** RSA exponents below this (e = 3 and the like) are refused; issuers use 65537. */
export const MIN_RSA_EXPONENT = 65537n;

/** The token names a key left out as unfit to verify with: too weak, or not for verifying (authenticate() records it as weak_key). */
export class WeakKeyError extends KidNotFoundInJwksError {}

export interface AgingJwksCacheOptions {
  fetcher: Fetcher;
  /** Called with each key set that differs from the last one. */
  onNewKeys?: (jwks: Jwks) => void;
}

/**
 * aws-jwt-verify's cache keeps a key set for the container's life and refetches only for an
 * unknown `kid`. This one also refetches once the set is older than JWKS_MAX_AGE_MS: the request that
 * notices starts the fetch and is verified with the cached keys meanwhile, so no request waits
 * for it or fails because of it. A failed refetch is tried again after JWKS_RETRY_AFTER_MS.
 */
export class AgingJwksCache extends SimpleJwksCache {
  /** Bumped whenever the key set changes: what was verified with an older one is not current. */
  version = 0;
  /** The latest background refetch; settles (never rejects) when it is done. */
  refreshing: Promise<void> | undefined;
  private fetchedAt = Number.NEGATIVE_INFINITY;
  private nextAttemptAt = 0;
  private lastKeys = '';
  private readonly onNewKeys: (jwks: Jwks) => void;
  /** The last set's keys unfit to verify with, by kid, and why: left out of the set, they verify nothing. */
  private weakKeys = new Map<string, string>();

  constructor({ fetcher, onNewKeys = () => {} }: AgingJwksCacheOptions) {
    super({ fetcher });
    this.onNewKeys = onNewKeys;
    const parse = this.jwksParser;
    this.jwksParser = (body) => {
      const jwks = parse(body);
      const judged = jwks.keys.map((jwk) => ({ jwk, weak: notForVerifying(jwk) ?? weakness(jwk) }));
      this.weakKeys = new Map(judged.flatMap(({ jwk, weak }) => (weak ? [[String(jwk.kid), weak]] : [])));
      return { ...jwks, keys: judged.filter(({ weak }) => !weak).map(({ jwk }) => jwk) };
    };
  }

  /** True while the cached key set is younger than the maximum age. */
  get fresh(): boolean {
    return Date.now() - this.fetchedAt < JWKS_MAX_AGE_MS;
  }

  override async getJwks(jwksUri: string): Promise<Jwks> {
    const jwks = await super.getJwks(jwksUri);
    this.fetchedAt = Date.now();
    const keys = JSON.stringify(jwks);
    if (keys !== this.lastKeys) {
      this.lastKeys = keys;
      this.version += 1;
      this.onNewKeys(jwks);
    }
    return jwks;
  }

  override async getJwk(jwksUri: string, decomposedJwt: DecomposedJwt): Promise<JwkWithKid> {
    if (!this.fresh && this.fetchedAt > Number.NEGATIVE_INFINITY && Date.now() >= this.nextAttemptAt) {
      this.nextAttemptAt = Date.now() + JWKS_RETRY_AFTER_MS;
      // Not awaited: this request is verified with the keys already cached.
      this.refreshing = this.getJwks(jwksUri).then(
        () => undefined,
        () => undefined,
      );
    }
    try {
      return await super.getJwk(jwksUri, decomposedJwt);
    } catch (error) {
      const weak = this.weakKeys.get(String(decomposedJwt.header.kid));
      throw weak === undefined ? error : new WeakKeyError(`JWK for kid ${decomposedJwt.header.kid} refused: ${weak}`);
    }
  }
}

/**
 * Why a key may not verify signatures, or undefined: its `use` is not `sig`, or its `key_ops` lack
 * `verify` (RFC 7517 §4.2, §4.3; aws-jwt-verify checks `use` alone, when it verifies).
 */
function notForVerifying(jwk: Jwk): string | undefined {
  if (jwk.use !== undefined && jwk.use !== 'sig') return `use ${JSON.stringify(jwk.use)}, not "sig"`;
  const ops = jwk.key_ops;
  if (ops !== undefined && !(Array.isArray(ops) && ops.includes('verify'))) {
    return `key_ops ${JSON.stringify(ops)} without "verify"`;
  }
  return undefined;
}

/** Why a key is too weak to trust, or undefined: an RSA key under MIN_RSA_BITS or MIN_RSA_EXPONENT, or unreadable. */
function weakness(jwk: Jwk): string | undefined {
  if (jwk.kty !== 'RSA') return undefined;
  try {
    const { modulusLength = 0, publicExponent = 0n } =
      createPublicKey({ key: jwk, format: 'jwk' }).asymmetricKeyDetails ?? {};
    if (modulusLength < MIN_RSA_BITS) return `RSA key of ${modulusLength} bits, under ${MIN_RSA_BITS}`;
    if (publicExponent < MIN_RSA_EXPONENT) return `RSA exponent ${publicExponent}, under ${MIN_RSA_EXPONENT}`;
    return undefined;
  } catch {
    return 'not a readable RSA key';
  }
}
