// `npm run plants -- list` shows what the API shows: a user's own plants and, given the groups a
// token names, each group's after them, saying which partitions it read.

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type LocalServer, removeTempDirs, runNpm, startLocalServer, tokenFor } from '../helpers/local-server.ts';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
  await plants('add', '--group', 'greenhouse', 'Shared fern');
  await plants('add', 'carol', 'Cactus');
});
afterAll(async () => {
  await server?.stop();
  removeTempDirs();
});

const plants = (...args: string[]) => runNpm('plants', args, { PLANTS_LOCAL_DIR: server.localDir });
const names = (stdout: string) => (JSON.parse(stdout) as { name: string }[]).map(({ name }) => name);

describe('npm run plants -- list', () => {
  it("lists what the API shows carol with a token naming her groups: her own, then each group's", async () => {
    const token = await tokenFor(server, 'carol', '--groups', 'greenhouse');
    const response = await fetch(`${server.origin}/plants`, { headers: { authorization: `Bearer ${token}` } });
    const api = ((await response.json()) as { name: string }[]).map(({ name }) => name);
    expect(api).toContain('Shared fern');

    const listed = await plants('list', 'carol', '--groups', 'greenhouse', '--json');
    expect(listed.code).toBe(0);
    expect(names(listed.stdout)).toEqual(api);
    expect(listed.stderr).toContain(
      `${api.length} plant(s) of carol's own, then of group greenhouse: what the API shows carol with a token naming these groups`,
    );
  });

  it('says that a user alone is their own partition only, and how to add their groups', async () => {
    const listed = await plants('list', 'carol', '--json');
    expect(names(listed.stdout)).toEqual(['Cactus']);
    expect(listed.stderr).toContain(
      "1 plant(s) of carol's own; the API also shows the plants of the groups carol's token names: add --groups G,H",
    );
  });

  it("lists one group's plants, and names it", async () => {
    const listed = await plants('list', '--group', 'greenhouse', '--json');
    expect(names(listed.stdout)).toContain('Shared fern');
    expect(listed.stderr).toMatch(/\d+ plant\(s\) of group greenhouse/);
  });

  it('refuses --groups without an owner, and group names a token could not carry', async () => {
    expect(await plants('list', '--groups', 'greenhouse')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--groups goes with an owner'),
    });
    expect(await plants('list', 'carol', '--groups', ' , ')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--groups takes group names separated by commas'),
    });
  });
});
