// openapi.yaml as a generated client uses it: openapi-typescript's types and openapi-fetch, with the
// idiom of docs/api.md (`if (error) throw new Error(error.message)`), type-checked by the project's
// TypeScript 7, then run against a stand-in replaying what answers before the function: each refusal
// must give a message, not undefined, an empty string or a JSON SyntaxError.

import { execFile } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { JWT_AUTHORIZER_ANSWERS } from '../helpers/gateway-answers.ts';
import { removeTempDirs, runNpm, tempDir } from '../helpers/local-server.ts';
import type { HttpResponse } from '../helpers/openapi.ts';

const REPO = new URL('../..', import.meta.url).pathname;
const run = promisify(execFile);
const SNIPPET = /```ts\n(import createClient from 'openapi-fetch';[\s\S]*?)```/.exec(
  readFileSync(join(REPO, 'docs/api.md'), 'utf8'),
)?.[1];

/** An error page as a front serves its own: `text/html`, a heading and a cause. */
function htmlPage(statusCode: number, heading: string, cause: string): HttpResponse {
  const body = `<!DOCTYPE html>\n<html><head><title>${heading}</title></head><body>\n<h1>${heading}</h1>\n<p>${cause}</p>\n</body></html>`;
  return { statusCode, headers: { 'content-type': 'text/html' }, body };
}

/** What the stand-in answers, by the first segment of the path it is asked for. */
const ANSWERS: Record<string, HttpResponse> = {
  plants: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '[{"name":"Fern"}]' },
  ...JWT_AUTHORIZER_ANSWERS,
  // A front's own error pages (a proxy's, a CDN's): HTML where the contract declares `text/html`.
  'HTML 502': htmlPage(502, '502 Bad Gateway', 'The server could not reach the origin.'),
  'HTML 504': htmlPage(504, '504 Gateway Timeout', 'The origin did not answer in time.'),
};
const standIn = createServer((request, response) => {
  const { statusCode, headers, body } = ANSWERS[decodeURIComponent(request.url?.split('/')[1] ?? '')] ?? {};
  response.writeHead(statusCode ?? 404, headers as Record<string, string>).end(body);
});

let dir: string;
beforeAll(async () => {
  dir = tempDir('typed-client');
  const generated = await runNpm('client:types', ['--out', join(dir, 'api-types.ts')]);
  expect(generated.code).toBe(0);
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
  writeFileSync(join(dir, 'client.ts'), (SNIPPET ?? '').replace('./client/api-types.ts', './api-types.ts'));
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  standIn.closeAllConnections();
  await new Promise((resolve) => standIn.close(resolve));
  removeTempDirs();
});

describe("docs/api.md's openapi-fetch client, from openapi.yaml's types", () => {
  it('compiles: `const { data, error } = await client.GET(...); if (error) throw ...; data.map(...)`', async () => {
    expect(SNIPPET).toMatch(/^if \(error\) throw new Error\(`GET \/plants: \$\{error\.message\}`\);$/m);
    const compilerOptions = { strict: true, module: 'nodenext', target: 'es2024', types: ['node'] };
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { ...compilerOptions, noEmit: true, allowImportingTsExtensions: true } }),
    );
    const tsc = (...args: string[]) =>
      run(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), ...args]).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    expect((await tsc('--version')).stdout).toMatch(/^Version 7\./);
    expect(await tsc('-p', dir)).toEqual({ code: 0, stdout: '' });
  });

  it.each<[string, string | RegExp]>([
    ['a refused token', 'GET /plants: Unauthorized'],
    ['no token', 'GET /plants: Unauthorized'],
    ['a missing scope', 'GET /plants: Forbidden'],
    ['HTML 502', /^GET \/plants: 502 Bad Gateway The server could not reach the origin\.$/],
    ['HTML 504', /^GET \/plants: 504 Gateway Timeout The origin did not answer in time\.$/],
  ])('throws a message for the replayed answer to %s', async (answer, message) => {
    const apiUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/${encodeURIComponent(answer)}`;
    const failed = await run(process.execPath, [join(dir, 'client.ts')], { env: { API_URL: apiUrl, TOKEN: 't' } })
      .then(() => undefined)
      .catch((error: { stderr: string }) => error.stderr);
    expect(/^Error: (.*)$/m.exec(failed ?? '')?.[1]).toMatch(message);
  });

  it('reads the plants of a 200', async () => {
    const apiUrl = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    const { stdout } = await run(process.execPath, [join(dir, 'client.ts')], { env: { API_URL: apiUrl, TOKEN: 't' } });
    expect(stdout.trim()).toBe("[ 'Fern' ]");
  });
});
