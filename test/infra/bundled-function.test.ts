// The shipped artifact: synthesize with real bundling, then run the asset's index.mjs in a fresh
// Node process the way `sam local` would — the template's environment with env-vars overrides,
// the events from events/ — against dynalite and a TLS-served JWKS, with real RS256 tokens.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { APIGatewayProxyResult } from 'aws-lambda';
import {
  createSigningKey,
  createTlsIdentity,
  type JwksServer,
  type SigningKey,
  startJwksServer,
} from '../../local/issuer/issuer.ts';
import { mintToken } from '../../local/issuer/tokens.ts';
import { type Synthesized, synth } from '../helpers/cdk.ts';
import { type LocalDynamo, putPlants, startDynamo, TEST_REGION } from '../helpers/dynamo.ts';
import { UNHURRIED_DEADLINE_MS, UNHURRIED_JWKS_TIMEOUT_MS } from '../helpers/function-env.ts';
import { assertMatchesContract } from '../helpers/openapi.ts';

const TABLE = 'plants-sam';
const AUDIENCE = 'plant-store-local';
const event = (name: string) => readFileSync(new URL(`../../events/${name}`, import.meta.url), 'utf8');
const HTTP_EVENT = event('http-api-get-plants.json');
const REST_EVENT = event('rest-api-get-plants.json');

let synthesized: Synthesized;
let certFile: string;
let issuer: JwksServer;
let key: SigningKey;
let dynamo: LocalDynamo;

beforeAll(async () => {
  const tls = await createTlsIdentity();
  key = createSigningKey();
  // One at a time, so each is assigned (and closed by afterAll) even when the other fails.
  issuer = await startJwksServer(tls, [key]);
  dynamo = await startDynamo(TABLE);
  await putPlants(dynamo.client, TABLE, [
    { owner: 'alice', id: 'p1', name: 'Monstera', tag: 'aroid' },
    { owner: 'alice', id: 'p2', name: 'Pilea' },
    { owner: 'alice', id: 'p3', name: 'Calathea', tag: 'prayer' },
    { owner: 'bob', id: 'p1', name: 'Cactus', tag: 'succulent' },
  ]);
  synthesized = await synth({ samLocal: 'true' }, { bundle: true });
  certFile = join(mkdtempSync(join(tmpdir(), 'plant-store-cert-')), 'issuer-cert.pem');
  writeFileSync(certFile, tls.cert);
});
afterAll(async () => {
  await Promise.all([issuer?.close(), dynamo?.close()]);
  if (certFile) rmSync(dirname(certFile), { recursive: true, force: true });
});

/** What `sam local --env-vars` does: override declared variables only, and every one must resolve. */
function functionEnvironment(overrides: Record<string, string>): Record<string, string> {
  const fn = Object.values(synthesized.template.findResources('AWS::Lambda::Function'))[0];
  const declared: Record<string, unknown> = fn?.Properties.Environment.Variables;
  const undeclared = Object.keys(overrides).filter((name) => !(name in declared));
  if (undeclared.length > 0) throw new Error(`sam local would ignore undeclared ${undeclared.join(', ')}`);
  const env = { ...declared, ...overrides };
  const unresolved = Object.entries(env).filter(([, value]) => typeof value !== 'string');
  if (unresolved.length > 0) throw new Error(`no local value for ${unresolved.map(([name]) => name).join(', ')}`);
  return env as Record<string, string>;
}

function bundlePath(): string {
  const fn = Object.values(synthesized.template.findResources('AWS::Lambda::Function'))[0];
  return join(synthesized.outdir, fn?.Metadata['aws:asset:path'], 'index.mjs');
}

// Imports the bundle as the Lambda runtime does and invokes `handler` once per event. Results go
// to file descriptor 3: stdout carries the function's own JSON log lines, as on Lambda.
const RUNNER = `
const { writeSync } = await import('node:fs');
const { handler } = await import(process.argv[1]);
let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const event of JSON.parse(input)) results.push(await handler(event, {}));
writeSync(3, JSON.stringify(results));
`;

async function invokeBundle(
  events: unknown[],
  overrides: Record<string, string> = {},
): Promise<{ results: APIGatewayProxyResult[]; stdout: string }> {
  const env = functionEnvironment({
    ...overrides,
    PLANTS_TABLE_NAME: TABLE,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AUTH_ISSUER: issuer.url,
    AUTH_AUDIENCE: AUDIENCE,
    NODE_EXTRA_CA_CERTS: certFile,
    // No healthy request here may meet a deadline, however busy the machine.
    DYNAMODB_DEADLINE_MS: String(UNHURRIED_DEADLINE_MS),
    AUTH_JWKS_TIMEOUT_MS: String(UNHURRIED_JWKS_TIMEOUT_MS),
  });
  const child = spawn(process.execPath, ['--input-type=module', '-e', RUNNER, pathToFileURL(bundlePath()).href], {
    // AWS_SAM_LOCAL: what the SAM CLI sets in every function container it runs.
    env: {
      ...env,
      AWS_REGION: TEST_REGION,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_SAM_LOCAL: 'true',
    },
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  let results = '';
  child.stdio[3]?.on('data', (chunk) => {
    results += chunk;
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.end(JSON.stringify(events));
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`bundle exited with ${code}: ${stderr}`);
  return { results: JSON.parse(results), stdout };
}

const withToken = (raw: string, sub: string) => {
  const token = mintToken(key, { issuer: issuer.url, audience: AUDIENCE, subject: sub, ttl: 300 });
  return JSON.parse(raw.replaceAll('REPLACE_WITH_ACCESS_TOKEN', token));
};

describe('the bundled function in the synthesized cloud assembly', () => {
  it("serves the events in events/ with the caller's plants, and refuses them without a token", async () => {
    const { results, stdout } = await invokeBundle([
      withToken(HTTP_EVENT, 'alice'),
      withToken(REST_EVENT, 'bob'),
      JSON.parse(HTTP_EVENT),
    ]);
    const [http, rest, unsigned] = results;
    for (const result of [http, rest, unsigned]) assertMatchesContract(result as APIGatewayProxyResult);

    expect(http?.statusCode).toBe(200);
    expect(JSON.parse(http?.body ?? '')).toEqual([{ name: 'Monstera', tag: 'aroid' }, { name: 'Pilea' }]);
    // sam local copies the client's Host into requestContext: the link can't trust it, so stays relative.
    expect(http?.headers?.Link).toMatch(/^<\?limit=2&cursor=[^>]+>; rel="next"$/);

    expect(rest?.statusCode).toBe(200);
    expect(JSON.parse(rest?.body ?? '')).toEqual([{ name: 'Cactus', tag: 'succulent' }]);

    expect(unsigned?.statusCode).toBe(401);
    // The refusal's one record, written as the deployed function writes it.
    expect(stdout).toMatch(/"message":"request".*"status":401/);
  });

  it('links absolute to the URL the env file names as PUBLIC_BASE_URL (start-api on port 3001)', async () => {
    const {
      results: [http],
    } = await invokeBundle([withToken(HTTP_EVENT, 'alice')], { PUBLIC_BASE_URL: 'http://127.0.0.1:3001' });
    expect(http?.headers?.Link).toMatch(/^<http:\/\/127\.0\.0\.1:3001\/plants\?limit=2&cursor=[^>]+>; rel="next"$/);
  });

  it('is the minified ESM bundle with the createRequire banner and a source map', () => {
    const code = readFileSync(bundlePath(), 'utf8');
    expect(code.startsWith("import { createRequire } from 'node:module';")).toBe(true);
    expect(code).toContain('//# sourceMappingURL=index.mjs.map');
    expect(readFileSync(`${bundlePath()}.map`, 'utf8')).toContain('list-plants.ts');
  });
});
