// A real DynamoDB-compatible server (dynalite) in this process, with the plants table.

import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import dynalite from 'dynalite';

export interface PlantItem {
  owner: string;
  id: string;
  name: string;
  tag?: string;
  [attribute: string]: unknown;
}

export interface LocalDynamo {
  endpoint: string;
  client: DynamoDBDocumentClient;
  close(): Promise<void>;
}

export const TEST_REGION = 'eu-west-1';

/** dynalite in this process, in memory. */
export async function startDynamo(tableName: string): Promise<LocalDynamo> {
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
  await raw.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: 'owner', AttributeType: 'S' },
        { AttributeName: 'id', AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: 'owner', KeyType: 'HASH' },
        { AttributeName: 'id', KeyType: 'RANGE' },
      ],
    }),
  );
  return {
    endpoint,
    client: DynamoDBDocumentClient.from(raw),
    close: async () => {
      raw.destroy();
      await stop();
    },
  };
}

export async function putPlants(client: DynamoDBDocumentClient, tableName: string, items: PlantItem[]) {
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    await client.send(new BatchWriteCommand({ RequestItems: { [tableName]: batch } }));
  }
}
