// Read units of a group read, computed as DynamoDB bills a Query (the items read, summed, rounded up
// to 4 KB once, half a unit per 4 KB eventually consistent), for the bench's plant shape: the model
// takes groups of any size from it, and bench:scale checks it against dynalite's ConsumedCapacity.

import { storedItem } from '../../local/store/table.ts';
import { plantsOf } from '../harness/shapes.ts';

/** The company-wide group of the scale model's population. */
export const COMPANY_GROUP = 'company-wide';
const KB4 = 4096;

/** An item's size as DynamoDB counts it for reads: UTF-8 attribute names plus string values. */
export function itemReadBytes(item: Record<string, unknown>): number {
  return Object.entries(item).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name) + Buffer.byteLength(String(value)),
    0,
  );
}

/** One eventually consistent Query that read `bytes` (a projection reads whole items all the same). */
export const queryReadUnits = (bytes: number): number => (bytes === 0 ? 0.5 : Math.ceil(bytes / KB4) * 0.5);

/** The group's plants as stored, in the order a Query reads them (by id). */
export function groupItems(plants: number, group = COMPANY_GROUP): Record<string, unknown>[] {
  return plantsOf('', plants).map(({ owner: _, ...plant }) => storedItem({ ...plant, group }));
}

/**
 * What the handler asks a group for on a first page of `limit` plants after `ownPlants` of the
 * caller's own (plants.ts): a whole page (`limit + 1`) through the cache, else what the page still
 * needs. A group smaller than that is read whole.
 */
export const groupReadItems = (groupPlants: number, limit: number, ownPlants: number, cached: boolean): number =>
  Math.min(groupPlants, cached ? limit + 1 : limit + 1 - ownPlants);

/** Read units of the first page's read of a group of `groupPlants`, computed. */
export function groupReadUnits(
  groupPlants: number,
  limit: number,
  ownPlants: number,
  cached: boolean,
  group = COMPANY_GROUP,
): number {
  const items = groupItems(groupReadItems(groupPlants, limit, ownPlants, cached), group);
  return queryReadUnits(items.reduce((sum, item) => sum + itemReadBytes(item), 0));
}

/** Cache keys a walk of every page uses in the group's partition: one per page that reads it. */
export const walkKeys = (groupPlants: number, limit: number, ownPlants: number): number =>
  Math.ceil((ownPlants + groupPlants) / limit) - Math.floor(ownPlants / limit);

/** Plants of a uniform stored size: the bench's shape (`'bench'`), or every item `itemBytes` as DynamoDB sizes it. */
export type ItemSize = 'bench' | number;

/** Read units of one group read of `items` items from `offset` (the bench's plants, or uniform ones). */
export function readUnitsAt(offset: number, items: number, size: ItemSize): number {
  if (size !== 'bench') return queryReadUnits(items * size);
  const sums = benchBytesBefore(offset + items);
  return queryReadUnits((sums[offset + items] ?? 0) - (sums[offset] ?? 0));
}

/** Bytes of the bench's first n plants as stored, for every n up to `count` (kept: walks read many keys). */
let benchSums: number[] = [0];
function benchBytesBefore(count: number): number[] {
  if (benchSums.length <= count) {
    const items = groupItems(Math.max(count, 2 * benchSums.length));
    benchSums = [0];
    for (const item of items) benchSums.push((benchSums.at(-1) ?? 0) + itemReadBytes(item));
  }
  return benchSums;
}

/** One cache key of a group's partition: where a read starts, the share of requests reading it, its read units. */
export interface KeyRead {
  offset: number;
  share: number;
  rru: number;
}

/**
 * The keys a walk of every page reads in a group's partition, with each key's share of the requests
 * and its own read units (a whole page, `limit + 1` items, from its offset): members owning `owns`
 * plants each, equally many members of each, every member walking every page. A member with `own`
 * plants starts page p of the group at p·limit − own, so members owning different numbers of plants
 * read different keys. Requests on pages holding only the member's own plants read no group.
 */
export function walkKeyReads(groupPlants: number, limit: number, owns: readonly number[], size: ItemSize): KeyRead[] {
  const requests = new Map<number, number>();
  let pages = 0;
  for (const own of owns) {
    const total = Math.ceil((own + groupPlants) / limit);
    pages += total;
    for (let page = 0; page < total; page++) {
      if ((page + 1) * limit <= own) continue;
      const offset = Math.max(0, page * limit - own);
      requests.set(offset, (requests.get(offset) ?? 0) + 1);
    }
  }
  return [...requests].map(([offset, count]) => ({
    offset,
    share: count / pages,
    rru: readUnitsAt(offset, Math.min(limit + 1, groupPlants - offset), size),
  }));
}
