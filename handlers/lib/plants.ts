// DynamoDB access for plants: one table, partition key `owner` (see partitions.ts), sort key `id`.

import { ServiceUnavailableError } from './errors.ts';
import type { GroupCache, PartitionRead } from './group-cache.ts';
import { type SerializedPlant, serializePlant } from './page-budget.ts';
import { isGroupPartition } from './partitions.ts';
import { OWNER_CONDITION, ownerRead } from './plant-query.ts';

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

/** The one DynamoDB call this module makes: a Query of one partition, in document form (plain values). */
export interface PlantsQuery {
  TableName: string;
  KeyConditionExpression: string;
  ProjectionExpression?: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, string>;
  Limit: number;
  ExclusiveStartKey?: Record<string, string>;
}

/**
 * What reads the table: dynamodb-client.ts (the SDK's document client); the lab measures other
 * clients behind it. A failure worth retrying later (throttling, a 5xx, no answer or a broken one) is
 * thrown as a ServiceUnavailableError, anything else as it came.
 */
export interface PlantsClient {
  query(input: PlantsQuery, options?: { abortSignal?: AbortSignal }): Promise<PartitionRead>;
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
  /** All of the page's DynamoDB work ends within this (DYNAMODB_DEADLINE_MS): see readPlantsPage. */
  deadlineMs: number;
  /** Where group partitions' reads are kept for a few seconds; none: every read is a Query. */
  groupCache?: GroupCache | undefined;
}

/**
 * Reads the next page: up to `limit` plants and `byteBudget` bytes (or one plant larger than that),
 * partition after partition in id order. Query only, never Scan: the cost follows the page, not the
 * table. One item beyond the limit is read so a walk that ends within the read cap never links to an
 * empty page (a page cut by MAX_QUERIES_PER_PAGE may be short, even empty, and still link on). Every
 * item read is either returned or ends the page, so the next position is always just after the last
 * plant returned. When DynamoDB stops answering (retries spent, or `deadlineMs` passed), a page that
 * has had an answer ends there, short, with a next link from where it stopped; one that has had none
 * is a 503 (ServiceUnavailableError).
 */
export async function readPlantsPage(
  client: PlantsClient,
  tableName: string,
  request: PageRequest,
): Promise<PlantPage> {
  const deadline = AbortSignal.timeout(request.deadlineMs);
  const page: Progress = { plants: [], next: request.from, answers: 0 };
  try {
    await readPages(client, tableName, request, page, deadline);
    return { plants: page.plants, next: page.next };
  } catch (error) {
    if (!deadline.aborted && !(error instanceof ServiceUnavailableError)) throw error;
    // DynamoDB stopped answering, or the deadline passed: what was read still makes a page.
    if (page.answers > 0) return { plants: page.plants, next: page.next };
    if (!deadline.aborted) throw error;
    const cause = new Error(`DynamoDB's deadline (${request.deadlineMs} ms) passed`, { cause: error });
    throw new ServiceUnavailableError(Object.assign(cause, { name: 'DeadlineExceeded' }));
  }
}

/** A page as it is read: its plants, where the next page would start, and how many reads answered. */
interface Progress {
  plants: SerializedPlant[];
  next: Position | undefined;
  answers: number;
}

async function readPages(
  client: PlantsClient,
  tableName: string,
  { partitions, from, limit, byteBudget, groupCache }: PageRequest,
  page: Progress,
  abortSignal: AbortSignal,
): Promise<void> {
  const { plants } = page;
  let bytes = 0;
  for (let index = from.partition; index < partitions.length; index++) {
    const owner = partitions[index] ?? '';
    let afterId = index === from.partition ? from.afterId : undefined;
    page.next = { partition: index, afterId };
    // A user's own partition is read by that user alone (and must show their own writes at once):
    // only groups' partitions, read by every member, go through the cache.
    const cache = isGroupPartition(owner) ? groupCache : undefined;
    let read: PartitionRead;
    do {
      if (page.answers === MAX_QUERIES_PER_PAGE) return;
      const query = (wanted: number) => queryPartition(client, tableName, owner, afterId, wanted, abortSignal);
      // Uncached, a read costs what this page still needs. Through the cache it reads what any page
      // from this position may need (a whole page): members with different numbers of own plants
      // then share one entry, and the partition sees one Query per container per time to live, not
      // one each time a member needs a few more items than the entry holds.
      read = await (cache ? cache.read(owner, afterId, limit + 1, query) : query(limit + 1 - plants.length));
      page.answers++;
      for (const item of read.Items ?? []) {
        const plant = serializePlant(toPlant(item));
        // A plant larger than the whole budget still ends a page alone rather than none: no walk stalls.
        if (plants.length === limit || (plants.length > 0 && bytes + plant.bytes > byteBudget)) return;
        plants.push(plant);
        bytes += plant.bytes;
        afterId = String(item.id);
        page.next = { partition: index, afterId };
      }
    } while (read.LastEvaluatedKey !== undefined);
  }
  page.next = undefined;
}

function queryPartition(
  client: PlantsClient,
  tableName: string,
  owner: string,
  afterId: string | undefined,
  limit: number,
  abortSignal: AbortSignal,
) {
  const query = {
    TableName: tableName,
    KeyConditionExpression: OWNER_CONDITION,
    ...ownerRead(owner),
    Limit: limit,
    ...(afterId !== undefined && { ExclusiveStartKey: { owner, id: afterId } }),
  };
  return client.query(query, { abortSignal });
}

/** Only `name` and `tag` ever leave the table. */
function toPlant(item: Record<string, unknown>): Plant {
  const plant: Plant = { name: String(item.name ?? '') };
  if (typeof item.tag === 'string') plant.tag = item.tag;
  return plant;
}
