// Which store the data CLI works on: the one its flags name, else the running local server's.

import { resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { connectToDeployed } from '../deployed/table.ts';
import { localDirOf, parsePort, type StoreFlags, storeOptionsOf } from '../options.ts';
import { findServer, runningServers, type ServerRecord } from '../servers.ts';
import { openStore } from '../store.ts';
import { tableExists } from '../table.ts';
import { UsageError } from './args.ts';

export interface Target {
  client: DynamoDBDocumentClient;
  tableName: string;
  description: string;
  close(): Promise<void>;
  /** The `sub` a user named on the command line or in a file stands for: a deployed pool's lookup, else the name. */
  ownerSub(user: string): Promise<string>;
}

export type TargetFlags = StoreFlags & {
  aws?: boolean | undefined;
  port?: string | undefined;
  deployed?: boolean | undefined;
  'outputs-file'?: string | undefined;
};

/**
 * A store named on the command line wins over a running server: the user said which one, and a
 * server on another store must not quietly receive the writes. Two named stores are refused.
 * A data folder that a running server has open is reached through that server.
 */
export async function connect(flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<Target> {
  const named = [
    flags.deployed && '--deployed',
    flags.aws && '--aws',
    flags.endpoint && `--endpoint ${flags.endpoint}`,
    flags['data-dir'] && `--data-dir ${flags['data-dir']}`,
    flags.port && `--port ${flags.port}`,
  ].filter((flag): flag is string => Boolean(flag));
  if (named.length > 1) throw new UsageError(`Name one store, not ${named.length}: ${named.join(' and ')}`);
  if (flags['outputs-file'] !== undefined && !flags.deployed)
    throw new UsageError('--outputs-file goes with --deployed');
  if (flags.deployed) {
    if (flags.table || flags.region)
      throw new UsageError('--deployed takes the table and region from the outputs file');
    return connectToDeployed(flags['outputs-file']);
  }
  const options = storeOptionsOf(flags, env);
  const localDir = localDirOf(env);
  if (flags.aws) return connectToAws(options.region, options.tableName);
  if (flags.port) return throughServer(findServer(localDir, parsePort(flags.port, '--port')) as ServerRecord);
  // Flags before the environment (DYNAMODB_ENDPOINT, PLANTS_DATA_DIR), each before a server.
  const endpoint = flags.endpoint || (!flags['data-dir'] && options.endpoint);
  if (endpoint) return fromStore(await openStore({ ...options, endpoint, dataDir: undefined }));
  if (options.dataDir) {
    const dataDir = resolve(options.dataDir);
    const holder = runningServers(localDir).find((server) => server.dataDir === dataDir);
    return holder ? throughServer(holder) : fromStore(await openStore({ ...options, endpoint: undefined, dataDir }));
  }
  const server = findServer(localDir);
  if (server) return throughServer(server);
  throw new Error(
    'No local server is running. Start one (npm start), or name a store: --data-dir DIR, --endpoint URL (or DYNAMODB_ENDPOINT), or --aws --table NAME',
  );
}

async function throughServer(server: ServerRecord): Promise<Target> {
  const store = await openStore({ ...server.store, dataDir: undefined });
  const where = server.dataDir ? `data folder ${server.dataDir}` : 'in memory';
  return {
    ...fromStore(store),
    description: `the local server on port ${server.port} (${where}), table ${store.tableName}`,
  };
}

function fromStore(store: Awaited<ReturnType<typeof openStore>>): Target {
  return {
    client: store.client,
    tableName: store.tableName,
    description: `${store.describe()}, table ${store.tableName}`,
    close: store.close,
    ownerSub: async (user) => user,
  };
}

/** A real table in the account of the SDK's default credentials; never created from here. */
async function connectToAws(region: string, tableName: string): Promise<Target> {
  const raw = new DynamoDBClient({ region });
  if (!(await tableExists(raw, tableName))) {
    raw.destroy();
    throw new Error(`Table ${tableName} does not exist in ${region}: deploy the stack first, or pass --table NAME`);
  }
  return {
    client: DynamoDBDocumentClient.from(raw),
    tableName,
    description: `AWS DynamoDB table ${tableName} in ${region}`,
    close: async () => raw.destroy(),
    ownerSub: async (user) => user,
  };
}
