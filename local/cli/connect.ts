// Which store the data CLI works on: the one its flags name, else the running local server's.

import { resolve } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { connectToDeployed } from '../../deployed/table.ts';
import { localDirOf, parsePort, type StoreFlags, storeOptionsOf } from '../server/options.ts';
import { findServer, runningServers, type ServerRecord } from '../server/servers.ts';
import { openStore, TableNotFoundError } from '../store/store.ts';
import { type Flags, UsageError } from './args.ts';

export interface Target {
  client: DynamoDBDocumentClient;
  tableName: string;
  description: string;
  close(): Promise<void>;
  /** The `sub` a user named on the command line or in a file stands for: a deployed pool's lookup, else the name. */
  ownerSub(user: string): Promise<string>;
}

export type TargetFlags = StoreFlags & Flags<'port' | 'outputs-file' | 'env', 'deployed'>;

/**
 * A store named on the command line wins over a running server, which must not quietly get the writes;
 * two are refused. A data folder a running server has open is reached through that server.
 */
export async function connect(flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<Target> {
  const named = [
    flags.deployed && '--deployed',
    flags.endpoint && `--endpoint ${flags.endpoint}`,
    flags['data-dir'] && `--data-dir ${flags['data-dir']}`,
    flags.port && `--port ${flags.port}`,
  ].filter((flag): flag is string => Boolean(flag));
  if (named.length > 1) throw new UsageError(`Name one store, not ${named.length}: ${named.join(' and ')}`);
  for (const flag of ['outputs-file', 'env'] as const) {
    if (flags[flag] !== undefined && !flags.deployed) throw new UsageError(`--${flag} goes with --deployed`);
  }
  if (flags.deployed) {
    if (flags.table || flags.region)
      throw new UsageError('--deployed takes the table and region from the outputs file');
    return connectToDeployed(flags['outputs-file'], flags.env);
  }
  const options = storeOptionsOf(flags, env);
  const localDir = localDirOf(env);
  const viaServer = (server: ServerRecord) => throughServer(server, flags.table);
  if (flags.port) return viaServer(findServer(localDir, parsePort(flags.port, '--port')) as ServerRecord);
  // Flags before the environment (DYNAMODB_ENDPOINT, PLANTS_DATA_DIR, PORT), each before a server.
  // Only the embedded store gets a missing table created: elsewhere a misspelt --table is an error.
  const endpoint = flags.endpoint || (!flags['data-dir'] && options.endpoint);
  if (endpoint) return fromStore(await openStore({ ...options, endpoint, dataDir: undefined }, 'embedded'));
  if (options.dataDir) {
    const dataDir = resolve(options.dataDir);
    const holder = runningServers(localDir).find((server) => server.dataDir === dataDir);
    if (holder) return viaServer(holder);
    return fromStore(await openStore({ ...options, endpoint: undefined, dataDir }, 'embedded'));
  }
  // PORT as `npm start` reads it, so `PORT=4000 npm run plants -- list` reads the server on 4000
  // (0, "any free port", names no server).
  if (env.PORT && env.PORT !== '0') return viaServer(findServer(localDir, parsePort(env.PORT)) as ServerRecord);
  const server = findServer(localDir);
  if (server) return viaServer(server);
  throw new Error(
    'No local server is running. Start one (npm start), or name a store: --data-dir DIR, --endpoint URL (or DYNAMODB_ENDPOINT), or --deployed',
  );
}

/** `table`: --table, else the server's own table. */
async function throughServer(server: ServerRecord, table: string | undefined): Promise<Target> {
  const name = `the local server on port ${server.port}`;
  const store = await openStore({ ...server.store, tableName: table || server.store.tableName }, 'embedded').catch(
    (error: unknown) => {
      // Its store's endpoint is an address of the server's own: name the server instead.
      throw error instanceof TableNotFoundError ? new TableNotFoundError(error.tableName, name, error.tables) : error;
    },
  );
  return { ...fromStore(store), description: `${name} (${storeOf(server)}), table ${store.tableName}` };
}

/** What the server's record says of its store (records of older servers lack `embedded`). */
function storeOf(server: ServerRecord): string {
  if (server.dataDir) return `data folder ${server.dataDir}`;
  return server.embedded === false ? `DynamoDB at ${server.store.endpoint}` : 'in memory';
}

function fromStore(store: Awaited<ReturnType<typeof openStore>>): Target {
  return {
    client: store.client,
    tableName: store.tableName,
    // A new table there is most likely a misspelt --table: said, since nothing else would show it.
    description: `${store.describe()}, table ${store.tableName}${store.createdTable ? ' (new: created now)' : ''}`,
    close: store.close,
    ownerSub: async (user) => user,
  };
}
