// DynamoDB access for plants: one table, partition key `owner` (see partitions.ts), sort key `id`.

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailableError } from './errors.ts';
import { userPartition } from './partitions.ts';

export interface Plant {
  name: string;
  tag?: string;
}

export interface PlantPage {
  plants: Plant[];
  /** Id of the last plant returned, when more plants remain after it. */
  lastId: string | undefined;
}

// Bounded retries and timeouts keep the worst case (3 attempts of 0.5 s connect + 1 s response,
// plus backoff) far inside the function timeout, so an outage answers 503 rather than timing out.
export function createPlantsClient(endpoint: string | undefined): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    maxAttempts: 3,
    // Without throwOnRequestTimeout the SDK only logs a warning and keeps waiting.
    requestHandler: { connectionTimeout: 500, requestTimeout: 1000, throwOnRequestTimeout: true },
    ...(endpoint && { endpoint }),
  });
  return DynamoDBDocumentClient.from(client);
}

/**
 * Reads up to `limit` of the owner's plants in id order, after `afterId` when given. Query only,
 * never Scan: the cost follows the page, not the table. One extra item is read to learn whether
 * another page exists, so the last page never links to an empty one.
 */
export async function listPlantsForOwner(
  client: DynamoDBDocumentClient,
  tableName: string,
  owner: string,
  limit: number,
  afterId: string | undefined,
): Promise<PlantPage> {
  const partition = userPartition(owner);
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined =
    afterId === undefined ? undefined : { owner: partition, id: afterId };
  do {
    const page = await query(client, {
      TableName: tableName,
      KeyConditionExpression: '#owner = :owner',
      ProjectionExpression: '#id, #name, #tag',
      ExpressionAttributeNames: { '#owner': 'owner', '#id': 'id', '#name': 'name', '#tag': 'tag' },
      ExpressionAttributeValues: { ':owner': partition },
      Limit: limit + 1 - items.length,
      ExclusiveStartKey: startKey,
    });
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length <= limit);

  const pageItems = items.slice(0, limit);
  const more = items.length > limit;
  return {
    plants: pageItems.map(toPlant),
    lastId: more ? String(pageItems.at(-1)?.id) : undefined,
  };
}

/** Only `name` and `tag` ever leave the table. */
function toPlant(item: Record<string, unknown>): Plant {
  const plant: Plant = { name: String(item.name ?? '') };
  if (typeof item.tag === 'string') plant.tag = item.tag;
  return plant;
}

async function query(client: DynamoDBDocumentClient, input: QueryCommand['input']) {
  try {
    return await client.send(new QueryCommand(input));
  } catch (error) {
    throw isUnavailable(error) ? new ServiceUnavailableError(error) : error;
  }
}

const THROTTLING = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

/** Throttling, a 5xx from DynamoDB, or no answer at all (network, timeout): worth a retry later. */
function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  return THROTTLING.has(error.name) || status === undefined || status >= 500;
}
