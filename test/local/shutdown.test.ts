// Ctrl+C on `npm start` in a terminal: the terminal signals npm's whole process group and npm
// forwards its own copy, so node gets two SIGINTs at once. That is one Ctrl+C, not a forced stop.

import { request } from 'node:http';
import { afterAll, describe, expect, it } from '@jest/globals';
import { type LocalServer, removeTempDirs, startLocalServer, tokenFor } from '../helpers/local-server.ts';

const started: LocalServer[] = [];
afterAll(async () => {
  // A test that failed half-way leaves its server running: stop it (a no-op for those that exited).
  await Promise.all(started.map((server) => server.stop()));
  removeTempDirs();
});
const start = async () => {
  const server = await startLocalServer();
  started.push(server);
  return server;
};

/**
 * A GET /plants whose 10-byte body is half sent: in flight until `finish()` sends the rest. `started`
 * resolves once the server has read its headers and taken it in (its `100 Continue`), whatever the
 * machine's speed.
 */
function requestInFlight(server: LocalServer, token: string) {
  const req = request(`${server.origin}/plants`, {
    method: 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      'content-length': '10',
      'content-type': 'text/plain',
      expect: '100-continue',
    },
  });
  const started = new Promise<void>((resolve) => req.once('continue', resolve));
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  req.write('12345');
  return { started, response, finish: () => req.end('67890') };
}

/**
 * One request answered in full first: the function's cold work (the JWKS fetch, DynamoDB's connection)
 * is done before Ctrl+C, so the request in flight needs milliseconds of the stop's grace, not seconds.
 */
async function warmUp(server: LocalServer, token: string) {
  const reply = await fetch(`${server.origin}/plants`, { headers: { authorization: `Bearer ${token}` } });
  expect(reply.status).toBe(200);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Each test has its own server, and most of their time is waiting on it: they run at once.
describe('Ctrl+C under npm start', () => {
  it.concurrent('finishes the request in flight on the first Ctrl+C, though node receives SIGINT twice', async () => {
    const server = await start();
    const token = await tokenFor(server, 'bob');
    await warmUp(server, token);
    const inFlight = requestInFlight(server, token);
    await inFlight.started;

    server.signalGroup('SIGINT');
    await server.waitForOutput(/SIGINT: finishing open requests/);
    await sleep(300); // npm forwards its copy at once: it lands while the request is still open
    inFlight.finish();

    const { status, body } = await inFlight.response;
    expect(status).toBe(200);
    expect(JSON.parse(body)).toContainEqual({ name: 'Snake plant', tag: 'succulent' });
    await server.exited;
    expect(server.output()).toContain('Stopped.');
    expect(server.output()).not.toContain('again: stopping now');
  });

  it.concurrent('stops at once on a second Ctrl+C more than a second after the first, dropping the request', async () => {
    const server = await start();
    const inFlight = requestInFlight(server, await tokenFor(server, 'bob'));
    await inFlight.started;

    server.signalGroup('SIGINT');
    await server.waitForOutput(/SIGINT: finishing open requests/);
    await sleep(1200);
    server.signalGroup('SIGINT');

    await expect(inFlight.response).rejects.toThrow(/socket hang up|ECONNRESET/);
    await server.exited;
    expect(server.output()).toContain('SIGINT again: stopping now, open requests are dropped');
    expect(server.output()).not.toContain('Stopped.');
  });
});
