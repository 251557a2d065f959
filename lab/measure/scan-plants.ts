// The contrast for read cost: the same read done as a Scan with a filter, the way the design
// forbids. DynamoDB bills a Scan for every item it reads, before the filter drops it.

import { type DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { userPartition } from '../../handlers/lib/partitions.ts';
import { OWNER_CONDITION, ownerRead } from '../../handlers/lib/plant-query.ts';

export interface ScanRead {
  plants: number;
  capacityUnits: number;
  pages: number;
}

/** Scans until `limit + 1` of the owner's plants are found or the table ends, as a page read must. */
export async function scanPlantsForOwner(
  client: DynamoDBDocumentClient,
  tableName: string,
  owner: string,
  limit: number,
): Promise<ScanRead> {
  const read: ScanRead = { plants: 0, capacityUnits: 0, pages: 0 };
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: OWNER_CONDITION,
        ...ownerRead(userPartition(owner)),
        ExclusiveStartKey: startKey,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    read.pages++;
    read.plants += page.Items?.length ?? 0;
    read.capacityUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey && read.plants <= limit);
  return read;
}
