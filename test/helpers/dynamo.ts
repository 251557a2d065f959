// A real DynamoDB-compatible server (dynalite) in this process, with the plants table.

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { batchWrite, putRequest } from '../../local/store/batch-write.ts';
import { startDynalite } from '../../local/store/store.ts';
import { createPlantsTable, type PlantItem, storedItem } from '../../local/store/table.ts';
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
  const { endpoint, close } = await startDynalite(undefined);
  return connectDynamo(endpoint, tableName, close);
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
