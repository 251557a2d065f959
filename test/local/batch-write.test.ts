// Batch writes: chunks of 25 into dynalite, and the retry of UnprocessedItems.

import { BatchWriteCommand, type DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  BATCH_SIZE,
  batchWrite,
  deleteRequest,
  putRequest,
  UnprocessedItemsError,
} from '../../local/store/batch-write.ts';
import { type LocalDynamo, startDynamo } from '../helpers/dynamo.ts';

const TABLE = 'plants-batch';
let dynamo: LocalDynamo;
beforeAll(async () => {
  dynamo = await startDynamo(TABLE);
});
afterAll(() => dynamo?.close());

const plants = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    owner: 'olga',
    id: `p${String(i).padStart(3, '0')}`,
    name: `Plant ${i}`,
  }));

const countOlga = async () =>
  (
    await dynamo.client.send(
      new QueryCommand({
        TableName: TABLE,
        KeyConditionExpression: '#o = :o',
        ExpressionAttributeNames: { '#o': 'owner' },
        ExpressionAttributeValues: { ':o': 'olga' },
      }),
    )
  ).Count;

describe('batchWrite', () => {
  it('writes in chunks of 25, reporting progress per chunk, and deletes the same way', async () => {
    const progress: number[] = [];
    await batchWrite(dynamo.client, TABLE, plants(60).map(putRequest), { onProgress: (done) => progress.push(done) });
    expect(progress).toEqual([25, 50, 60]);
    expect(await countOlga()).toBe(60);

    await batchWrite(
      dynamo.client,
      TABLE,
      plants(60).map(({ owner, id }) => deleteRequest({ owner, id })),
    );
    expect(await countOlga()).toBe(0);
  });

  // dynalite never throttles, so a client that hands back part of each batch stands in for
  // DynamoDB under load; the items it does accept are really written.
  function throttlingClient(acceptPerCall: number) {
    let calls = 0;
    const client = {
      send: async (command: { input: { RequestItems: Record<string, unknown[]> } }) => {
        calls++;
        const requests = command.input.RequestItems[TABLE] ?? [];
        const accepted = requests.slice(0, acceptPerCall);
        if (accepted.length > 0) {
          await dynamo.client.send(new BatchWriteCommand({ RequestItems: { [TABLE]: accepted as never } }));
        }
        const rest = requests.slice(acceptPerCall);
        return { UnprocessedItems: rest.length > 0 ? { [TABLE]: rest } : {} };
      },
    };
    return { client: client as unknown as DynamoDBDocumentClient, calls: () => calls };
  }

  it('resends unprocessed items until every one is written', async () => {
    const { client, calls } = throttlingClient(10);
    await batchWrite(client, TABLE, plants(BATCH_SIZE + 5).map(putRequest), { baseDelayMs: 1 });
    expect(await countOlga()).toBe(30);
    expect(calls()).toBe(3 + 1); // 25 = 10 + 10 + 5, then 5
  });

  it('gives up after maxAttempts, saying how many items were written and how many were not', async () => {
    const { client } = throttlingClient(0);
    const failure = batchWrite(client, TABLE, plants(3).map(putRequest), { maxAttempts: 3, baseDelayMs: 1 });
    await expect(failure).rejects.toThrow(UnprocessedItemsError);
    await expect(failure).rejects.toThrow('3 item(s) were still unprocessed after 3 attempts (0 written)');
  });
});
