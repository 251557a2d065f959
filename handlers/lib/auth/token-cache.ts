// Tokens that fully verified, remembered until they expire, so a warm container does not verify
// the same RS256 signature on every request of a caller.

import { createHash } from 'node:crypto';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { SizedLru } from '../sized-lru.ts';
import { lowSSpelling } from './signature-shape.ts';

/** Entries, and the token characters they may hold in all: a few MB at most, whatever is sent. */
export const TOKEN_CACHE_MAX_ENTRIES = 1000;
export const TOKEN_CACHE_MAX_CHARS = 2_000_000;

interface Entry {
  payload: JwtPayload;
  /** The token's `exp`, in milliseconds. */
  expiresAt: number;
  /** The key set version the token was verified with. */
  keysVersion: number;
}

/**
 * The cache key: a digest of the token, so a key is 43 characters whatever the token's size. The
 * verifier takes only a signature's canonical base64url spelling, and an ECDSA signature's two
 * forms (r, s) and (r, n − s) share the low-S one (signature-shape.ts), so one token has one key.
 */
export function tokenKey(token: string): string {
  return createHash('sha256').update(lowSSpelling(token)).digest('base64url');
}

/**
 * Least recently used first, bounded by entries and by token characters (sized-lru.ts). An entry is
 * served only while its token has not expired and the key set it was verified with is still the
 * current one and within its maximum age: exactly when a verify with the cached keys would accept
 * the token again. Only what the caller puts in after a full verification ever enters.
 */
export class VerifiedTokenCache {
  private readonly entries: SizedLru<Entry>;
  private readonly maxChars: number;

  constructor(maxEntries = TOKEN_CACHE_MAX_ENTRIES, maxChars = TOKEN_CACHE_MAX_CHARS) {
    this.entries = new SizedLru(maxChars, maxEntries);
    this.maxChars = maxChars;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string, keys: { version: number; fresh: boolean }, now = Date.now()): JwtPayload | undefined {
    // aws-jwt-verify accepts a token until the end of its `exp` second: so does the cache.
    const live = (entry: Entry) => entry.keysVersion === keys.version && keys.fresh && now <= entry.expiresAt;
    return this.entries.get(key, live)?.payload;
  }

  /** `payload` must come from a verification that succeeded with key set `keysVersion`. */
  set(key: string, token: string, payload: JwtPayload, keysVersion: number): void {
    if (typeof payload.exp !== 'number' || token.length > this.maxChars) return;
    const entry = { payload: Object.freeze(payload), expiresAt: payload.exp * 1000, keysVersion };
    this.entries.set(key, entry, token.length);
  }
}
