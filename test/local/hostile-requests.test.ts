// `npm start` facing hostile or careless callers: forged token fields written to its log, secrets
// in a query string, a made-up or repeated Host header, malformed HTTP, a body or headers over the
// limits, HEAD, sniffing and framing of its own pages, and callers that are not on loopback.

import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { base64url } from '../../local/issuer/issuer.ts';
import { type LocalServer, removeTempDirs, startLocalServer } from '../helpers/local-server.ts';
import { assertMatchesContract } from '../helpers/openapi.ts';
import { connects, exchange, parseAnswer } from '../helpers/ports.ts';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => {
  await server?.stop();
  removeTempDirs();
});

/** A raw GET, so the Host header and a body can be anything. */
function rawGet(path: string, headers: Record<string, string>, body?: Buffer) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const length = body ? { 'content-length': String(body.length) } : {};
    const req = request(`${server.origin}${path}`, { method: 'GET', headers: { ...headers, ...length } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The access log lines (they start with the time) of one request, once the first was written. */
async function accessLinesOf(requestId: string | null): Promise<string[]> {
  const id = requestId ?? '-';
  await server.waitForOutput(new RegExp(`^\\d{4}-.*${id.replace(/[+/=]/g, '\\$&')}`, 'm'));
  return server
    .output()
    .split('\n')
    .filter((line) => /^\d{4}-\d\d-\d\dT/.test(line) && line.includes(id));
}

describe('the local server', () => {
  it("writes one log line per request, and nothing a token's fields hold, however they are forged", async () => {
    // A forged access log line, then a terminal clear, an 8-bit CSI and a Unicode line separator.
    const forged = '\n2026-01-01T00:00:00.000Z GET /plants?who=alice 200 1.0 ms\u001b[2J\u009b31m\u2028x';
    const claims = { iss: server.origin, sub: 'alice', client_id: 'plant-store-local', token_use: 'access' };
    const token = `${base64url({ alg: 'RS256', kid: `k${forged}` })}.${base64url({ ...claims, exp: 4e9 })}.AAAA`;

    const response = await fetch(`${server.origin}/plants`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(401);
    const lines = await accessLinesOf(response.headers.get('apigw-requestid'));
    expect(lines).toHaveLength(1);
    expect(server.output()).not.toContain('who=alice');
    expect(server.output()).not.toMatch(/^2026-01-01T00:00:00\.000Z/m);
    for (const control of ['\u001b', '\u009b', '\u2028']) expect(server.output()).not.toContain(control);
  });

  it('logs the names of query parameters, never their values', async () => {
    const response = await fetch(`${server.origin}/plants?access_token=s3cr3t-token&limit=2&flag`);
    const [line] = await accessLinesOf(response.headers.get('apigw-requestid'));

    expect(line).toMatch(/ GET \/plants\?access_token=…&limit=…&flag 401 /);
    expect(server.output()).not.toContain('s3cr3t-token');
  });

  it('names itself in /openapi.json as a client reached it, never as an unknown Host header says', async () => {
    const serverUrl = (body: string) => JSON.parse(body).servers[0].variables.base_url.default;

    const broken = await rawGet('/openapi.json', { host: 'a:b' });
    expect({ status: broken.status, url: serverUrl(broken.body) }).toEqual({ status: 200, url: server.origin });
    const foreign = await rawGet('/openapi.json', { host: 'evil.example:1234' });
    expect(serverUrl(foreign.body)).toBe(server.origin);
    expect(foreign.body).not.toContain('evil.example');
    // An address of its own keeps "Try it out" on the page's origin.
    const byAddress = await rawGet('/openapi.json', { host: `127.0.0.1:${server.port}` });
    expect(serverUrl(byAddress.body)).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.output()).not.toContain('TypeError');
  });

  it("answers a body over 10 MB with API Gateway's 413, as openapi.yaml documents it", async () => {
    const reply = await rawGet('/plants', { 'content-type': 'text/plain' }, Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));

    expect({ status: reply.status, body: JSON.parse(reply.body) }).toEqual({
      status: 413,
      body: { message: 'Request Entity Too Large' },
    });
    assertMatchesContract({ statusCode: reply.status, headers: reply.headers, body: reply.body });
  });

  it("answers headers over Node's 16 KiB with 431 in API Gateway's shape, as openapi.yaml documents it", async () => {
    const reply = await rawGet('/plants', { 'x-padding': 'a'.repeat(17 * 1024) });

    expect({ status: reply.status, body: JSON.parse(reply.body) }).toEqual({
      status: 431,
      body: { message: 'Request Header Fields Too Large' },
    });
    assertMatchesContract({ statusCode: reply.status, headers: reply.headers, body: reply.body });
  });

  it('refuses 500 repeated Host headers and a malformed header with the contract’s 400, and keeps serving', async () => {
    for (const bytes of [
      `GET /plants HTTP/1.1\r\n${'Host: localhost\r\n'.repeat(500)}\r\n`,
      'GET /plants HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n',
    ]) {
      const answer = parseAnswer((await exchange(server.port, bytes)).raw);
      expect({ status: answer.statusCode, error: JSON.parse(answer.body).error }).toEqual({ status: 400, error: 400 });
      assertMatchesContract(answer);
    }
    expect((await fetch(`${server.origin}/plants`)).status).toBe(401);
  });

  it('answers HEAD /plants 404 without a body, as openapi.yaml documents it', async () => {
    const response = await fetch(`${server.origin}/plants`, { method: 'HEAD' });
    const reply = { method: 'HEAD', statusCode: response.status, headers: Object.fromEntries(response.headers) };

    expect({ status: response.status, body: await response.text() }).toEqual({ status: 404, body: '' });
    assertMatchesContract(reply);
    expect(() => assertMatchesContract({ ...reply, body: '{"message":"Not Found"}' })).toThrow(/a body/);
  });

  it('serves its own pages as the type they say (nosniff), and the docs page under a policy no site may frame', async () => {
    for (const path of [
      '/',
      '/docs',
      '/docs/swagger-ui.css',
      '/docs/init.js',
      '/openapi.json',
      '/.well-known/jwks.json',
    ]) {
      const response = await fetch(`${server.origin}${path}`, { redirect: 'manual' });
      expect({ path, nosniff: response.headers.get('x-content-type-options') }).toEqual({ path, nosniff: 'nosniff' });
    }
    const docs = await fetch(`${server.origin}/docs`);
    expect(docs.headers.get('content-security-policy')).toMatch(/(^|; )frame-ancestors 'none'(;|$)/);
    expect(docs.headers.get('content-security-policy')).toMatch(/(^|; )script-src 'self'(;|$)/);
    expect(docs.headers.get('x-frame-options')).toBe('DENY');
  });

  it('listens on loopback only: another address of this machine is refused', async () => {
    // Linux routes all of 127.0.0.0/8 to this machine: a server on every interface answers there.
    expect(await connects('127.0.0.1', server.port)).toBe(true);
    expect(await connects('127.0.0.2', server.port)).toBe(false);
  });
});
