// What the benchmark's data looks like: callers and plants shaped as on AWS (a Cognito `sub` is a
// 36-character UUID; plant ids as the data CLI makes them), so read units, stored bytes and log
// records come out as DynamoDB and CloudWatch would bill them. No I/O, no flags: the bill's code
// and tests import it too.

import type { PlantItem } from '../../local/store/table.ts';

/** Shaped as Cognito's `sub` (a 36-character UUID), so every item's key and every record is as long as on AWS. */
export const CALLER = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
/** Another user's sub, as long as a real one: the n-th user of the read-cost table. */
export const otherUser = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/**
 * `count` plants of `owner`, shaped like real ones: an id as the data CLI makes them (handlers/lib/plant-item.ts:
 * 21 characters), a name, a tag on most. Deterministic, so every run reads the same bytes.
 */
export function plantsOf(owner: string, count: number): PlantItem[] {
  const created = Date.UTC(2026, 0, 1);
  return Array.from({ length: count }, (_, i) => ({
    owner,
    id: `${(created + i * 1000).toString(36).padStart(9, '0')}-0000-${((i * 2654435761) % 0xffffff).toString(16).padStart(6, '0')}`,
    name: `Monstera deliciosa #${i}`,
    ...(i % 4 !== 0 && { tag: i % 2 === 0 ? 'indoor' : 'outdoor' }),
  }));
}
