// docs/edge.md's own post-deploy check, as written there: its request to the function URL (here a
// server answering as Lambda does an unsigned request: AWS's is out of reach) is an unsigned GET of
// /plants, and it prints the status, 403 when refused.

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { expect, it } from '@jest/globals';
import { LIVE_ALIAS } from '../../../infra/delivery.ts';

const page = readFileSync(new URL('../../../docs/edge.md', import.meta.url), 'utf8');
const section = page.split(/^## /m).find((part) => part.startsWith('Check it')) ?? '';
const lines = (/```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '').trim().split('\n');

it('reads the URL of the live alias, then prints the status of an unsigned GET /plants to it', async () => {
  const seen: { method?: string; url?: string; headers: IncomingHttpHeaders }[] = [];
  const lambda = createServer((request, response) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers });
    response.writeHead(403, { 'content-type': 'application/json' }).end('{"Message":"Forbidden"}');
  });
  await new Promise<void>((listening) => lambda.listen(0, '127.0.0.1', listening));
  const url = `http://127.0.0.1:${(lambda.address() as AddressInfo).port}/`;
  const [read, probe = ''] = lines;

  const { stdout } = await promisify(execFile)('bash', ['-c', probe], { env: { ...process.env, URL: url } }).finally(
    () => new Promise((closed) => lambda.close(closed)),
  );

  expect(read).toMatch(/^URL=\$\(aws lambda get-function-url-config /);
  expect(read).toContain(`--function-name "$(out FunctionName)" --qualifier ${LIVE_ALIAS} --query FunctionUrl`);
  expect(stdout).toBe('403\n');
  expect(seen).toEqual([
    { method: 'GET', url: '/plants', headers: expect.not.objectContaining({ authorization: expect.anything() }) },
  ]);
});
