// The local server's DynamoDB: dynalite in this process, or an external endpoint, with the table in place.

import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { Level } from 'level';
import { closeDynaliteIterators } from './dynalite-iterators.ts';
import { createPlantsTable, tableExists, tablesThere } from './table.ts';

export interface StoreOptions {
  /** External DynamoDB endpoint; when absent dynalite runs in this process. */
  endpoint?: string | undefined;
  /** Folder for dynalite's LevelDB files; when absent the embedded store lives in memory. */
  dataDir?: string | undefined;
  region: string;
  tableName: string;
}

export type Store = Awaited<ReturnType<typeof openStore>>;

/**
 * `createIn`: which stores may get a missing table created: `embedded`, the data CLI's own dynalite only (a
 * misspelt --table elsewhere is an error), or `emulator`, also moto and the like; never a real AWS endpoint.
 */
export async function openStore(options: StoreOptions, createIn: 'embedded' | 'emulator' = 'emulator') {
  const embedded = options.endpoint ? undefined : await startDynalite(options.dataDir);
  const endpoint = options.endpoint ?? embedded?.endpoint ?? '';
  const raw = new DynamoDBClient({
    endpoint,
    region: options.region,
    ...(credentialsFor(endpoint) && { credentials: credentialsFor(endpoint) }),
  });
  try {
    const createdTable = await ensureTable(
      raw,
      endpoint,
      options.tableName,
      Boolean(embedded) || createIn === 'emulator',
    );
    return {
      endpoint,
      region: options.region,
      tableName: options.tableName,
      // This start created the table (a first start): the time to add demo data.
      createdTable,
      embedded: Boolean(embedded),
      client: DynamoDBDocumentClient.from(raw),
      describe: (): string =>
        embedded
          ? `embedded DynamoDB (dynalite) ${options.dataDir ? `persisted in ${options.dataDir}` : 'in memory: data is lost on exit (--data-dir DIR keeps it)'}`
          : `${endpoint} (region ${options.region})`,
      close: async (): Promise<void> => {
        raw.destroy();
        await embedded?.close();
      },
    };
  } catch (error) {
    raw.destroy();
    await embedded?.close();
    throw error;
  }
}

/** Emulators accept any key; a real AWS endpoint keeps the SDK's own credential chain. */
export function credentialsFor(endpoint: string) {
  const local = /^https?:\/\/(localhost|127\.[\d.]+|\[::1\])(:\d+)?(\/|$)/.test(endpoint);
  return local && !process.env.AWS_ACCESS_KEY_ID ? { accessKeyId: 'local', secretAccessKey: 'local' } : undefined;
}

async function ensureTable(client: DynamoDBClient, endpoint: string, tableName: string, create: boolean) {
  if (await tableExists(client, tableName)) return false;
  // Creating tables in a real account is the stack's job, not a side effect of a local tool.
  if (!create || /\.amazonaws\.com(\.cn)?(\/|$)/.test(endpoint)) {
    throw new TableNotFoundError(tableName, endpoint, await tablesThere(client));
  }
  return createPlantsTable(client, tableName);
}

/** The table is missing where it may not be created; `tables` names those that are there. */
export class TableNotFoundError extends Error {
  override name = 'TableNotFoundError';
  readonly tableName: string;
  readonly tables: string;
  constructor(tableName: string, where: string, tables: string) {
    super(`Table ${tableName} not found at ${where}; ${tables}`);
    this.tableName = tableName;
    this.tables = tables;
  }
}

/** Another process (a local server, a data CLI run) has the data folder open. */
export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
  constructor(dataDir: string) {
    super(
      `The data folder ${dataDir} is in use by another process (a local server, or another npm run plants): stop it, or work through the server that has it open`,
    );
  }
}

/** dynalite in this process on `host`, in memory or persisted to `dataDir`. */
export async function startDynalite(dataDir: string | undefined, host = '127.0.0.1') {
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    await assertNotLocked(dataDir);
  }
  closeDynaliteIterators();
  const server: Server = dynalite({ createTableMs: 0, ...(dataDir && { path: dataDir }) });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://${host}:${port}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// dynalite opens its LevelDB lazily and reports a held lock as unhandled stream errors ("Database
// is closed"), so the lock is tried here first, with the same LevelDB binding, and released.
async function assertNotLocked(dataDir: string): Promise<void> {
  const db = new Level(dataDir);
  try {
    await db.open();
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === 'LEVEL_LOCKED') throw new DataDirInUseError(dataDir);
    throw error;
  } finally {
    await db.close();
  }
}
