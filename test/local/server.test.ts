// `npm start` as a user runs it: the banner, tokens from `npm run token`, the API over HTTP.

import { execFile } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { routeOf } from '../../handlers/lib/operations.ts';
import { loadSigningKey } from '../../local/issuer/keys.ts';
import { mintToken } from '../../local/issuer/tokens.ts';
import { LOCAL_DYNAMODB_DEADLINE_MS } from '../../local/server/options.ts';
import { demoPlants } from '../../local/store/demo.ts';
import { type LocalServer, removeTempDirs, runNpm, startLocalServer, tokenFor } from '../helpers/local-server.ts';
import { notRoutes } from '../helpers/not-routes.ts';
import { assertMatchesContract, type OperationId } from '../helpers/openapi.ts';

let server: LocalServer;
/** Tokens from `npm run token`, fetched once: each run of npm costs most of a second. */
const tokens: Record<string, string> = {};
beforeAll(async () => {
  // npm start's own DynamoDB deadline, not the tests' longest (local-server.ts): the burst below checks
  // that one invocation at a time keeps each request inside it.
  server = await startLocalServer([], { DYNAMODB_DEADLINE_MS: String(LOCAL_DYNAMODB_DEADLINE_MS) });
  const users = ['alice', 'bob', 'mallory'];
  const issued = await Promise.all([
    ...users.map((user) => tokenFor(server, user, '--no-groups')),
    tokenFor(server, 'alice', '--ttl', '1s'),
  ]);
  users.forEach((user, i) => {
    tokens[user] = issued[i] ?? '';
  });
  tokens.stale = issued[3] ?? '';
});
afterAll(async () => {
  await server?.stop();
  removeTempDirs();
});

const wire = ({ name, tag }: { name: string; tag?: string | undefined }) => (tag ? { name, tag } : { name });
const demo = (owner: string) =>
  demoPlants()
    .filter((p) => p.owner === owner)
    .map(wire);
/** The demo group's plants, which alice and bob both see (own plants first, then the group's). */
const greenhouse = demoPlants()
  .filter((p) => p.group === 'greenhouse')
  .map(wire);
/** The function's own record of a request it refused for `reason` (npm start prints it). */
const refused = (status: number, reason: string) =>
  new RegExp(`^\\{"level":"INFO","message":"request".*"status":${status},.*"reason":"${reason}"`, 'm');
const claimsOf = (token: string | undefined) =>
  JSON.parse(Buffer.from(token?.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

/** GET through the server, with the response checked against openapi.yaml. */
async function get(path: string, token?: string) {
  const response = await fetch(
    `${server.origin}${path}`,
    token ? { headers: { authorization: `Bearer ${token}` } } : {},
  );
  const body = await response.text();
  const headers = Object.fromEntries(response.headers);
  // Checked against the operation the path routes to (operations.ts), as API Gateway would route it.
  const operation = routeOf('GET', new URL(path, server.origin).pathname);
  if (operation)
    assertMatchesContract({ statusCode: response.status, headers, body }, operation.operationId as OperationId);
  return { status: response.status, headers, body: JSON.parse(body) as unknown };
}

describe('npm start', () => {
  it('prints a short banner, the URL it is bound to first, whose token and curl commands work as pasted', async () => {
    const output = server.output();
    const banner = output.slice(output.indexOf('Plant store API'), output.indexOf('Press Ctrl+C to stop.')).split('\n');
    expect(server.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(banner[0]).toMatch(new RegExp(`^Plant store API  ${server.origin}/plants `));
    // Rows on an 80-column terminal, long lines wrapped; no token is printed.
    expect(banner.reduce((rows, line) => rows + Math.max(1, Math.ceil(line.length / 80)), 0)).toBeLessThanOrEqual(16);
    // Before it, only npm's own lines; the function's init record, on one line, after it, where the log starts.
    const before = output.slice(0, output.indexOf('Plant store API')).split('\n');
    expect(before.filter((line) => line.trim() !== '' && !line.startsWith('>'))).toEqual([]);
    const after = output.slice(output.indexOf('Press Ctrl+C to stop.')).split('\n');
    expect(after.find((line) => line.startsWith('{'))).toMatch(/^\{"level":"INFO","message":"init",.*\}$/);
    const commands = banner.map((line) => line.trim()).filter((line) => /^(TOKEN=|curl )/.test(line));
    expect(commands).toHaveLength(2);
    const { stdout } = await promisify(execFile)('sh', ['-c', commands.join('\n')], {
      env: { ...process.env, PLANTS_LOCAL_DIR: server.localDir },
    });
    expect(stdout).toMatch(new RegExp(`^link: <${server.origin}/plants\\?limit=2&cursor=`, 'im'));
    expect(JSON.parse(stdout.slice(stdout.indexOf('\r\n\r\n')))).toEqual([...demo('alice'), ...greenhouse].slice(0, 2));
  });

  it('links a client to the origin it called, when that is one of its own names', async () => {
    const linkFor = (host: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        const url = `${server.origin}/plants?limit=1`;
        const request = httpGet(url, { headers: { host, authorization: `Bearer ${tokens.alice}` } }, (response) => {
          response.resume();
          resolve([response.headers.link ?? []].flat()[0]);
        });
        request.on('error', reject);
      });
    expect(await linkFor(`127.0.0.1:${server.port}`)).toMatch(`<${server.origin}/plants?limit=1&cursor=`);
    expect(await linkFor(`localhost:${server.port}`)).toMatch(
      `<http://localhost:${server.port}/plants?limit=1&cursor=`,
    );
    expect(await linkFor(`[::1]:${server.port}`)).toMatch(`<http://[::1]:${server.port}/plants?limit=1&cursor=`);
    // A Host it does not know is never reflected: the link stays on the bound address.
    expect(await linkFor(`evil.example:${server.port}`)).toMatch(`<${server.origin}/plants?limit=1&cursor=`);
  });

  it('mints Cognito-shaped access tokens, as a user pool does for initiate-auth', () => {
    const claims = claimsOf(tokens.alice);
    expect(Object.keys(claims).sort()).toEqual(
      [
        'auth_time',
        'client_id',
        'event_id',
        'exp',
        'iat',
        'iss',
        'jti',
        'origin_jti',
        'scope',
        'sub',
        'token_use',
        'username',
      ].sort(),
    );
    expect(claims).toMatchObject({
      sub: 'alice',
      username: 'alice',
      iss: server.origin,
      client_id: 'plant-store-local',
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
    });
  });

  it("verifies tokens as the default stack does: a token without the app client's client_id is refused", async () => {
    const key = loadSigningKey(join(server.localDir, 'issuer'));
    const oidcShaped = mintToken(key, {
      issuer: server.origin,
      subject: 'alice',
      ttl: 600,
      audience: 'plant-store-local',
    });
    expect(await get('/plants', oidcShaped)).toMatchObject({ status: 401 });
    const otherClient = mintToken(key, {
      issuer: server.origin,
      subject: 'alice',
      ttl: 600,
      shape: 'cognito',
      audience: 'x',
    });
    expect(await get('/plants', otherClient)).toMatchObject({ status: 401 });
    await expect(server.waitForOutput(refused(401, 'wrong_audience'))).resolves.toBeTruthy();
  });

  it('serves each user only their own plants, with tokens from npm run token that name no group', async () => {
    expect((await get('/plants', tokens.alice)).body).toEqual(demo('alice'));
    expect((await get('/plants', tokens.bob)).body).toEqual(demo('bob'));
    expect((await get('/plants', tokens.mallory)).body).toEqual([]);
  });

  it("names a demo user's own groups by default, as the identity provider would", async () => {
    const [alice, mallory] = await Promise.all([tokenFor(server, 'alice'), tokenFor(server, 'mallory')]);
    expect(claimsOf(alice)['cognito:groups']).toEqual(['greenhouse']);
    expect(claimsOf(mallory)['cognito:groups']).toBeUndefined();
    expect((await get('/plants', alice)).body).toEqual([...demo('alice'), ...greenhouse]);
  });

  it("shares a group's plants with the users whose token names the group (--groups), and no one else", async () => {
    // A group of its own, so the demo group's plants stay as the other tests expect them.
    const added = await runNpm('plants', ['add', '--group', 'potting shed', 'Shared fern'], {
      PLANTS_LOCAL_DIR: server.localDir,
    });
    expect(added.code).toBe(0);
    const [carol, dave] = await Promise.all([
      tokenFor(server, 'carol', '--groups', 'potting shed,greenhouse'),
      tokenFor(server, 'dave'),
    ]);
    expect(claimsOf(carol)['cognito:groups']).toEqual(['potting shed', 'greenhouse']);
    // Own plants (none), then each group's by group name, each by id.
    expect((await get('/plants', carol)).body).toEqual([...greenhouse, { name: 'Shared fern' }]);
    expect((await get('/plants', dave)).body).toEqual([]);
  });

  it('honours limit and links page after page until every plant, own and shared, was read once', async () => {
    const token = await tokenFor(server, 'alice');
    const seen: unknown[] = [];
    let path: string | undefined = '/plants?limit=1';
    for (let pages = 0; path && pages < 10; pages++) {
      const reply = await get(path, token);
      expect(reply.status).toBe(200);
      expect(reply.body).toHaveLength(1);
      seen.push(...(reply.body as unknown[]));
      const next = /^<([^>]+)>; rel="next"$/.exec(reply.headers.link ?? '')?.[1];
      // Absolute to this server, so a client can follow it as-is (`fetch(next)`).
      const url: URL | undefined = next === undefined ? undefined : new URL(next);
      if (url) expect(url.origin + url.pathname).toBe(`${server.origin}/plants`);
      path = url && `${url.pathname}${url.search}`;
    }
    expect(seen).toEqual([...demo('alice'), ...greenhouse]);
  });

  it('serves a burst of 200 concurrent requests, every one a 200, one invocation after another', async () => {
    // Each invocation's deadline runs in its own turn, as in one Lambda execution environment: a
    // burst waits for the process rather than sharing it while every deadline runs.
    const replies = await Promise.all(Array.from({ length: 200 }, () => get('/plants?limit=2', tokens.alice)));
    expect(replies.map(({ status }) => status)).toEqual(replies.map(() => 200));
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

  it('logs why it refused a token (locally), and never the token', async () => {
    // Its own refusals, so that it stands whatever the tests before it did.
    await get('/plants');
    await server.waitForOutput(refused(401, 'missing_token'));
    const { exp } = JSON.parse(Buffer.from(tokens.stale?.split('.')[1] ?? '', 'base64url').toString());
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, (exp + 1) * 1000 - Date.now())));
    await get('/plants', tokens.stale);
    await server.waitForOutput(refused(401, 'expired'));
    const fromAnotherPort = await runNpm('token', ['alice', '--port', '1'], { PLANTS_LOCAL_DIR: server.localDir });
    await get('/plants', fromAnotherPort.stdout.trim());
    await server.waitForOutput(refused(401, 'wrong_issuer'));
    for (const token of [...Object.values(tokens), fromAnotherPort.stdout.trim()]) {
      expect(server.output()).not.toContain(token.split('.')[2]);
    }
  });

  it("answers unknown paths and methods with API Gateway's own 404 body (HTTP APIs have no 405)", async () => {
    for (const [method, path] of notRoutes()) {
      const response = await fetch(`${server.origin}${path}`, { method });
      expect({ method, path, status: response.status, body: await response.json() }).toEqual({
        method,
        path,
        status: 404,
        body: { message: 'Not Found' },
      });
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('apigw-requestid')).toMatch(/^[A-Za-z0-9+/]{15}=$/);
    }
  });

  it('redirects GET / to the API reference', async () => {
    const response = await fetch(`${server.origin}/`, { redirect: 'manual' });
    expect({ status: response.status, location: response.headers.get('location') }).toEqual({
      status: 302,
      location: '/docs',
    });
  });

  it('serves the JWKS that signs its tokens, and the OpenAPI document as JSON', async () => {
    const kid = JSON.parse(Buffer.from(tokens.bob?.split('.')[0] ?? '', 'base64url').toString()).kid;
    const { body: jwks } = await get('/.well-known/jwks.json');
    expect((jwks as { keys: { kid: string }[] }).keys.map((key) => key.kid)).toEqual([kid]);
    const { body: openapi } = await get('/openapi.json');
    expect(openapi).toMatchObject({ openapi: '3.1.0', paths: { '/plants': { get: { operationId: 'listPlants' } } } });
    // What Authorize needs: how to get a token for this server, and to paste it alone.
    const scheme = (openapi as { components: { securitySchemes: { bearerAuth: { description: string } } } }).components
      .securitySchemes.bearerAuth;
    expect(scheme.description).toContain(`npm run -s token -- alice --port ${server.port}`);
    expect(scheme.description).toContain('paste the token alone');
  });

  it('logs a line per request with method, path (query values left out), status and request id', async () => {
    await get('/plants?limit=3');
    await expect(server.waitForOutput(/^\S+Z GET \/plants\?limit=… 401 [\d.]+ ms \S{16}$/m)).resolves.toBeTruthy();
  });

  it("prints the function's own JSON log line, and no EMF metrics", async () => {
    await get('/plants?limit=4');
    const line = await server.waitForOutput(/^\{"level":"INFO","message":"request".*"status":401.*$/m);
    expect(line).toBeTruthy();
    expect(server.output()).not.toContain('"_aws"');
  });

  it.each<[string, string[], Record<string, string>]>([
    ['--port', ['--port', '<taken>'], {}],
    ['PORT', [], { PORT: '<taken>' }],
  ])(
    'refuses to start on a port in use given with %s, in one line naming the flag, which wins over PORT',
    async (_, args, env) => {
      const taken = String(server.port);
      const second = await runNpm(
        'start',
        args.map((arg) => arg.replace('<taken>', taken)),
        {
          ...Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace('<taken>', taken)])),
          PLANTS_LOCAL_DIR: server.localDir,
        },
      );
      expect(second.code).toBe(1);
      expect(second.stderr.trim()).toBe(
        `Port ${taken} is already in use: stop what runs there, or pick another: npm start -- --port <N>`,
      );
    },
  );
});
