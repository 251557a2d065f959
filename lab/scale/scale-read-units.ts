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
