// `npm start` as a user runs it: the banner, tokens from `npm run token`, the API over HTTP.

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { demoPlants } from '../../local/demo.ts';
import { type LocalServer, removeTempDirs, runNpm, startLocalServer, tokenFor } from '../helpers/local-server.ts';
import { assertMatchesContract } from '../helpers/openapi.ts';

let server: LocalServer;
/** Tokens from `npm run token`, fetched once: each run of npm costs most of a second. */
const tokens: Record<string, string> = {};
beforeAll(async () => {
  server = await startLocalServer();
  const users = ['alice', 'bob', 'mallory'];
  const issued = await Promise.all([
    ...users.map((user) => tokenFor(server, user)),
    tokenFor(server, 'alice', '--ttl', '1s'),
  ]);
  users.forEach((user, i) => {
    tokens[user] = issued[i] ?? '';
  });
  tokens.stale = issued[3] ?? '';
});
afterAll(async () => {
  await server.stop();
  removeTempDirs();
});

const demo = (owner: string) =>
  demoPlants()
    .filter((p) => p.owner === owner)
    .map(({ name, tag }) => (tag ? { name, tag } : { name }));

/** GET through the server, with the response checked against openapi.yaml. */
async function get(path: string, token?: string) {
  const response = await fetch(
    `${server.origin}${path}`,
    token ? { headers: { authorization: `Bearer ${token}` } } : {},
  );
  const body = await response.text();
  const headers = Object.fromEntries(response.headers);
  if (path.startsWith('/plants?') || path === '/plants')
    assertMatchesContract({ statusCode: response.status, headers, body });
  return { status: response.status, headers, body: JSON.parse(body) as unknown };
}

describe('npm start', () => {
  it("prints curl commands that return alice's and bob's demo plants as pasted", async () => {
    const commands = server
      .output()
      .split('\n')
      .filter((line) => line.trim().startsWith('curl -s'));
    expect(commands).toHaveLength(2);
    const [alice, bob] = await Promise.all(commands.map((command) => promisify(execFile)('sh', ['-c', command])));
    expect(JSON.parse(alice?.stdout ?? '')).toEqual(demo('alice'));
    expect(JSON.parse(bob?.stdout ?? '')).toEqual(demo('bob'));
  });

  it('serves each user only their own plants, with tokens from npm run token', async () => {
    expect((await get('/plants', tokens.alice)).body).toEqual(demo('alice'));
    expect((await get('/plants', tokens.bob)).body).toEqual(demo('bob'));
    expect((await get('/plants', tokens.mallory)).body).toEqual([]);
  });

  it('honours limit and links page after page until every plant was read once', async () => {
    const token = tokens.alice;
    const seen: unknown[] = [];
    let path: string | undefined = '/plants?limit=1';
    for (let pages = 0; path && pages < 10; pages++) {
      const reply = await get(path, token);
      expect(reply.status).toBe(200);
      expect(reply.body).toHaveLength(1);
      seen.push(...(reply.body as unknown[]));
      const next = /^<([^>]+)>; rel="next"$/.exec(reply.headers.link ?? '')?.[1];
      // A relative reference: resolved against the URL requested, as a client does (RFC 3986 §5).
      const url: URL | undefined = next === undefined ? undefined : new URL(next, `${server.origin}${path}`);
      if (url) expect(url.origin + url.pathname).toBe(`${server.origin}/plants`);
      path = url && `${url.pathname}${url.search}`;
    }
    expect(seen).toEqual(demo('alice'));
  });

  it('refuses bad requests with the Error body: invalid limit, repeated limit, no token, expired token', async () => {
    const token = tokens.alice;
    expect(await get('/plants?limit=0', token)).toMatchObject({ status: 400, body: { error: 400 } });
    // The raw query string reaches the handler intact, so a repeated key is seen as such.
    expect(await get('/plants?limit=1&limit=2', token)).toMatchObject({ status: 400, body: { error: 400 } });
    expect(await get('/plants')).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Bearer' } });
    // Waits until a second past the token's own exp (a one-second resolution claim).
    const { exp } = JSON.parse(Buffer.from(tokens.stale?.split('.')[1] ?? '', 'base64url').toString());
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, (exp + 1) * 1000 - Date.now())));
    expect(await get('/plants', tokens.stale)).toMatchObject({
      status: 401,
      body: { message: 'The access token has expired' },
    });
  });

  it('answers unknown paths and methods with 404 and the Error body, as API Gateway routes', async () => {
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/plants/'],
      ['POST', '/plants'],
      ['DELETE', '/plants'],
      ['GET', '/pets'],
    ]) {
      const response = await fetch(`${server.origin}${path}`, { method });
      expect({ method, path, status: response.status, body: await response.json() }).toEqual({
        method,
        path,
        status: 404,
        body: { error: 404, message: 'Not Found' },
      });
      expect(response.headers.get('apigw-requestid')).toMatch(/^[A-Za-z0-9+/]{15}=$/);
    }
  });

  it('serves the JWKS that signs its tokens, and the OpenAPI document as JSON', async () => {
    const kid = JSON.parse(Buffer.from(tokens.bob?.split('.')[0] ?? '', 'base64url').toString()).kid;
    const { body: jwks } = await get('/.well-known/jwks.json');
    expect((jwks as { keys: { kid: string }[] }).keys.map((key) => key.kid)).toEqual([kid]);
    const { body: openapi } = await get('/openapi.json');
    expect(openapi).toMatchObject({ openapi: '3.1.0', paths: { '/plants': { get: { operationId: 'listPlants' } } } });
  });

  it('logs a line per request with method, path, status and request id', async () => {
    await get('/plants?limit=3');
    await expect(server.waitForOutput(/^\S+Z GET \/plants\?limit=3 401 [\d.]+ ms \S{16}$/m)).resolves.toBeTruthy();
  });

  it("prints the function's own JSON log line, and no EMF metrics", async () => {
    await get('/plants?limit=4');
    const line = await server.waitForOutput(/^\{"level":"INFO","message":"request".*"status":401.*$/m);
    expect(line).toBeTruthy();
    expect(server.output()).not.toContain('"_aws"');
  });

  it('refuses to start on a port in use, with one line saying so', async () => {
    const second = await runNpm('start', [], { PORT: String(server.port), PLANTS_LOCAL_DIR: server.localDir });
    expect(second.code).toBe(1);
    expect(second.stderr.trim()).toBe(
      `Port ${server.port} is already in use: stop what runs there, or start with PORT=<another port> npm start`,
    );
  });
});
