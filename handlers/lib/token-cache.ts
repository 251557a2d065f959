// Tokens that fully verified, remembered until they expire, so a warm container does not verify
// the same RS256 signature on every request of a caller.

import { createHash } from 'node:crypto';
import type { JwtPayload } from 'aws-jwt-verify/jwt-model';

/** Entries, and the token characters they may hold in all: a few MB at most, whatever is sent. */
export const TOKEN_CACHE_MAX_ENTRIES = 1000;
export const TOKEN_CACHE_MAX_CHARS = 2_000_000;

interface Entry {
  payload: JwtPayload;
  /** The token's `exp`, in milliseconds. */
  expiresAt: number;
  /** The key set version the token was verified with. */
  keysVersion: number;
  size: number;
}

/** A signature as aws-jwt-verify reads it: base64url characters, then at most two `=`. */
const SIGNATURE = /^[A-Za-z0-9_-]*={0,2}$/;

/**
 * The cache key: a digest of the token in its canonical spelling, so a key is 43 characters
 * whatever the token's size, and one token takes one entry however it is spelt. The signed part
 * (header.payload) is what it is; the signature is not: aws-jwt-verify decodes it with Node's
 * base64 decoder, which ignores `=` padding and the unused low bits of the last character, so an
 * RS256 token verifies in 48 spellings (3 paddings × 16 values of those 4 bits). Keyed on the
 * signature's bytes re-encoded, all 48 are one entry; every one of them verifies as the library
 * would verify it, since it checks those same bytes. A signature outside the library's alphabet
 * is keyed as sent: the library refuses it, and no canonical key can equal it.
 */
export function tokenKey(token: string): string {
  const dot = token.lastIndexOf('.');
  const signature = token.slice(dot + 1);
  const canonical =
    dot > 0 && SIGNATURE.test(signature)
      ? `${token.slice(0, dot)}.${Buffer.from(signature, 'base64url').toString('base64url')}`
      : token;
  return createHash('sha256').update(canonical).digest('base64url');
}

/**
 * Least recently used first (a Map keeps insertion order; a hit moves to the end). An entry is
 * served only while its token has not expired and the key set it was verified with is still the
 * current one and within its maximum age: exactly when a verify with the cached keys would accept
 * the token again. Only what the caller puts in after a full verification ever enters.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;
  private readonly maxEntries: number;
  private readonly maxChars: number;

  constructor(maxEntries = TOKEN_CACHE_MAX_ENTRIES, maxChars = TOKEN_CACHE_MAX_CHARS) {
    this.maxEntries = maxEntries;
    this.maxChars = maxChars;
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string, keys: { version: number; fresh: boolean }, now = Date.now()): JwtPayload | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.remove(key, entry);
    // aws-jwt-verify accepts a token until the end of its `exp` second: so does the cache.
    if (entry.keysVersion !== keys.version || !keys.fresh || now > entry.expiresAt) return undefined;
    this.add(key, entry);
    return entry.payload;
  }

  /** `payload` must come from a verification that succeeded with key set `keysVersion`. */
  set(key: string, token: string, payload: JwtPayload, keysVersion: number): void {
    if (typeof payload.exp !== 'number' || token.length > this.maxChars) return;
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    this.add(key, { payload: Object.freeze(payload), expiresAt: payload.exp * 1000, keysVersion, size: token.length });
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.chars <= this.maxChars) break;
      this.remove(oldest, entry);
    }
  }

  private add(key: string, entry: Entry): void {
    this.entries.set(key, entry);
    this.chars += entry.size;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.chars -= entry.size;
  }
}
