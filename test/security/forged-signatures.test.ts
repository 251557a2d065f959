// Forged signatures against EC (ES256, ES384, ES512) and EdDSA (Ed25519, Ed448) keys served in the
// issuer's JWKS: a token naming a real kid and the configured iss, with a signature of any other
// length than the key writes, DER instead of IEEE P1363, or none, is a 401 invalid_token and never
// an ERROR record (aws-jwt-verify 5.2.1 alone throws a plain Error for these, which was a 500).

import { sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { algorithmOf, base64url, createSigningKey, type SigningKey, signToken } from '../../local/issuer/issuer.ts';
import { httpApiEvent } from '../helpers/events.ts';
import { type Service, startService } from '../helpers/service.ts';

const KEYS: [string, SigningKey][] = [
  ['ES256', createSigningKey('ES256')],
  ['ES384', createSigningKey('ES384')],
  ['ES512', createSigningKey('ES512')],
  ['EdDSA (Ed25519)', createSigningKey('EdDSA', 'ed25519')],
  ['EdDSA (Ed448)', createSigningKey('EdDSA', 'ed448')],
];
// Published without `alg`, as some issuers do: the token's header then chooses the algorithm.
const P384_NO_ALG: SigningKey = { ...createSigningKey('ES384'), publishAlg: false };
const ED25519_NO_ALG: SigningKey = { ...createSigningKey('EdDSA'), publishAlg: false };

let service: Service;
beforeAll(async () => {
  // Served beside the service's RSA key from the first fetch (the function's init fetch may still be answering).
  service = await startService({}, undefined, {
    moreKeys: [...KEYS.map(([, key]) => key), P384_NO_ALG, ED25519_NO_ALG],
  });
  await service.seed([{ owner: 'alice', id: 'p1', name: 'Monstera' }]);
});
afterAll(() => service?.stop());

const claims = () => service.claims('alice');
const call = (token: string) => service.call(httpApiEvent({ headers: { authorization: `Bearer ${token}` } }));
const signingInput = (token: string) => token.slice(0, token.lastIndexOf('.'));
const withSignature = (token: string, signature: Buffer) => `${signingInput(token)}.${signature.toString('base64url')}`;
const signatureOf = (token: string) => Buffer.from(token.slice(token.lastIndexOf('.') + 1), 'base64url');

/** The lengths the review tried for ES256 (1, 32, 63, 65, 70, 72, 128), as a share of the key's length. */
function wrongLengths(length: number): number[] {
  return [0, 1, length / 2, length - 1, length + 1, length + 6, length + 8, 2 * length];
}

/** The genuine signature cut or padded (random bytes) to `length`: what a forger would send. */
function resized(signature: Buffer, length: number): Buffer {
  return Buffer.concat([signature, Buffer.alloc(Math.max(0, length - signature.length), 0x5a)]).subarray(0, length);
}

async function expectRefused(token: string): Promise<void> {
  service.logs.clear();
  const reply = await call(token);
  expect(reply).toMatchObject({ status: 401, body: { error: 401, message: 'The access token is invalid' } });
  expect(reply.headers['www-authenticate']).toContain('error="invalid_token"');
  expect(service.logs.entries().filter((entry) => entry.level === 'ERROR')).toEqual([]);
}

describe.each(KEYS)('a token signed with an %s key in the JWKS', (_, key) => {
  it('is served as issued', async () => {
    expect((await call(signToken(key, claims()))).status).toBe(200);
  });

  it('with a signature of any other length (empty included) is a 401 with no ERROR record', async () => {
    const token = signToken(key, claims());
    const genuine = signatureOf(token);
    const lengths = wrongLengths(genuine.length);
    for (const length of lengths) await expectRefused(withSignature(token, resized(genuine, length)));
    expect(lengths).not.toContain(genuine.length);
  });
});

describe.each(KEYS.filter(([alg]) => alg.startsWith('ES')))('an %s token', (alg, key) => {
  it('with its signature DER-encoded instead of IEEE P1363 is a 401 with no ERROR record', async () => {
    const token = signToken(key, claims());
    const der = sign(`sha${alg.slice(2)}`, Buffer.from(signingInput(token)), {
      key: key.privateKey,
      dsaEncoding: 'der',
    });
    expect(der.length).not.toBe(signatureOf(token).length);
    await expectRefused(withSignature(token, der));
  });
});

describe('a header alg that does not fit the key it names (the JWK without alg)', () => {
  const signed = (key: SigningKey, alg: string, length: number) => {
    const input = `${base64url({ alg, typ: 'JWT', kid: key.kid })}.${base64url(claims())}`;
    return `${input}.${Buffer.alloc(length, 7).toString('base64url')}`;
  };

  it('takes the keys as issued with their own algorithm', async () => {
    for (const key of [P384_NO_ALG, ED25519_NO_ALG]) expect((await call(signToken(key, claims()))).status).toBe(200);
  });

  it.each([
    ['ES256 (64 bytes) on a P-384 key', P384_NO_ALG, 'ES256', 64],
    ['ES512 (132 bytes) on a P-384 key', P384_NO_ALG, 'ES512', 132],
    ['RS256 on a P-384 key', P384_NO_ALG, 'RS256', 96],
    ['EdDSA on a P-384 key', P384_NO_ALG, 'EdDSA', 64],
    ['ES256 on an Ed25519 key', ED25519_NO_ALG, 'ES256', 64],
    ['RS256 on an Ed25519 key', ED25519_NO_ALG, 'RS256', 64],
  ])('refuses %s: 401, no ERROR record', async (_, key, alg, length) => {
    await expectRefused(signed(key, alg, length));
  });

  it("refuses a P-384 key's genuine SHA-256 signature under ES256, which means P-256 (RFC 7518 §3.4)", async () => {
    const key = P384_NO_ALG;
    expect(algorithmOf(key.publicKey)).toBe('ES384');
    const input = `${base64url({ alg: 'ES256', typ: 'JWT', kid: key.kid })}.${base64url(claims())}`;
    const signature = sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' });
    await expectRefused(`${input}.${signature.toString('base64url')}`);
  });
});
