// The local server's connections, over raw sockets: callers that send nothing or too slowly are closed
// at deadlines this file sets short; what Node refuses itself, a repeated or missing Host, and an
// unknown expectation answer as openapi.yaml says.

import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApp } from '../../local/server/app.ts';
import { createLocalServer } from '../../local/server/connections.ts';
import { assertMatchesContract } from '../helpers/openapi.ts';
import { exchange, parseAnswer } from '../helpers/ports.ts';

const log: string[] = [];
const waiting: { pattern: RegExp; resolve: (line: string) => void }[] = [];
/** The first access line matching `pattern`, once a server has written it. */
const logged = (pattern: RegExp) =>
  new Promise<string>((resolve) => {
    const line = log.find((written) => pattern.test(written));
    if (line) resolve(line);
    else waiting.push({ pattern, resolve });
  });
const app = createApp({
  // The function's part is not under test: every call it gets is a 200 with no plants.
  handler: async () => ({ statusCode: 200, headers: { 'content-type': 'application/json' }, body: '[]' }),
  port: 0,
  origins: ['http://127.0.0.1'],
  authorizeHelp: '',
  jwks: undefined,
  log: (line) => {
    log.push(line);
    for (const wait of waiting) if (wait.pattern.test(line)) wait.resolve(line);
  },
});

// Each deadline test sets its own, and only the one it checks is short: a request sent whole is parsed
// long before the others pass, however busy the machine.
const LONG = 60_000;
const SILENT = { headersMs: 300, requestMs: 300, keepAliveMs: LONG, checkEveryMs: 20 };
const SLOW_BODY = { headersMs: 2000, requestMs: 2000, keepAliveMs: LONG, checkEveryMs: 50 };
const IDLE = { headersMs: LONG, requestMs: LONG, keepAliveMs: 200, checkEveryMs: 1000 };
const servers = {
  silent: createLocalServer(app, SILENT),
  slowBody: createLocalServer(app, SLOW_BODY),
  idle: createLocalServer(app, IDLE),
  // The refusals, with the deadlines npm start has.
  standard: createLocalServer(app),
};
type ServerName = keyof typeof servers;
const ports = {} as Record<ServerName, number>;
beforeAll(async () => {
  for (const [name, server] of Object.entries(servers)) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ports[name as ServerName] = (server.address() as AddressInfo).port;
  }
});
afterAll(() => Promise.all(Object.values(servers).map((server) => new Promise((resolve) => server.close(resolve)))));

/** What a server did with `bytes`: its answer, if any, and how long it kept the connection. */
async function send(bytes: string, server: ServerName = 'standard') {
  const started = performance.now();
  const { raw, closedAt } = await exchange(ports[server], bytes);
  return { raw, answer: parseAnswer(raw), openMs: closedAt - started };
}

describe('the local server’s connections', () => {
  it.concurrent('closes a connection that sends nothing at the headers deadline, without an answer', async () => {
    const { raw, openMs } = await send('', 'silent');
    expect({ raw, closedByDeadline: openMs >= SILENT.headersMs }).toEqual({ raw: '', closedByDeadline: true });
  });

  it.concurrent('closes a connection that stops halfway through its headers, without an answer', async () => {
    const { raw, openMs } = await send('GET /plants HTTP/1.1\r\nHost: localhost\r\nAuthoriz', 'silent');
    expect({ raw, closedByDeadline: openMs >= SILENT.headersMs }).toEqual({ raw: '', closedByDeadline: true });
  });

  it.concurrent('closes a request whose body stops coming at the request deadline, logging no failure', async () => {
    const { raw, openMs } = await send(
      'GET /plants?slow HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\nab',
      'slowBody',
    );
    expect({ raw, closedByDeadline: openMs >= SLOW_BODY.requestMs }).toEqual({ raw: '', closedByDeadline: true });
    // The caller gone, nothing is answered: the log says so, and logs no server failure.
    expect(await logged(/ GET \/plants\?slow /)).toMatch(/ GET \/plants\?slow 408 /);
  });

  it.concurrent('closes a kept-alive connection left idle after its answer', async () => {
    const { answer, openMs } = await send('GET /plants HTTP/1.1\r\nHost: localhost\r\n\r\n', 'idle');
    expect({ status: answer.statusCode, idleClosed: openMs >= IDLE.keepAliveMs }).toEqual({
      status: 200,
      idleClosed: true,
    });
  });

  it.concurrent.each([
    ['a header name with a space', 'GET /plants HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n'],
    ['a request line that is not HTTP', 'GET /plants HTCPCP/1.0\r\n\r\n'],
    ['500 Host headers', `GET /plants HTTP/1.1\r\n${'Host: localhost\r\n'.repeat(500)}\r\n`],
    ['two different Host headers', 'GET /plants HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n'],
    ['no Host on HTTP/1.1', 'GET /plants HTTP/1.1\r\n\r\n'],
  ])('refuses %s with the contract’s 400, then closes', async (_, bytes) => {
    const { answer } = await send(bytes);

    expect({ status: answer.statusCode, error: JSON.parse(answer.body).error }).toEqual({ status: 400, error: 400 });
    expect(answer.headers.connection).toBe('close');
    assertMatchesContract(answer);
  });

  it.concurrent('serves HTTP/1.0 without Host, and a request whatever else it expects (no 417)', async () => {
    const old = await send('GET /plants HTTP/1.0\r\n\r\n');
    const expecting = await send(
      'GET /plants HTTP/1.1\r\nHost: localhost\r\nExpect: teapot\r\nConnection: close\r\n\r\n',
    );

    expect([old.answer.statusCode, expecting.answer.statusCode]).toEqual([200, 200]);
  });
});
