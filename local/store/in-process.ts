// A real DynamoDB-compatible server (dynalite) in this process, with the plants table.

import type { AddressInfo } from 'node:net';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';
import { batchWrite, putRequest } from './batch-write.ts';
import { closeDynaliteIterators } from './dynalite-iterators.ts';
import { createPlantsTable, type PlantItem, storedItem } from './table.ts';
import { orUndo } from './undo.ts';

export type { PlantItem };

export interface LocalDynamo {
  endpoint: string;
  client: DynamoDBDocumentClient;
  close(): Promise<void>;
}

export const TEST_REGION = 'eu-west-1';

/** dynalite in this process, in memory. */
export async function startDynamo(tableName: string): Promise<LocalDynamo> {
  closeDynaliteIterators();
  const server = dynalite({ createTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return connectDynamo(endpoint, tableName, () => new Promise<void>((resolve) => server.close(() => resolve())));
}

/** Creates the plants table on a DynamoDB-compatible endpoint and returns a client for it. */
export async function connectDynamo(
  endpoint: string,
  tableName: string,
  stop: () => Promise<void>,
): Promise<LocalDynamo> {
  const raw = new DynamoDBClient({
    endpoint,
    region: TEST_REGION,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await orUndo(createPlantsTable(raw, tableName), () => raw.destroy(), stop);
  return {
    endpoint,
    client: DynamoDBDocumentClient.from(raw),
    close: async () => {
      raw.destroy();
      await stop();
    },
  };
}

/** Writes plants named by their owner's `sub` into that owner's partition. */
export const putPlants = (client: DynamoDBDocumentClient, tableName: string, items: PlantItem[]) =>
  batchWrite(
    client,
    tableName,
    items.map((item) => putRequest(storedItem(item))),
  );
