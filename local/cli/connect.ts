// Which store the data CLI works on: a running local server's, a data folder, an endpoint, or AWS.

import { readFileSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { localDirOf, type StoreFlags, serverInfoFileOf, storeOptionsOf } from '../options.ts';
import { openStore } from '../store.ts';
import { tableExists } from '../table.ts';

export interface Target {
  client: DynamoDBDocumentClient;
  tableName: string;
  description: string;
  close(): Promise<void>;
}

export async function connect(
  flags: StoreFlags & { aws?: boolean | undefined },
  env: NodeJS.ProcessEnv,
): Promise<Target> {
  const options = storeOptionsOf(flags, env);
  if (flags.aws) return connectToAws(options.region, options.tableName);
  if (options.endpoint) return fromStore(await openStore(options));
  const server = runningServer(localDirOf(env));
  if (server) {
    const store = await openStore({ ...server.store, dataDir: undefined });
    return {
      ...fromStore(store),
      description: `the local server's store at ${server.origin} (table ${store.tableName})`,
    };
  }
  if (options.dataDir) return fromStore(await openStore(options));
  throw new Error(
    'No local server is running. Start one (npm start), or name a store: --data-dir DIR, --endpoint URL (or DYNAMODB_ENDPOINT), or --aws --table NAME',
  );
}

function fromStore(store: Awaited<ReturnType<typeof openStore>>): Target {
  return {
    client: store.client,
    tableName: store.tableName,
    description: `${store.describe()}, table ${store.tableName}`,
    close: store.close,
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
  };
}

interface ServerInfo {
  pid: number;
  origin: string;
  store: { endpoint: string; region: string; tableName: string };
}

/** The server that wrote server.json, if that process still runs (a killed server leaves the file). */
function runningServer(localDir: string): ServerInfo | undefined {
  let info: ServerInfo;
  try {
    info = JSON.parse(readFileSync(serverInfoFileOf(localDir), 'utf8'));
    process.kill(info.pid, 0);
  } catch {
    return undefined;
  }
  return info;
}
