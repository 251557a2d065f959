// Reads of group partitions kept for a few seconds per container, so that a popular group's members
// do not all reach its one DynamoDB partition key (3,000 read units a second at most): bounded by
// bytes (least recently used out first), every entry served only until its time to live ends.

import type { GroupCacheConfig } from './environment.ts';
import { SizedLru } from './sized-lru.ts';

/** A Query's answer as plants.ts reads it: the items (id, name, tag) and where DynamoDB stopped. */
export interface PartitionRead {
  Items?: Record<string, unknown>[] | undefined;
  LastEvaluatedKey?: Record<string, unknown> | undefined;
}

interface Entry {
  items: Record<string, unknown>[];
  /** DynamoDB stopped before the partition's end (at the Limit, or at 1 MB read). */
  more: boolean;
  /** The Limit the read asked for: it answers any read that wants as many items or fewer. */
  limit: number;
  expiresAt: number;
}

/** One entry may take this share of the cache at most, so one large page never flushes the rest. */
export const MAX_ENTRY_SHARE = 1 / 16;
// Heap estimates: a string costs 2 bytes a character; an item object and an entry their overheads.
const ITEM_OVERHEAD = 96;
const ENTRY_OVERHEAD = 256;

/**
 * Least recently used first (sized-lru.ts). An entry is keyed by the partition and the position the
 * read starts after, never by anything of the caller: only plants.ts reads through it, with a
 * partition the caller's verified token grants, so a key that reaches another partition cannot be
 * asked for. How many items a read wants is not in the key: a read of more items answers every read
 * of fewer from the same position.
 */
export class GroupCache {
  private readonly entries: SizedLru<Entry>;
  readonly ttlMs: number;
  readonly maxBytes: number;
  readonly maxEntryBytes: number;
  private readonly now: () => number;

  // The wall clock, as the token cache uses: whether a monotonic clock keeps counting while Lambda
  // freezes an environment between invocations is not documented, and a frozen one would let an
  // entry outlive its time to live by however long the environment slept.
  constructor({ ttlSeconds, maxBytes }: GroupCacheConfig, now: () => number = Date.now) {
    this.ttlMs = ttlSeconds * 1000;
    this.maxBytes = maxBytes;
    this.maxEntryBytes = Math.floor(maxBytes * MAX_ENTRY_SHARE);
    this.now = now;
    this.entries = new SizedLru(maxBytes);
  }

  /** The estimated bytes every entry takes together: never above `maxBytes`. */
  get bytes(): number {
    return this.entries.totalSize;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * `wanted` items of `partition` after `afterId`: from memory when a live entry answers them, else
   * from `query(wanted)`, whose answer is kept. The answer has the shape of a Query's.
   */
  async read(
    partition: string,
    afterId: string | undefined,
    wanted: number,
    query: (limit: number) => Promise<PartitionRead>,
  ): Promise<PartitionRead> {
    const key = JSON.stringify([partition, afterId ?? null]);
    const cached = this.entries.get(key, (entry) => this.now() < entry.expiresAt);
    // An entry that stopped short of `wanted` (or read nothing yet had more) cannot answer alone.
    if (cached && !(cached.more && (cached.limit < wanted || cached.items.length === 0))) {
      return answer(partition, cached, wanted);
    }
    const read = await query(wanted);
    const items = read.Items ?? [];
    const bytes = ENTRY_OVERHEAD + key.length * 2 + items.reduce((sum, item) => sum + itemBytes(item), 0);
    this.entries.delete(key);
    if (bytes <= this.maxEntryBytes) {
      const entry = { items, more: read.LastEvaluatedKey !== undefined, limit: wanted };
      this.entries.set(key, { ...entry, expiresAt: this.now() + this.ttlMs }, bytes);
    }
    return read;
  }
}

/** The first `wanted` items, with a LastEvaluatedKey after the last one when the partition goes on. */
function answer(partition: string, entry: Entry, wanted: number): PartitionRead {
  const items = entry.items.slice(0, wanted);
  const more = entry.more || entry.items.length > wanted;
  const last = items.at(-1);
  return { Items: items, LastEvaluatedKey: more && last ? { owner: partition, id: last.id } : undefined };
}

function itemBytes(item: Record<string, unknown>): number {
  let bytes = ITEM_OVERHEAD;
  for (const [name, value] of Object.entries(item)) bytes += 2 * (name.length + String(value).length);
  return bytes;
}

/** The cache the settings ask for, or undefined when they turn it off. */
export const createGroupCache = (settings: GroupCacheConfig): GroupCache | undefined =>
  settings.ttlSeconds > 0 && settings.maxBytes > 0 ? new GroupCache(settings) : undefined;
