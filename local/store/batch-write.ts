// BatchWriteItem in chunks of 25, retrying the items DynamoDB hands back as unprocessed.

import { setTimeout } from 'node:timers/promises';
import { BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** DynamoDB's maximum number of requests in one BatchWriteItem call. */
export const BATCH_SIZE = 25;

export type WriteRequest =
  | { PutRequest: { Item: Record<string, unknown> } }
  | { DeleteRequest: { Key: Record<string, unknown> } };

export class UnprocessedItemsError extends Error {
  override name = 'UnprocessedItemsError';
  readonly written: number;
  readonly remaining: number;
  constructor(written: number, remaining: number, attempts: number) {
    super(`${remaining} item(s) were still unprocessed after ${attempts} attempts (${written} written)`);
    this.written = written;
    this.remaining = remaining;
  }
}

/**
 * Writes every request, resending DynamoDB's UnprocessedItems up to `maxAttempts` per chunk, with backoff
 * from `baseDelayMs` doubling per attempt, full jitter (AWS SDK guidance); `onProgress` after each chunk.
 */
export async function batchWrite(
  client: DynamoDBDocumentClient,
  tableName: string,
  requests: readonly WriteRequest[],
  {
    onProgress,
    maxAttempts = 8,
    baseDelayMs = 50,
  }: { onProgress?: (done: number) => void; maxAttempts?: number; baseDelayMs?: number } = {},
): Promise<void> {
  let done = 0;
  for (let start = 0; start < requests.length; start += BATCH_SIZE) {
    let pending = requests.slice(start, start + BATCH_SIZE);
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > maxAttempts) throw new UnprocessedItemsError(done, requests.length - done, maxAttempts);
      if (attempt > 1) await setTimeout(Math.random() * baseDelayMs * 2 ** (attempt - 2));
      const { UnprocessedItems } = await client.send(
        new BatchWriteCommand({ RequestItems: { [tableName]: pending as WriteRequest[] } }),
      );
      const unprocessed = (UnprocessedItems?.[tableName] ?? []) as WriteRequest[];
      done += pending.length - unprocessed.length;
      pending = unprocessed;
    }
    onProgress?.(done);
  }
}

export const putRequest = (Item: Record<string, unknown>): WriteRequest => ({ PutRequest: { Item } });
export const deleteRequest = (Key: Record<string, unknown>): WriteRequest => ({ DeleteRequest: { Key } });
