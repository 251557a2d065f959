// DynamoDB access for plants: one table, partition key `owner` (see partitions.ts), sort key `id`.

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ServiceUnavailableError } from './errors.ts';
import type { GroupCache } from './group-cache.ts';
import { type SerializedPlant, serializePlant } from './page-budget.ts';
import { isGroupPartition } from './partitions.ts';

export interface Plant {
  name: string;
  tag?: string;
}

/** Where a walk resumes: the first partition to read (an index into the caller's partitions), after `afterId` in it. */
export interface Position {
  partition: number;
  afterId: string | undefined;
}

export interface PlantPage {
  plants: SerializedPlant[];
  /** Where the next page starts, when more plants may remain. */
  next: Position | undefined;
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
 * Every DynamoDB call a page may make: a page that reaches it ends short, with a next link. It bounds
 * one request's cost (10 round trips, at most 10 MB read) whatever the item sizes or the number of
 * partitions; a full 6 MB page of plants at the largest sizes takes about 7 reads of 1 MB.
 */
export const MAX_QUERIES_PER_PAGE = 10;

export interface PageRequest {
  /** The partitions the caller may read, in listing order. */
  partitions: readonly string[];
  from: Position;
  limit: number;
  byteBudget: number;
  /** Where group partitions' reads are kept for a few seconds; none: every read is a Query. */
  groupCache?: GroupCache | undefined;
}

/**
 * Reads the next page: up to `limit` plants and `byteBudget` bytes (or one plant larger than that), partition after partition in
 * id order. Query only, never Scan: the cost follows the page, not the table. One item beyond the
 * limit is read so a walk that ends within the read cap never links to an empty page (a page cut
 * by MAX_QUERIES_PER_PAGE may be short, even empty, and still link on). Every item read is either returned or
 * ends the page, so the next position is always just after the last plant returned.
 */
export async function readPlantsPage(
  client: DynamoDBDocumentClient,
  tableName: string,
  { partitions, from, limit, byteBudget, groupCache }: PageRequest,
): Promise<PlantPage> {
  const plants: SerializedPlant[] = [];
  let bytes = 0;
  let queries = 0;
  for (let index = from.partition; index < partitions.length; index++) {
    const owner = partitions[index] ?? '';
    let afterId = index === from.partition ? from.afterId : undefined;
    // A user's own partition is read by that user alone (and must show their own writes at once):
    // only groups' partitions, read by every member, go through the cache.
    const cache = isGroupPartition(owner) ? groupCache : undefined;
    let page: { Items?: Record<string, unknown>[] | undefined; LastEvaluatedKey?: unknown };
    do {
      if (queries === MAX_QUERIES_PER_PAGE) return { plants, next: { partition: index, afterId } };
      queries++;
      const read = (wanted: number) => queryPartition(client, tableName, owner, afterId, wanted);
      // Uncached, a read costs what this page still needs. Through the cache it reads what any page
      // from this position may need (a whole page): members with different numbers of own plants
      // then share one entry, and the partition sees one Query per container per time to live, not
      // one each time a member needs a few more items than the entry holds.
      page = await (cache ? cache.read(owner, afterId, limit + 1, read) : read(limit + 1 - plants.length));
      for (const item of page.Items ?? []) {
        const plant = serializePlant(toPlant(item));
        // A plant larger than the whole budget still ends a page alone rather than none: no walk stalls.
        if (plants.length === limit || (plants.length > 0 && bytes + plant.bytes > byteBudget)) {
          return { plants, next: { partition: index, afterId } };
        }
        plants.push(plant);
        bytes += plant.bytes;
        afterId = String(item.id);
      }
    } while (page.LastEvaluatedKey !== undefined);
  }
  return { plants, next: undefined };
}

function queryPartition(
  client: DynamoDBDocumentClient,
  tableName: string,
  owner: string,
  afterId: string | undefined,
  limit: number,
) {
  return query(client, {
    TableName: tableName,
    KeyConditionExpression: '#owner = :owner',
    ProjectionExpression: '#id, #name, #tag',
    ExpressionAttributeNames: { '#owner': 'owner', '#id': 'id', '#name': 'name', '#tag': 'tag' },
    ExpressionAttributeValues: { ':owner': owner },
    Limit: limit,
    ...(afterId !== undefined && { ExclusiveStartKey: { owner, id: afterId } }),
  });
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
