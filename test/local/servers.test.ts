// Two local servers side by side in one .local folder (the second with generic OIDC tokens): each
// keeps its own record, the CLIs reach either with --port and pick neither unasked, and neither
// removes the other's.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Level } from 'level';
import { type LocalServer, removeTempDirs, runNpm, startLocalServer, tempDir } from '../helpers/local-server.ts';

const localDir = tempDir('local');
let first: LocalServer;
let second: LocalServer;

beforeAll(async () => {
  first = await startLocalServer([], { PLANTS_LOCAL_DIR: localDir });
  second = await startLocalServer([], { PLANTS_LOCAL_DIR: localDir, AUTH_ISSUER_TYPE: 'oidc' });
});
afterAll(async () => {
  await Promise.all([first?.stop(), second?.stop()]);
  removeTempDirs();
});

/** `npm run token` with no PORT set, as from a fresh terminal. */
async function token(...args: string[]) {
  const result = await runNpm('token', args, { PLANTS_LOCAL_DIR: localDir });
  return { ...result, token: result.stdout.trim() };
}
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString());
const status = async (server: LocalServer, jwt: string) =>
  (await fetch(`${server.origin}/plants`, { headers: { authorization: `Bearer ${jwt}` } })).status;

describe('two local servers', () => {
  it('refuse to guess between them, naming both, and mint for either with --port', async () => {
    const running = [first.port, second.port].sort((a, b) => a - b).join(', ');
    const [guess, listed, chosen] = await Promise.all([
      token('alice'),
      runNpm('plants', ['list', 'alice'], { PLANTS_LOCAL_DIR: localDir }),
      token('alice', '--port', String(first.port)),
    ]);
    const refusal = `Several local servers run (ports ${running}): name one with --port N\n`;
    expect(guess).toMatchObject({ code: 1, stdout: '', stderr: refusal });
    expect(listed).toMatchObject({ code: 1, stderr: refusal });
    expect(claimsOf(chosen.token).iss).toBe(first.origin);
    expect(await status(first, chosen.token)).toBe(200);
    expect(await status(second, chosen.token)).toBe(401);
  });

  it('mints generic OIDC tokens (aud, groups claim) for a server started with AUTH_ISSUER_TYPE=oidc', async () => {
    const { token: jwt } = await token('alice', '--port', String(second.port), '--groups', 'a,b');
    const claims = claimsOf(jwt);
    expect(claims).toMatchObject({ iss: second.origin, aud: 'plant-store-local', groups: ['a', 'b'] });
    expect(claims).not.toHaveProperty('client_id');
    expect(await status(second, jwt)).toBe(200);
    expect(await status(first, jwt)).toBe(401);
  });

  it('refuses a --port without a number in a line, and names the running servers for a port with none', async () => {
    const noValue = await token('alice', '--port');
    expect(noValue.code).toBe(2);
    expect(noValue.stderr).toBe('Option --port needs a value\n');
    const notNumber = await token('alice', '--port', 'abc');
    expect(notNumber).toMatchObject({ code: 2, stderr: '--port must be a number from 0 to 65535, got "abc"\n' });
    const none = await runNpm('plants', ['list', '--port', '1'], { PLANTS_LOCAL_DIR: localDir });
    const running = [first.port, second.port].sort((a, b) => a - b).join(', ');
    expect(none).toMatchObject({ code: 1, stderr: `No local server runs on port 1 (running: ${running})\n` });
  });

  it("keeps the other server's records through a failed start and a stop", async () => {
    // A start that fails after listening (its data folder is held by this test process).
    const held = tempDir('held');
    const db = new Level(held);
    await db.open();
    const failed = await runNpm('start', ['--data-dir', held], { PLANTS_LOCAL_DIR: localDir, PORT: '0' });
    await db.close();
    expect(failed).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`Cannot start: The data folder ${held} is in use`),
    });
    expect(failed.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(existsSync(join(localDir, 'servers', `${first.port}.json`))).toBe(true);

    expect(await second.stop('SIGINT')).toBe(0);
    expect(existsSync(join(localDir, 'servers', `${second.port}.json`))).toBe(false);
    expect(existsSync(join(localDir, 'servers', `${first.port}.json`))).toBe(true);
    const listed = await runNpm('plants', ['list', 'bob'], { PLANTS_LOCAL_DIR: localDir });
    expect(listed.stderr).toContain(`Store: the local server on port ${first.port} (in memory)`);
    const { token: jwt, stderr } = await token('bob');
    expect(stderr).toContain(`for the server on port ${first.port} (the running local server)`);
    expect(await status(first, jwt)).toBe(200);
  });
});
