// The data CLI against a running `npm start`, and the data folder across a graceful restart.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Level } from 'level';
import { openStore } from '../../local/store/store.ts';
import { putPlants } from '../helpers/dynamo.ts';
import {
  type LocalServer,
  removeTempDirs,
  runNpm,
  startLocalServer,
  tempDir,
  tokenFor,
} from '../helpers/local-server.ts';

const dataDir = tempDir('data');
const localDir = tempDir('local');
const files = tempDir('files');
let server: LocalServer;

beforeAll(async () => {
  server = await startLocalServer(['--data-dir', dataDir], { PLANTS_LOCAL_DIR: localDir });
});
afterAll(async () => {
  await server?.stop();
  removeTempDirs();
});

const plants = (...args: string[]) => runNpm('plants', args, { PLANTS_LOCAL_DIR: localDir });
const file = (name: string, text: string) => {
  const path = join(files, name);
  writeFileSync(path, text);
  return path;
};
// Tokens name their server's origin as issuer, so they are kept per origin and user.
const tokens = new Map<string, Promise<string>>();
/** The user's own plants through the API (a token naming no group: demo users are in one). */
async function apiPlants(user: string) {
  const key = `${server.origin} ${user}`;
  if (!tokens.has(key)) tokens.set(key, tokenFor(server, user, '--no-groups'));
  const response = await fetch(`${server.origin}/plants`, {
    headers: { authorization: `Bearer ${await tokens.get(key)}` },
  });
  return response.json();
}

describe('npm run plants', () => {
  it('imports a CSV file that the API then serves, lists it, and removes it', async () => {
    const csv = file(
      'carol.csv',
      'owner,name,tag\ncarol,Peace lily,flower\ncarol,Jade plant,\ndave,Rubber plant,tree\n',
    );

    const imported = await plants('import', csv);
    expect(imported).toMatchObject({ code: 0, stdout: expect.stringContaining('Imported 3 plant(s)') });
    expect(await apiPlants('carol')).toEqual([{ name: 'Peace lily', tag: 'flower' }, { name: 'Jade plant' }]);

    const listed = await plants('list', 'carol', '--json');
    const ids = (JSON.parse(listed.stdout) as { id: string }[]).map((item) => item.id);
    expect(ids).toHaveLength(2);
    expect(await plants('remove', 'carol', ids[0] ?? '')).toMatchObject({ code: 0 });
    expect(await apiPlants('carol')).toEqual([{ name: 'Jade plant' }]);
    expect(await plants('remove', 'dave', '--all')).toMatchObject({ code: 0, stdout: 'Removed 1 plant(s) of dave\n' });
    expect(await apiPlants('dave')).toEqual([]);
  });

  it('writes nothing from a file with invalid rows, naming each line, unless told to skip them', async () => {
    const json = file(
      'mixed.json',
      '[\n  {"owner": "erin", "name": "Ivy"},\n  {"owner": "erin"},\n  {"owner": "erin", "name": "Fern", "colour": "green"}\n]\n',
    );

    const refused = await plants('import', json);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${json}:3: element [1]: name is required`);
    expect(refused.stderr).toContain(`${json}:4: element [2]: unknown field "colour"`);
    expect(refused.stderr).toContain('Fix them, or pass --skip-invalid to import the 1 valid row(s).');
    expect(await apiPlants('erin')).toEqual([]);

    expect(await plants('import', json, '--skip-invalid')).toMatchObject({ code: 0 });
    expect(await apiPlants('erin')).toEqual([{ name: 'Ivy' }]);
  });

  it('does not offer --skip-invalid for a file with no valid row', async () => {
    const json = file('all-invalid.json', '[{"owner": "hank"}, {"name": "Fern"}]');

    const refused = await plants('import', json);

    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Nothing imported: 2 problem(s). Fix them: no row is valid.');
    expect(refused.stderr).not.toContain('--skip-invalid');
  });

  it("lists --json with every plant's keys in one order (the columns'), however each was written", async () => {
    const json = file(
      'orders.json',
      '[{"tag": "a", "name": "Moss", "owner": "kim"}, {"name": "Aloe", "owner": "kim"}, {"id": "kim-1", "tag": "b", "owner": "kim", "name": "Cactus"}]',
    );
    expect(await plants('import', json)).toMatchObject({ code: 0 });
    expect(await plants('add', 'kim', 'Basil', '--tag', 'herb')).toMatchObject({ code: 0 });

    const listed = JSON.parse((await plants('list', 'kim', '--json')).stdout) as Record<string, unknown>[];

    expect(listed).toHaveLength(4);
    for (const plant of listed) {
      expect(Object.keys(plant)).toEqual(
        plant.tag === undefined ? ['owner', 'id', 'name'] : ['owner', 'id', 'name', 'tag'],
      );
    }
  });

  it('lists a plant another tool wrote with control characters as one row, escaped', async () => {
    // Prepare: the item written straight into the server's store, past the CLI's own checks.
    const record = JSON.parse(readFileSync(join(localDir, 'servers', `${server.port}.json`), 'utf8'));
    const store = await openStore({ ...record.store, dataDir: undefined }, 'embedded');
    await putPlants(store.client, store.tableName, [
      { owner: 'eve', id: 'p-hostile', name: '\u001b[2Jevil\tname\nfake\trow' },
    ]);
    await store.close();
    // Act
    const listed = await plants('list', 'eve');
    // Assess: a header and one row, the name's controls written out.
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n').filter(Boolean)).toEqual([
      'owner\tgroup\tid\tname\ttag',
      'eve\t\tp-hostile\t\\x1b[2Jevil\\x09name\\x0afake\\x09row\t',
    ]);
  });

  it('prints --json with C1 controls, bidi overrides and separators escaped, parsing to the name stored', async () => {
    const name = 'a\u009b31m\u202eevil\u2066\u2028b\u2029c\u0085\u001b[2J';
    const record = JSON.parse(readFileSync(join(localDir, 'servers', `${server.port}.json`), 'utf8'));
    const store = await openStore({ ...record.store, dataDir: undefined }, 'embedded');
    await putPlants(store.client, store.tableName, [{ owner: 'mallory', id: 'p-bidi', name }]);
    await store.close();

    const listed = await plants('list', 'mallory', '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([{ owner: 'mallory', id: 'p-bidi', name }]);
    expect(listed.stdout).toContain('"a\\u009b31m\\u202eevil\\u2066\\u2028b\\u2029c\\u0085\\u001b[2J"');
    // An owner as typed: what the command says of it on stderr is escaped too.
    const owner = await plants('list', 'm\u001b]8;;https://evil.example\u0007x');
    expect(owner.stderr).toContain("0 plant(s) of m\\x1b]8;;https://evil.example\\x07x's own");
    for (const output of [listed.stdout, listed.stderr, owner.stdout, owner.stderr]) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for control characters
      expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    }
  });

  it('adds one plant', async () => {
    expect(await plants('add', 'frank', 'Bird of paradise', '--tag', 'tropical')).toMatchObject({ code: 0 });
    expect(await apiPlants('frank')).toEqual([{ name: 'Bird of paradise', tag: 'tropical' }]);
  });

  it('prints the store it works on to stderr, so --json output stays clean', async () => {
    const listed = await plants('list', 'alice', '--json');
    expect(listed.stderr).toContain(
      `Store: the local server on port ${server.port} (data folder ${dataDir}), table plants`,
    );
    expect(JSON.parse(listed.stdout)).toHaveLength(4);
  });

  it('works on a --data-dir it is given rather than on the running server', async () => {
    const other = tempDir('other-data');
    const added = await plants('add', 'zoe', 'Fern', '--data-dir', other);
    expect(added).toMatchObject({ code: 0, stderr: expect.stringContaining(`persisted in ${other}, table plants`) });
    expect(await apiPlants('zoe')).toEqual([]);
    const listed = await plants('list', 'zoe', '--json', '--data-dir', other);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ owner: 'zoe', name: 'Fern' }]);
    // The running server's own folder is open in the server: reached through it, not refused.
    expect(await plants('add', 'zoe', 'Ivy', '--data-dir', dataDir)).toMatchObject({
      code: 0,
      stderr: expect.stringContaining(`Store: the local server on port ${server.port}`),
    });
    expect(await apiPlants('zoe')).toEqual([{ name: 'Ivy' }]);
  });

  it('refuses two named stores, naming both', async () => {
    const conflict = await plants('list', '--data-dir', files, '--port', String(server.port));
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toContain(`Name one store, not 2: --data-dir ${files} and --port ${server.port}`);
  });

  it('says in one line that a data folder is open in another process', async () => {
    const held = tempDir('held');
    const db = new Level(held);
    await db.open(); // this test process holds LevelDB's lock, as a server or an import would
    try {
      const refused = await plants('list', '--data-dir', held);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(
        `The data folder ${held} is in use by another process (a local server, or another npm run plants): stop it, or work through the server that has it open`,
      );
    } finally {
      await db.close();
    }
  });

  it('reports removed and not-found ids apart, and exits 1 when some were not found', async () => {
    await plants('add', 'gina', 'Cactus');
    const [plant] = JSON.parse((await plants('list', 'gina', '--json')).stdout) as { id: string }[];
    const removed = await plants('remove', 'gina', plant?.id ?? '', 'no-such-id');
    expect(removed).toMatchObject({ code: 1, stdout: 'Removed 1 plant(s) of gina; not found: 1\n' });
    expect(removed.stderr).toContain('Not found for gina: no-such-id');
    expect(await plants('remove', 'gina', plant?.id ?? '')).toMatchObject({
      code: 1,
      stdout: 'Removed 0 plant(s) of gina; not found: 1\n',
    });
  });

  it('imports a file with an id column idempotently, and says that rows without ids are not', async () => {
    const withIds = file('ids.csv', 'owner,name,id\nhana,Rose,r1\nhana,Ivy,r2\n');
    expect(await plants('import', withIds)).toMatchObject({ code: 0 });
    const again = await plants('import', withIds);
    expect(again).toMatchObject({
      code: 0,
      stdout: 'Imported 2 plant(s); 2 by id, each replacing any plant with that id\n',
    });
    expect(again.stderr).not.toContain('importing this file again adds them again');
    expect(await apiPlants('hana')).toEqual([{ name: 'Rose' }, { name: 'Ivy' }]);

    const withoutIds = file('no-ids.json', '[{"owner": "ivan", "name": "Palm"}]');
    const imported = await plants('import', withoutIds);
    expect(imported.stderr).toContain('1 row(s) had no id and got new ones: importing this file again adds them again');
  });

  it("adds, lists, imports and removes a group's plants", async () => {
    expect(await plants('add', '--group', 'garden', 'Shared fern', '--tag', 'fern')).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(`Added group garden's "Shared fern"`),
    });
    const csv = file('group.csv', 'group,owner,name\ngarden,,Olive tree\n,jo,Orchid\n');
    expect(await plants('import', csv)).toMatchObject({ code: 0 });
    const listed = await plants('list', '--group', 'garden', '--json');
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { group: 'garden', name: 'Shared fern', tag: 'fern' },
      { group: 'garden', name: 'Olive tree' },
    ]);
    expect(await apiPlants('jo')).toEqual([{ name: 'Orchid' }]);
    expect(await plants('remove', '--group', 'garden', '--all')).toMatchObject({
      code: 0,
      stdout: 'Removed 2 plant(s) of group garden\n',
    });
  });

  it('keeps the data of --data-dir across a graceful restart, without adding demo data twice', async () => {
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).toContain('Stopped.');
    // With no server running, the CLI opens the data folder itself.
    expect(await plants('add', 'frank', 'Calathea', '--data-dir', dataDir)).toMatchObject({ code: 0 });

    server = await startLocalServer(['--data-dir', dataDir], { PLANTS_LOCAL_DIR: localDir });
    expect(await apiPlants('frank')).toEqual([{ name: 'Bird of paradise', tag: 'tropical' }, { name: 'Calathea' }]);
    expect(await apiPlants('alice')).toHaveLength(4);
    expect(server.output()).not.toContain('Database is closed');
  });
});
