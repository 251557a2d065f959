// One RS256 token has 48 spellings that verify: its signature with or without `=` padding, and
// with any value of the 4 unused bits of its last character. The verifier remembers them as one
// token, verifies each as aws-jwt-verify does, and refuses what the library refuses.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readConfig } from '../../handlers/lib/config.ts';
import { tokenKey } from '../../handlers/lib/token-cache.ts';
import { createTokenVerifier, type PrefetchingTokenVerifier } from '../../handlers/lib/token-verifier.ts';
import { type Service, startService } from '../helpers/service.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Every spelling of the token's signature that decodes to the same bytes (2048-bit RSA: 342 characters). */
function spellings(token: string): string[] {
  const dot = token.lastIndexOf('.');
  const signature = token.slice(dot + 1);
  const last = ALPHABET.indexOf(signature.at(-1) ?? '');
  const all: string[] = [];
  for (let unused = 0; unused < 16; unused++) {
    const char = ALPHABET[(last & 0b110000) | unused] ?? '';
    for (const padding of ['', '=', '=='])
      all.push(`${token.slice(0, dot + 1)}${signature.slice(0, -1)}${char}${padding}`);
  }
  return all;
}

let service: Service;
let verify: PrefetchingTokenVerifier;
beforeAll(async () => {
  service = await startService();
  verify = createTokenVerifier(readConfig().auth);
  await verify.hydrated;
});
afterAll(() => service?.stop());

describe('the spellings of one token', () => {
  it('are 48 distinct strings with one cache key', () => {
    const all = spellings(service.token('alice'));
    expect(new Set(all).size).toBe(48);
    expect(new Set(all.map(tokenKey)).size).toBe(1);
  });

  it('all verify, and take one entry of the verified-token cache', async () => {
    const before = verify.verified.size;
    for (const spelling of spellings(service.token('alice'))) expect((await verify(spelling)).sub).toBe('alice');
    expect(verify.verified.size - before).toBe(1);
  });

  it('take distinct entries for distinct tokens', async () => {
    const before = verify.verified.size;
    await verify(service.token('bob'));
    await verify(service.token('carol'));
    expect(verify.verified.size - before).toBe(2);
  });
});

describe('a spelling that changes what is signed or how it is read', () => {
  it('is refused even when the canonical spelling was verified first', async () => {
    const token = service.token('alice');
    await verify(token);
    const [head = '', payload = '', signature = ''] = token.split('.');
    // A used bit of the signature flipped: other bytes, so another key and a failed signature.
    const flipped = `${head}.${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    // The standard alphabet's `+` and `/`: Node decodes them as `-` and `_`, aws-jwt-verify refuses them.
    const standard = `${head}.${payload}.${signature.replaceAll('-', '+').replaceAll('_', '/')}`;
    // Padding in the signed part changes the signing input.
    const padded = `${head}=.${payload}.${signature}`;
    expect(standard).not.toBe(token);
    for (const spelling of [flipped, standard, padded]) {
      expect(tokenKey(spelling)).not.toBe(tokenKey(token));
      await expect(verify(spelling)).rejects.toThrow();
    }
  });
});
