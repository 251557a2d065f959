// Forged tokens with distinct `iss` values must not grow a warm container's memory: aws-jwt-verify
// 5.2.1 keeps a key object per unverified `iss` (docs/reliability.md). The built bundle runs in a
// child process with --expose-gc, as Lambda runs it, against dynalite and a TLS-served JWKS; the
// heap is measured after full GCs, before and after the forged tokens.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createSigningKey,
  type JwksServer,
  type SigningKey,
  startJwksServer,
  type TlsIdentity,
} from '../../local/issuer/issuer.ts';
import { BUNDLE_FILE, buildHandler } from '../../scripts/build.ts';
import { type LocalDynamo, startDynamo, TEST_REGION } from '../helpers/dynamo.ts';

/** The hardening issue's figure: enough to run a 1,024 MB function out of memory before the fix. */
const FORGED = Number(process.env.FORGED_TOKENS ?? 80_000);
/** Long enough that a kept entry shows (the leak keeps the `iss` string itself), short enough to be quick. */
const ISS_LENGTH = 1000;
/** What a few MB of noise allows; before the fix 80,000 tokens kept over 100 MB. */
const ALLOWED_GROWTH_BYTES = 4 * 1024 * 1024;

let dir: string;
let issuer: JwksServer;
let key: SigningKey;
let dynamo: LocalDynamo;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plant-store-forged-'));
  const tls: TlsIdentity = JSON.parse(readFileSync(process.env.PLANT_STORE_TEST_TLS ?? '', 'utf8'));
  writeFileSync(join(dir, 'issuer-cert.pem'), tls.cert);
  key = createSigningKey();
  issuer = await startJwksServer(tls, [key]);
  dynamo = await startDynamo('plants-forged');
  await buildHandler(join(dir, 'bundle'));
});
afterAll(async () => {
  await Promise.all([issuer?.close(), dynamo?.close()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// Invokes the bundle with forged tokens (the issuer's public kid, a distinct `iss` each, no valid
// signature) and reports the heap and RSS after full GCs, before and after. Results go to fd 3:
// stdout carries the function's own log lines.
const RUNNER = `
const { writeSync } = await import('node:fs');
const [bundle, kid, count, issLength] = process.argv.slice(1);
const { handler } = await import(bundle);
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const header = b64({ alg: 'RS256', kid });
const pad = 'x'.repeat(Number(issLength));
const forged = (i) => header + '.' + b64({ iss: 'https://x' + i + '.example/' + pad, sub: 'x', aud: 'a', token_use: 'access', exp: 4102444800 }) + '.AAAA';
const event = (token) => ({
  version: '2.0', routeKey: 'GET /plants', rawPath: '/plants', rawQueryString: '', isBase64Encoded: false,
  headers: { authorization: 'Bearer ' + token },
  requestContext: { http: { method: 'GET', path: '/plants', sourceIp: '198.51.100.7' }, requestId: 'r', stage: '$default' },
});
const statuses = {};
// Each invocation in a macrotask of its own, as the Lambda runtime runs them: a loop of awaits
// alone would never drain process.nextTick's queue (stdout's write callbacks pile up there).
const nextInvocation = () => new Promise((resolve) => setImmediate(resolve));
const run = async (from, to) => {
  for (let i = from; i < to; i++) {
    const { statusCode } = await handler(event(forged(i)), {});
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    await nextInvocation();
  }
};
const measure = () => {
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, rss } = process.memoryUsage();
  return { heapUsed, rss };
};
const warmUp = 2000;
await run(0, warmUp);
const before = measure();
await run(warmUp, warmUp + Number(count));
const after = measure();
writeSync(3, JSON.stringify({ before, after, statuses }));
`;

interface Usage {
  heapUsed: number;
  rss: number;
}

async function forgeInto(count: number): Promise<{ before: Usage; after: Usage; statuses: Record<string, number> }> {
  const bundle = pathToFileURL(join(dir, 'bundle', BUNDLE_FILE)).href;
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--input-type=module', '-e', RUNNER, bundle, key.kid, String(count), String(ISS_LENGTH)],
    {
      env: {
        PATH: process.env.PATH,
        AWS_REGION: TEST_REGION,
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
        NODE_EXTRA_CA_CERTS: join(dir, 'issuer-cert.pem'),
        PLANTS_TABLE_NAME: 'plants-forged',
        DYNAMODB_ENDPOINT: dynamo.endpoint,
        AUTH_ISSUER: issuer.url,
        AUTH_AUDIENCE: 'a',
        AUTH_JWKS_URI: issuer.jwksUri,
      },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    },
  );
  let results = '';
  child.stdio[3]?.on('data', (chunk) => {
    results += chunk;
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`bundle exited with ${code}: ${stderr}`);
  return JSON.parse(results);
}

describe('forged tokens with distinct issuers', () => {
  it(`leave the heap within a few MB of its baseline after ${FORGED} of them`, async () => {
    const { before, after, statuses } = await forgeInto(FORGED);

    expect(statuses).toEqual({ 401: FORGED + 2000 });
    expect(after.heapUsed - before.heapUsed).toBeLessThan(ALLOWED_GROWTH_BYTES);
  });
});
