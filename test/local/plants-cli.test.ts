// The data CLI against a running `npm start`, and the data folder across a graceful restart.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
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
async function apiPlants(user: string) {
  const key = `${server.origin} ${user}`;
  if (!tokens.has(key)) tokens.set(key, tokenFor(server, user));
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
    expect(refused.stderr).toContain(`${json}:3: name is required`);
    expect(refused.stderr).toContain(`${json}:4: unknown field "colour"`);
    expect(await apiPlants('erin')).toEqual([]);

    expect(await plants('import', json, '--skip-invalid')).toMatchObject({ code: 0 });
    expect(await apiPlants('erin')).toEqual([{ name: 'Ivy' }]);
  });

  it('adds one plant', async () => {
    expect(await plants('add', 'frank', 'Bird of paradise', '--tag', 'tropical')).toMatchObject({ code: 0 });
    expect(await apiPlants('frank')).toEqual([{ name: 'Bird of paradise', tag: 'tropical' }]);
  });

  it('keeps the data of --data-dir across a graceful restart, without adding demo data twice', async () => {
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.output()).toContain('Stopped.');
    // With no server running, the CLI opens the data folder itself.
    expect(await plants('add', 'frank', 'Calathea', '--data-dir', dataDir)).toMatchObject({ code: 0 });

    server = await startLocalServer(['--data-dir', dataDir], { PLANTS_LOCAL_DIR: localDir });
    expect(await apiPlants('frank')).toEqual([{ name: 'Bird of paradise', tag: 'tropical' }, { name: 'Calathea' }]);
    expect(await apiPlants('alice')).toHaveLength(4);
  });
});
