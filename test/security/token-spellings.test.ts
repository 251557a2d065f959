// One RS256 token has 48 spellings aws-jwt-verify would accept: its signature with or without `=`
// padding, and with any value of the 4 unused bits of its last character. The verifier takes only
// the canonical one (unpadded base64url, as issuers write it), so a token is one cache entry and one
// key of any per-token rate limit; the other 47 are refused as invalid tokens. An ECDSA
// token has a second form that verifies, (r, n − s): taken, since issuers sign with either, and
// one cache entry with the first.

import { verify as cryptoVerify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { authenticate } from '../../handlers/lib/auth/authenticate.ts';
import { CURVE_OF_ALG } from '../../handlers/lib/auth/signature-shape.ts';
import { tokenKey } from '../../handlers/lib/auth/token-cache.ts';
import { createTokenVerifier, type PrefetchingTokenVerifier } from '../../handlers/lib/auth/token-verifier.ts';
import { readConfig } from '../../handlers/lib/config.ts';
import { createSigningKey, signToken } from '../../local/issuer/issuer.ts';
import { AUDIENCE, type Service, startService } from '../helpers/service.ts';

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

const EC_KEYS = (['ES256', 'ES384', 'ES512'] as const).map((alg) => [alg, createSigningKey(alg)] as const);

let service: Service;
let verify: PrefetchingTokenVerifier;
beforeAll(async () => {
  service = await startService({}, undefined, { moreKeys: EC_KEYS.map(([, key]) => key) });
  verify = createTokenVerifier(readConfig().auth);
  await verify.hydrated;
});
afterAll(() => service?.stop());

describe('the spellings of one token', () => {
  it('are 48 distinct strings, one of them the token as issued', () => {
    const token = service.token('alice');
    const all = spellings(token);
    expect(new Set(all).size).toBe(48);
    expect(all).toContain(token);
  });

  it('verify only as issued: the other 47 are refused and take no cache entry', async () => {
    const token = service.token('alice');
    expect((await verify(token)).sub).toBe('alice');
    const before = verify.verified.size;
    const others = spellings(token).filter((spelling) => spelling !== token);
    for (const spelling of others) await expect(verify(spelling)).rejects.toThrow('canonical base64url');
    expect(verify.verified.size).toBe(before);
  });

  it('other than as issued, are answered 401 invalid_token', async () => {
    const token = service.token('alice');
    const padded = `${token}=`;
    await expect(authenticate(`Bearer ${padded}`, verify, readConfig().auth)).rejects.toMatchObject({
      status: 401,
      reason: 'bad_signature',
    });
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

describe.each(EC_KEYS)('an %s token and its other form (r, n − s)', (alg, key) => {
  const curve = CURVE_OF_ALG.get(alg);
  const now = Math.floor(Date.now() / 1000);
  /** A token whose signature's s is on the side of n/2 asked for, and the same token with the other s. */
  function forms(high: boolean): [string, string] {
    // Each signature is high-S with probability about 1/2: 64 tries all failing would take 2^-64.
    for (let i = 0; i < 64; i++) {
      const token = signToken(key, {
        iss: service.issuer.url,
        aud: AUDIENCE,
        sub: `ec-${i}`,
        token_use: 'access',
        exp: now + 600,
      });
      const [issued, other] = [token, otherForm(token)];
      const s = BigInt(
        `0x${signature(issued)
          .subarray((curve?.bytes ?? 0) / 2)
          .toString('hex')}`,
      );
      if (s > (curve?.order ?? 0n) >> 1n === high) return [issued, other];
    }
    throw new Error(`no ${high ? 'high' : 'low'}-S signature in 64 tries`);
  }
  const signature = (token: string) => Buffer.from(token.slice(token.lastIndexOf('.') + 1), 'base64url');
  function otherForm(token: string): string {
    const bytes = signature(token);
    const half = bytes.length / 2;
    const s = BigInt(`0x${bytes.subarray(half).toString('hex')}`);
    const other = Buffer.from(((curve?.order ?? 0n) - s).toString(16).padStart(bytes.length, '0'), 'hex');
    return `${token.slice(0, token.lastIndexOf('.'))}.${Buffer.concat([bytes.subarray(0, half), other]).toString('base64url')}`;
  }
  const signedBy = (token: string) =>
    cryptoVerify(
      `sha${alg.slice(2)}`,
      Buffer.from(token.slice(0, token.lastIndexOf('.'))),
      { key: key.publicKey, dsaEncoding: 'ieee-p1363' },
      signature(token),
    );

  it('are both what a signer writes: refusing either would refuse genuine tokens', () => {
    // OpenSSL (Node's signer, and most issuers') does not normalise s: either side of n/2, about half each.
    const highs = Array.from({ length: 64 }, (_, i) => {
      const bytes = signature(signToken(key, { sub: `s-${i}` }));
      return BigInt(`0x${bytes.subarray(bytes.length / 2).toString('hex')}`) > (curve?.order ?? 0n) >> 1n;
    });
    expect([highs.includes(true), highs.includes(false)]).toEqual([true, true]);
  });

  it.each([
    ['high-S', true],
    ['low-S', false],
  ])('verify both, as issued %s and respelled, and take one cache entry between them', async (_, high) => {
    const [issued, other] = forms(high);
    // Node's own ECDSA says both are signatures of the key: n is right and both forms are real.
    expect([signedBy(issued), signedBy(other), other === issued]).toEqual([true, true, false]);
    expect(tokenKey(other)).toBe(tokenKey(issued));
    const before = verify.verified.size;
    expect((await verify(issued)).sub).toMatch(/^ec-/);
    expect((await verify(other)).sub).toBe((await verify(issued)).sub);
    expect(verify.verified.size - before).toBe(1);
  });
});
