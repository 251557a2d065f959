// The smoke check passes an API that keeps the contract and fails, naming the check, each way of
// breaking it; the command exits non-zero with that name.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { formatSummary, runSmoke, SmokeFailure } from '../../client/smoke.ts';
import { recordServer } from '../../local/server/servers.ts';
import { type Break, FAKE_TOKEN, type FakeApi, startFakeApi } from '../helpers/fake-api.ts';
import { npm, removeTempDirs, runNpm, tempDir } from '../helpers/local-server.ts';

const started: FakeApi[] = [];
async function fakeApi(breaks: Break): Promise<FakeApi> {
  const api = await startFakeApi(breaks);
  started.push(api);
  return api;
}
afterAll(async () => {
  await Promise.all(started.map((api) => api.close()));
  removeTempDirs();
});

describe('runSmoke', () => {
  it('walks every page by following next, then checks the refusals, and sums it up', async () => {
    const api = await fakeApi('none');
    const lines: string[] = [];
    const summary = await runSmoke({ url: api.url, token: FAKE_TOKEN, log: (line) => lines.push(line) });
    expect(summary).toMatchObject({
      url: `${api.url}/plants`,
      pages: 2,
      plants: 3,
      links: 'absolute',
      refusedBy: 'function',
      statuses: { 200: 2, 401: 2, 400: 1 },
      latencyMs: { requests: 5 },
    });
    expect(lines).toHaveLength(5);
  });

  it('follows relative links too, resolved against the URL requested', async () => {
    const api = await fakeApi('relative links');
    expect(await runSmoke({ url: `${api.url}/plants`, token: FAKE_TOKEN })).toMatchObject({
      pages: 2,
      links: 'relative',
    });
  });

  it("takes API Gateway's JWT authorizer answering bad tokens with its own body when told to, and says so", async () => {
    const api = await fakeApi('gateway authorizer');
    const summary = await runSmoke({ url: api.url, token: FAKE_TOKEN, gatewayRefusals: true });
    expect(summary).toMatchObject({ refusedBy: 'gateway', statuses: { 200: 2, 401: 2, 400: 1 } });
    expect(formatSummary(summary)).toContain("401 from API Gateway's JWT authorizer");
    // Not told to (the local server, which has no gateway): the function's answer is missing.
    const failure = await runSmoke({ url: api.url, token: FAKE_TOKEN }).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      check: 'no token',
      message: 'no token: 401 {"message":"Unauthorized"} is API Gateway\'s refusal, not the function\'s',
    });
  });

  it.each<[Break, string, RegExp]>([
    ['extra field', 'walk', /breaks openapi\.yaml.*\n- body: data\/0 must NOT have additional properties/],
    ['link loops', 'walk', /links back to/],
    ['scope required', 'walk', /expected 200, got 403: .*insufficient_scope.*lacks the scope this deployment requires/],
    [
      'links elsewhere',
      'walk',
      /linked to http:\/\/127\.0\.0\.1:\d+, not http:\/\/127\.0\.0\.1:\d+.*token is not sent there/,
    ],
    ['no WWW-Authenticate', 'no token', /missing header WWW-Authenticate/],
    ['any token', 'bad token', /expected 401, got 200/],
    ['limit ignored', 'bad limit', /expected 400, got 200/],
  ])('fails on an API with %s, naming the check "%s"', async (breaks, check, detail) => {
    const api = await fakeApi(breaks);
    const failure = await runSmoke({ url: api.url, token: FAKE_TOKEN }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SmokeFailure);
    expect(failure).toMatchObject({ check, message: expect.stringMatching(detail) });
  });

  it('fails the walk, naming the URL, when nothing answers', async () => {
    const failure = await runSmoke({ url: 'http://127.0.0.1:1', token: FAKE_TOKEN }).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      check: 'walk',
      message: expect.stringContaining('GET http://127.0.0.1:1/plants?limit=2 failed'),
    });
  });
});

describe('npm run smoke', () => {
  it('prints the summary and exits 0 when the API keeps the contract', async () => {
    const api = await fakeApi('none');
    const result = await runNpm('smoke', ['--url', api.url, '--token', FAKE_TOKEN]);
    expect(result.stdout).toMatch(
      /^Smoke check of http:\/\/127\.0\.0\.1:\d+\/plants: passed\n {2}walk {7}2 page\(s\), 3 plant\(s\)/,
    );
    expect(result.code).toBe(0);
  });

  it('exits 1 naming the failed check when the API breaks the contract', async () => {
    const api = await fakeApi('no WWW-Authenticate');
    const result = await runNpm('smoke', ['--url', api.url, '--token', FAKE_TOKEN]);
    expect(result.stderr).toMatch(
      /^Smoke check of http:\/\/127\.0\.0\.1:\d+: FAILED at "no token": missing header WWW-Authenticate, which the function's 401 always sends \(RFC 6750\)$/m,
    );
    expect(result.code).toBe(1);
  });

  it("takes API Gateway's refusal bodies from an API that may sit behind its JWT authorizer, never from a local server", async () => {
    const api = await fakeApi('gateway authorizer');
    const port = Number(new URL(api.url).port);
    const elsewhere = await runNpm('smoke', ['--url', api.url, '--token', FAKE_TOKEN], {
      PLANTS_LOCAL_DIR: tempDir('smoke'),
    });
    expect(elsewhere.code).toBe(0);
    expect(elsewhere.stdout).toContain("401 from API Gateway's JWT authorizer");

    // The same answers from what this machine's records say is an npm start server: a regression.
    const localDir = tempDir('smoke');
    recordServer(localDir, {
      pid: process.pid,
      port,
      origin: api.url,
      store: { endpoint: 'embedded', region: 'local', tableName: 'plants' },
    });
    const local = await runNpm('smoke', ['--url', api.url, '--token', FAKE_TOKEN], { PLANTS_LOCAL_DIR: localDir });
    expect(local.code).toBe(1);
    expect(local.stderr).toMatch(/FAILED at "no token": 401 \{"message":"Unauthorized"\} is API Gateway's refusal/);
  });

  it("takes the token from --token-file, so that npm's banner (and a CI log) does not show it", async () => {
    const api = await fakeApi('none');
    const file = join(tempDir('token'), 'token.txt');
    writeFileSync(file, `${FAKE_TOKEN}\n`);

    // npm without -s prints its banner, the command line included, as CI logs keep it.
    const onArgv = await npm(['run', 'smoke', '--', '--url', api.url, '--token', FAKE_TOKEN]);
    const fromFile = await npm(['run', 'smoke', '--', '--url', api.url, '--token-file', file]);

    expect(onArgv).toMatchObject({ code: 0, stdout: expect.stringContaining(FAKE_TOKEN) });
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toMatch(/Smoke check of http:\/\/127\.0\.0\.1:\d+\/plants: passed/);
    expect(fromFile.stdout + fromFile.stderr).not.toContain(FAKE_TOKEN);
  });

  it('reads the token from stdin with --token-file -', async () => {
    const api = await fakeApi('none');
    const child = spawn(process.execPath, ['local/cli/smoke.ts', '--url', api.url, '--token-file', '-'], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stdin.end(`${FAKE_TOKEN}\n`);
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect({ code, stdout }).toMatchObject({ code: 0, stdout: expect.stringContaining(': passed') });
  });

  it('refuses an empty --token-file in a line, as a bad value (exit 2)', async () => {
    const file = join(tempDir('token'), 'empty.txt');
    writeFileSync(file, '\n');
    const result = await runNpm('smoke', ['--url', 'http://127.0.0.1:1', '--token-file', file]);
    expect(result).toMatchObject({
      code: 2,
      stderr: `--token-file ${file} is empty: it should hold the token alone\n`,
    });
  });

  it('says in a line what to do when no local server runs and no URL is given', async () => {
    const result = await runNpm('smoke', [], { PLANTS_LOCAL_DIR: tempDir('smoke') });
    expect(result.stderr.trim()).toBe(
      'No local server is running: start one with npm start, or give --url and --token-file',
    );
    // Not a command-line mistake (exitCodeOf's rule): nothing to check is a failed check.
    expect(result.code).toBe(1);
  });
});

/** An HTTP server on `host:port` that answers every request with `body` and keeps what it was sent. */
async function listener(
  host: string,
  port: number,
  body: string,
): Promise<{ server: Server; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return { server, seen };
}
const closing = (server: Server) => new Promise((resolve) => server.close(resolve));

describe('npm run smoke on hostile ground', () => {
  it.each(['localhost', '[::1]', '127.0.0.2'])(
    'mints no token for http://%s:PORT when the local server on PORT is bound to 127.0.0.1, and sends nothing',
    async (host) => {
      // Prepare: a local server's record (with its issuer, so a token could be minted), and another
      // process listening on 127.0.0.2 at the same port, as anything of this machine may.
      const local = await listener('127.0.0.1', 0, '[]');
      const port = (local.server.address() as AddressInfo).port;
      const other = await listener('127.0.0.2', port, '[]');
      const localDir = tempDir('smoke');
      const origin = `http://127.0.0.1:${port}`;
      recordServer(localDir, {
        pid: process.pid,
        port,
        origin,
        issuer: { url: origin, shape: 'oidc', audience: 'plant-store-local' },
        store: { endpoint: 'embedded', region: 'local', tableName: 'plants' },
      });
      try {
        // Act
        const result = await runNpm('smoke', ['--url', `http://${host}:${port}`], { PLANTS_LOCAL_DIR: localDir });
        // Assess
        expect(result).toMatchObject({
          code: 2,
          stderr: `http://${host}:${port} is not the address the local server on port ${port} is bound to: a local token is sent only to ${origin} (--url ${origin}), else give --token-file\n`,
        });
        expect([local.seen, other.seen]).toEqual([[], []]);
      } finally {
        await Promise.all([closing(local.server), closing(other.server)]);
      }
    },
  );

  it('says that no local server runs on the port of a URL where nothing listens, not only to give a token', async () => {
    const result = await runNpm('smoke', ['--url', 'http://127.0.0.1:1'], { PLANTS_LOCAL_DIR: tempDir('smoke') });
    expect(result).toMatchObject({
      code: 2,
      stderr:
        'No local server runs on port 1 (no local server is running): start one, or for another API give --token-file\n',
    });
  });

  it('prints what a hostile API answers with its control characters escaped, the failure in one line', async () => {
    const hostile = '\u001b[2J\u001b]0;owned\u0007\r\nSmoke check: passed\u009b31m';
    const api = await listener('127.0.0.1', 0, hostile);
    const url = `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`;
    try {
      const result = await runNpm('smoke', ['--url', url, '--token', FAKE_TOKEN], {
        PLANTS_LOCAL_DIR: tempDir('smoke'),
      });
      const lines = result.stderr.split('\n').filter(Boolean);
      expect(result.code).toBe(1);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
      expect(result.stdout + lines.join('')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(lines.filter((line) => line.includes('FAILED'))).toEqual([
        expect.stringContaining('\\x1b[2J\\x1b]0;owned\\x07\\x0d\\x0aSmoke check: passed\\x9b31m'),
      ]);
      expect(lines.filter((line) => line.startsWith('Smoke check: passed'))).toEqual([]);
    } finally {
      await closing(api.server);
    }
  });
});
