// Loads plants into dynalite with parallel BatchWriteItem calls (25 items each, the API maximum).

import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type PlantItem, storedItem } from '../../local/store/table.ts';
import { otherUser, settings, TABLE } from '../config.ts';
import { plantsOf } from './environment.ts';

/** Grows the table from `from` to `to` other users' plants; returns the items written per second. */
export async function seedOtherUsers(
  client: DynamoDBDocumentClient,
  from: number,
  to: number,
  onProgress?: (written: number) => void,
): Promise<number> {
  const perUser = settings.plantsPerOtherUser;
  const items: PlantItem[] = [];
  for (let user = from / perUser; user < to / perUser; user++) {
    items.push(...plantsOf(otherUser(user), perUser));
  }
  const started = performance.now();
  await writeAll(client, items, onProgress);
  return items.length / ((performance.now() - started) / 1000);
}

export async function writeAll(
  client: DynamoDBDocumentClient,
  items: PlantItem[],
  onProgress?: (written: number) => void,
): Promise<void> {
  const batches: PlantItem[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  const worker = async () => {
    for (let batch = batches.pop(); batch; batch = batches.pop()) {
      await writeBatch(client, batch);
      onProgress?.(batch.length);
    }
  };
  await Promise.all(Array.from({ length: settings.writeConcurrency }, worker));
}

async function writeBatch(client: DynamoDBDocumentClient, items: PlantItem[]): Promise<void> {
  let requests = items.map((item) => ({ PutRequest: { Item: storedItem(item) } }));
  while (requests.length > 0) {
    const result = await client.send(new BatchWriteCommand({ RequestItems: { [TABLE]: requests } }));
    requests = (result.UnprocessedItems?.[TABLE] ?? []) as typeof requests;
  }
}
