// Behind the opt-in edge, the deployed bundle serves only requests that came through CloudFront:
// one sent straight to the API Gateway endpoint (no origin header, or a guessed one) gets 403 with
// the Error body before the token is verified or the table read; the edge's own request is served.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EDGE_ORIGIN_HEADER, functionEnvironment } from '../handlers/lib/environment.ts';
import { createSigningKey, type JwksServer, startJwksServer, type TlsIdentity } from '../local/issuer/issuer.ts';
import { mintToken } from '../local/issuer/tokens.ts';
import { type BundledFunction, buildBundle, startBundledFunction } from './helpers/bundle.ts';
import { type LocalDynamo, putPlants, startDynamo } from './helpers/dynamo.ts';
import { httpApiEvent, restApiEvent } from './helpers/events.ts';
import { removeTempDirs, tempDir } from './helpers/local-server.ts';
import { assertMatchesContract } from './helpers/openapi.ts';
import { AUDIENCE, serviceEnvironment, TABLE } from './helpers/service.ts';

// What Secrets Manager generates for the stack: 32 characters without punctuation.
const SECRET = 'q7Zr2LwX9vKcT4mNa8Bd1HsYe6GpUf3J';
const NEXT = 'Hs8Kd2PqW5nZr9TcX3vLa7Bm1YeGf4Ju';
let dynamo: LocalDynamo;
let issuer: JwksServer;
let token: string;
let behindEdge: BundledFunction;
let noEdge: BundledFunction;

beforeAll(async () => {
  const tls: TlsIdentity = JSON.parse(readFileSync(process.env.PLANT_STORE_TEST_TLS ?? '', 'utf8'));
  const caFile = join(tempDir('edge'), 'issuer-cert.pem');
  writeFileSync(caFile, tls.cert);
  const key = createSigningKey();
  issuer = await startJwksServer(tls, [key]);
  dynamo = await startDynamo(TABLE);
  await putPlants(dynamo.client, TABLE, [{ owner: 'alice', id: 'p1', name: 'Monstera' }]);
  token = mintToken(key, { issuer: issuer.url, audience: AUDIENCE, subject: 'alice', ttl: 600 });
  const bundle = await buildBundle();
  const env = {
    ...serviceEnvironment(dynamo.endpoint, issuer.url),
    NODE_EXTRA_CA_CERTS: caFile,
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
  behindEdge = startBundledFunction(bundle, {
    ...env,
    ...functionEnvironment({ edgeOriginSecret: SECRET, edgeNextOriginSecret: NEXT }),
  });
  noEdge = startBundledFunction(bundle, env);
}, 60_000);
afterAll(async () => {
  await Promise.all([behindEdge?.stop(), noEdge?.stop()]);
  await Promise.all([issuer?.close(), dynamo?.close()]);
  removeTempDirs();
});

const request = (extra: Record<string, string> = {}) =>
  httpApiEvent({ headers: { authorization: `Bearer ${token}`, ...extra } });

describe('behind the edge (EDGE_ORIGIN_SECRET set)', () => {
  it.each([
    ['without the origin header, with a valid token', {}],
    ['with a guessed origin header', { [EDGE_ORIGIN_HEADER]: 'guess' }],
    ['with the secret plus a suffix', { [EDGE_ORIGIN_HEADER]: `${SECRET}x` }],
    ['with the secret in another header', { 'x-origin-verify': SECRET }],
  ])('refuses a request sent straight to the API %s: 403 with the Error body', async (_, headers) => {
    const result = await behindEdge.invoke(request(headers));

    assertMatchesContract(result);
    expect(result.statusCode).toBe(403);
    expect(result.headers?.['Content-Type']).toBe('application/json');
    expect(JSON.parse(result.body)).toEqual({
      error: 403,
      message: 'This API is served only through its public URL; call that URL, not the API Gateway endpoint',
    });
    expect(result.body).not.toContain(SECRET);
  });

  it('refuses a REST-shaped (payload 1.0) request without the header too', async () => {
    const result = await behindEdge.invoke(restApiEvent({ headers: { Authorization: `Bearer ${token}` } }));

    expect(result.statusCode).toBe(403);
  });

  it("serves the edge's request, which carries the secret", async () => {
    const result = await behindEdge.invoke(request({ [EDGE_ORIGIN_HEADER]: SECRET }));

    assertMatchesContract(result);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual([{ name: 'Monstera' }]);
  });

  it('refuses before authenticating: a request around the edge without a token is 403, not 401', async () => {
    const result = await behindEdge.invoke(httpApiEvent());

    expect(result.statusCode).toBe(403);
    expect(result.headers?.['WWW-Authenticate']).toBeUndefined();
  });
});

describe('the next generation (EDGE_ORIGIN_NEXT_SECRET), what CloudFront sends once the generation is raised', () => {
  it('is served already, so a rotation refuses nothing while the old version still runs', async () => {
    const result = await behindEdge.invoke(request({ [EDGE_ORIGIN_HEADER]: NEXT }));

    expect(result.statusCode).toBe(200);
  });

  it('is matched whole, like the current one', async () => {
    const result = await behindEdge.invoke(request({ [EDGE_ORIGIN_HEADER]: `${NEXT}x` }));

    expect(result.statusCode).toBe(403);
  });
});

describe('without the edge (EDGE_ORIGIN_SECRET unset)', () => {
  it('serves requests without the origin header, as before', async () => {
    const result = await noEdge.invoke(request());

    expect(result.statusCode).toBe(200);
  });
});
