// `npm start -- --host` on an external store that already holds data, and the data CLI around it:
// where the server listens, what its banner says when no demo data was added, which store and
// table each command reaches, and that a misspelt table name is an error rather than a new table.

import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type LocalDynamo, putPlants, startDynamo, TEST_REGION } from '../helpers/dynamo.ts';
import { type LocalServer, removeTempDirs, runNpm, startLocalServer, tempDir } from '../helpers/local-server.ts';
import { connects } from '../helpers/ports.ts';

const localDir = tempDir('local');
let dynamo: LocalDynamo;
let server: LocalServer;
beforeAll(async () => {
  dynamo = await startDynamo('plants');
  await putPlants(dynamo.client, 'plants', [{ owner: 'zoe', id: 'z1', name: 'Fern' }]);
  server = await startLocalServer(['--host', '127.0.0.2'], {
    PLANTS_LOCAL_DIR: localDir,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    AWS_REGION: TEST_REGION,
  });
});
afterAll(async () => {
  await server?.stop();
  await dynamo?.close();
  removeTempDirs();
});

const plants = (args: string[], env: Record<string, string> = {}) =>
  runNpm('plants', args, { PLANTS_LOCAL_DIR: localDir, ...env });
const tableNames = async () => (await dynamo.client.send(new ListTablesCommand({}))).TableNames;

describe('npm start -- --host 127.0.0.2, on a store that holds data', () => {
  it('listens on that address only, and gives it out as its origin', async () => {
    expect(server.origin).toBe(`http://127.0.0.2:${server.port}`);
    expect(await connects('127.0.0.2', server.port)).toBe(true);
    expect(await connects('127.0.0.1', server.port)).toBe(false);
    expect((await fetch(`${server.origin}/plants`)).status).toBe(401);
  });

  it('says in its banner that no demo data was added, since the demo users would see nothing', () => {
    expect(server.output()).toMatch(/^Note: No demo data: the table already held data .* answer \[\]/m);
  });

  it('says nothing about other machines: 127.0.0.2 is loopback too', () => {
    expect(server.output()).not.toMatch(/other machines can call the API/);
  });

  it('names the store behind the server as the endpoint it is, not the embedded one', async () => {
    const listed = await plants(['list', 'zoe']);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toContain(
      `Store: the local server on port ${server.port} (DynamoDB at ${dynamo.endpoint}), table plants`,
    );
    expect(listed.stdout).toContain('Fern');
  });

  it('reads the server on PORT, as npm start does, and says so when none runs there', async () => {
    expect((await plants(['list', 'zoe'], { PORT: String(server.port) })).stderr).toContain(
      `Store: the local server on port ${server.port}`,
    );
    const elsewhere = await plants(['list'], { PORT: '1' });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain(`No local server runs on port 1 (running: ${server.port})`);
  });

  it('refuses a misspelt --table on the server or an endpoint, naming the tables there, and creates none', async () => {
    const viaServer = await plants(['add', 'zoe', 'Ivy', '--table', 'plantz']);
    expect(viaServer).toMatchObject({ code: 1 });
    expect(viaServer.stderr).toContain(
      `Table plantz not found at the local server on port ${server.port}; tables there: plants`,
    );
    const viaEndpoint = await plants(['list', '--endpoint', dynamo.endpoint, '--table', 'plantz']);
    expect(viaEndpoint.stderr).toContain(`Table plantz not found at ${dynamo.endpoint}; tables there: plants`);
    expect(await tableNames()).toEqual(['plants']);
  });

  it('creates the table in an embedded store of its own, and says it did', async () => {
    const dataDir = tempDir('data');
    const added = await plants(['add', 'zoe', 'Ivy', '--data-dir', dataDir, '--table', 'garden']);
    expect(added.code).toBe(0);
    expect(added.stderr).toContain(`persisted in ${dataDir}, table garden (new: created now)`);
    const again = await plants(['list', '--data-dir', dataDir, '--table', 'garden']);
    expect(again.stderr).not.toContain('created now');
  });
});
