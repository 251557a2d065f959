// Issuer keys unfit to verify with make no token valid: the deployed bundle leaves RSA keys under
// 2,048 bits or with a small public exponent, and keys whose `use` or `key_ops` exclude verifying, out
// as it reads the JWKS, and answers a token naming one 401, its record saying why (weak_key), while a
// 2,048-bit key for signatures served beside them verifies.

import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MIN_RSA_BITS, MIN_RSA_EXPONENT } from '../../handlers/lib/auth/jwks-cache.ts';
import { type JwksServer, type SigningKey, signingKeyFrom, startJwksServer } from '../../local/issuer/issuer.ts';
import { mintToken } from '../../local/issuer/tokens.ts';
import { type BundledFunction, buildBundle, startBundledFunction } from '../helpers/bundle.ts';
import { type LocalDynamo, putPlants, startDynamo } from '../helpers/dynamo.ts';
import { httpApiEvent } from '../helpers/events.ts';
import { removeTempDirs, tempDir } from '../helpers/local-server.ts';
import { assertMatchesContract } from '../helpers/openapi.ts';
import { AUDIENCE, serviceEnvironment, TABLE } from '../helpers/service.ts';

const rsaKey = (modulusLength: number, publicExponent = Number(MIN_RSA_EXPONENT)): SigningKey => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength, publicExponent });
  return signingKeyFrom(privateKey, publicKey);
};
const WEAK: [string, SigningKey][] = [
  ['512 bits', rsaKey(512)],
  ['1,024 bits', rsaKey(1024)],
  [`${MIN_RSA_BITS} bits with exponent 3`, rsaKey(MIN_RSA_BITS, 3)],
];
const STRONG = rsaKey(MIN_RSA_BITS);
/** Keys strong enough, published for something other than verifying signatures (RFC 7517 §4.2, §4.3). */
const NOT_FOR_VERIFYING: [string, SigningKey][] = [
  ['use "enc"', { ...rsaKey(MIN_RSA_BITS), published: { use: 'enc' } }],
  ['key_ops ["encrypt"]', { ...rsaKey(MIN_RSA_BITS), published: { use: undefined, key_ops: ['encrypt'] } }],
  ['key_ops ["sign"]', { ...rsaKey(MIN_RSA_BITS), published: { key_ops: ['sign'] } }],
  ['key_ops []', { ...rsaKey(MIN_RSA_BITS), published: { use: undefined, key_ops: [] } }],
];
const FOR_VERIFYING = { ...rsaKey(MIN_RSA_BITS), published: { use: undefined, key_ops: ['verify'] } };

let issuer: JwksServer;
let dynamo: LocalDynamo;
let fn: BundledFunction;
beforeAll(async () => {
  const tls = JSON.parse(readFileSync(process.env.PLANT_STORE_TEST_TLS ?? '', 'utf8'));
  const caFile = join(tempDir('weak-keys'), 'issuer-cert.pem');
  writeFileSync(caFile, tls.cert);
  issuer = await startJwksServer(tls, [
    ...[...WEAK, ...NOT_FOR_VERIFYING].map(([, key]) => key),
    STRONG,
    FOR_VERIFYING,
  ]);
  dynamo = await startDynamo(TABLE);
  await putPlants(dynamo.client, TABLE, [{ owner: 'alice', id: 'p1', name: 'Monstera' }]);
  fn = startBundledFunction(await buildBundle(), {
    ...serviceEnvironment(dynamo.endpoint, issuer.url),
    NODE_EXTRA_CA_CERTS: caFile,
  });
});
afterAll(async () => {
  await fn?.stop();
  await Promise.all([issuer?.close(), dynamo?.close()]);
  removeTempDirs();
});

async function call(key: SigningKey) {
  const token = mintToken(key, { issuer: issuer.url, audience: AUDIENCE, subject: 'alice', ttl: 600 });
  const event = httpApiEvent({ headers: { authorization: `Bearer ${token}` } });
  event.requestContext.requestId = key.kid;
  const result = await fn.invoke(event);
  assertMatchesContract(result);
  return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body) };
}

/** The request's record, once written: stdout may land after the result. */
async function recordOf(requestId: string) {
  for (;;) {
    const record = fn.records().find((entry) => entry.message === 'request' && entry.apigw_request_id === requestId);
    if (record) return record;
    await setTimeout(10);
  }
}

describe('an RSA key in the JWKS, through the bundle', () => {
  it.each(WEAK)('of %s verifies no token: 401, recorded as weak_key', async (_, key) => {
    const reply = await call(key);

    expect(reply).toMatchObject({ status: 401, body: { error: 401, message: 'The access token is invalid' } });
    expect(reply.headers['WWW-Authenticate']).toContain('error="invalid_token"');
    expect(await recordOf(key.kid)).toMatchObject({ status: 401, reason: 'weak_key' });
  });

  it(`of ${MIN_RSA_BITS} bits, served with them, verifies: 200`, async () => {
    expect(await call(STRONG)).toMatchObject({ status: 200, body: [{ name: 'Monstera' }] });
  });

  it.each(NOT_FOR_VERIFYING)('with %s verifies no token: 401, recorded as weak_key', async (_, key) => {
    const reply = await call(key);

    expect(reply).toMatchObject({ status: 401, body: { error: 401, message: 'The access token is invalid' } });
    expect(await recordOf(key.kid)).toMatchObject({ status: 401, reason: 'weak_key' });
  });

  it('with key_ops ["verify"] and no use verifies: 200', async () => {
    expect(await call(FOR_VERIFYING)).toMatchObject({ status: 200, body: [{ name: 'Monstera' }] });
  });
});
