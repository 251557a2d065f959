// The README's import command, as a newcomer runs it against `npm start`: the example file in the
// repository lands, users' and a group's plants, and the API serves them.

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type LocalServer, npm, removeTempDirs, runNpm, startLocalServer, tokenFor } from '../helpers/local-server.ts';

const COMMAND = 'npm run plants -- import examples/plants.csv';
let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => {
  await server?.stop();
  removeTempDirs();
});

async function apiPlants(user: string, ...tokenOptions: string[]) {
  const token = await tokenFor(server, user, ...tokenOptions);
  const response = await fetch(`${server.origin}/plants`, { headers: { authorization: `Bearer ${token}` } });
  return response.json();
}

describe('examples/plants.csv', () => {
  it("is imported by the README's own command", async () => {
    expect(readFileSync(new URL('../../README.md', import.meta.url), 'utf8')).toContain(COMMAND);
    // Exactly as typed: `npm` and the words after it.
    const imported = await npm(COMMAND.split(' ').slice(1), { PLANTS_LOCAL_DIR: server.localDir });
    expect(imported).toMatchObject({ code: 0, stdout: expect.stringContaining('Imported 5 plant(s)') });

    expect(await apiPlants('carol', '--no-groups')).toEqual([
      { name: 'Peace lily', tag: 'flower' },
      { name: 'Jade plant', tag: 'succulent' },
    ]);
    expect(await apiPlants('dave', '--groups', 'potting shed')).toEqual([
      { name: 'Rubber plant' },
      { name: 'Rosemary', tag: 'herb' },
      { name: 'Strawberry', tag: 'fruit' },
    ]);
  });

  it('changes nothing when imported again: every row names its id', async () => {
    const again = await runNpm('plants', ['import', 'examples/plants.csv'], { PLANTS_LOCAL_DIR: server.localDir });
    expect(again.code).toBe(0);
    const listed = await runNpm('plants', ['list', '--json'], { PLANTS_LOCAL_DIR: server.localDir });
    const ids = (JSON.parse(listed.stdout) as { id: string }[])
      .map(({ id }) => id)
      .filter((id) => id.startsWith('example-'));
    expect(ids.sort()).toEqual(['example-001', 'example-002', 'example-003', 'example-004', 'example-005']);
  });
});
