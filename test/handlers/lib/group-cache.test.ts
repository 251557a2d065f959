// The group cache on its own: bytes bounded whatever the groups and pages, entries served only
// within their time to live, a larger read answering a smaller one, and off at 0.

import { describe, expect, it } from '@jest/globals';
import { createGroupCache, GroupCache, type PartitionRead } from '../../../handlers/lib/group-cache.ts';

const items = (partition: string, count: number, nameLength = 20) =>
  Array.from({ length: count }, (_, i) => ({
    id: `p${String(i).padStart(4, '0')}`,
    name: partition.padEnd(nameLength, '.'),
  }));

/** A clock that stands still: where the time to live is not what is tested, no entry ages out. */
const STILL = () => 0;

/** A stand-in for DynamoDB's Query of `partition` (a fixed list of items): what plants.ts passes in. */
function partitionOf(all: Record<string, unknown>[]) {
  let calls = 0;
  const query = async (limit: number): Promise<PartitionRead> => {
    calls++;
    const read = all.slice(0, limit);
    return { Items: read, LastEvaluatedKey: all.length > limit ? { id: read.at(-1)?.id } : undefined };
  };
  return { query, calls: () => calls };
}

describe('GroupCache', () => {
  it('stays within its byte bound over 10,000 groups of 3 pages each, evicting the least recently used', async () => {
    const maxBytes = 1_000_000;
    const cache = new GroupCache({ ttlSeconds: 60, maxBytes }, STILL);
    let largest = 0;
    for (let g = 0; g < 10_000; g++) {
      const group = `group#g${g}`;
      // Pages of 1 to 40 plants, names up to 200 characters: entries of very different sizes.
      const plants = items(group, 1 + (g % 40), 20 + (g % 180));
      for (const afterId of [undefined, 'p0000', 'p0001']) {
        await cache.read(group, afterId, 50, partitionOf(plants).query);
        largest = Math.max(largest, cache.bytes);
      }
    }
    expect(largest).toBeLessThanOrEqual(maxBytes);
    expect(cache.bytes).toBeGreaterThan(maxBytes / 2);
    // The newest group is still there, the first long gone.
    const newest = partitionOf(items('group#g9999', 40));
    await cache.read('group#g9999', 'p0001', 50, newest.query);
    expect(newest.calls()).toBe(0);
    const first = partitionOf(items('group#g0', 1));
    await cache.read('group#g0', undefined, 50, first.query);
    expect(first.calls()).toBe(1);
  });

  it('keeps no entry larger than a sixteenth of the bound, so one page never flushes the rest', async () => {
    const cache = new GroupCache({ ttlSeconds: 60, maxBytes: 160_000 }, STILL);
    const small = partitionOf(items('group#small', 10));
    await cache.read('group#small', undefined, 100, small.query);
    const huge = partitionOf(items('group#huge', 1000));
    await cache.read('group#huge', undefined, 1000, huge.query);
    await cache.read('group#huge', undefined, 1000, huge.query);
    expect(huge.calls()).toBe(2);
    await cache.read('group#small', undefined, 100, small.query);
    expect(small.calls()).toBe(1);
    expect(cache.size).toBe(1);
  });

  it('serves an entry until its time to live ends, then reads again', async () => {
    let now = 0;
    const cache = new GroupCache({ ttlSeconds: 5, maxBytes: 1_000_000 }, () => now);
    const group = partitionOf(items('group#a', 3));
    await cache.read('group#a', undefined, 10, group.query);
    now = 4999;
    expect(await cache.read('group#a', undefined, 10, group.query)).toEqual({
      Items: items('group#a', 3),
      LastEvaluatedKey: undefined,
    });
    expect(group.calls()).toBe(1);
    now = 5000;
    await cache.read('group#a', undefined, 10, group.query);
    expect(group.calls()).toBe(2);
  });

  it('answers a read of fewer items from a larger one, and goes to DynamoDB for more', async () => {
    const cache = new GroupCache({ ttlSeconds: 60, maxBytes: 1_000_000 }, STILL);
    const group = partitionOf(items('group#a', 30));
    await cache.read('group#a', undefined, 20, group.query);
    const fewer = await cache.read('group#a', undefined, 5, group.query);
    expect(fewer.Items).toEqual(items('group#a', 5));
    // Cut short by the cache, it says where to go on from, as DynamoDB would.
    expect(fewer.LastEvaluatedKey).toEqual({ owner: 'group#a', id: 'p0004' });
    expect(group.calls()).toBe(1);
    expect((await cache.read('group#a', undefined, 25, group.query)).Items).toHaveLength(25);
    expect(group.calls()).toBe(2);
    // A partition read to its end answers any number.
    const whole = partitionOf(items('group#b', 3));
    await cache.read('group#b', undefined, 10, whole.query);
    expect((await cache.read('group#b', undefined, 1000, whole.query)).LastEvaluatedKey).toBeUndefined();
    expect(whole.calls()).toBe(1);
  });

  it('keys entries by partition and position: another partition or position is never answered from them', async () => {
    const cache = new GroupCache({ ttlSeconds: 60, maxBytes: 1_000_000 }, STILL);
    await cache.read('group#a', undefined, 10, partitionOf(items('group#a', 3)).query);
    const other = partitionOf(items('group#b', 3));
    expect((await cache.read('group#b', undefined, 10, other.query)).Items).toEqual(items('group#b', 3));
    // A separator inside a name or position cannot make two keys meet.
    await cache.read('group#a","x', undefined, 10, partitionOf(items('x', 1)).query);
    const tricky = partitionOf(items('y', 1));
    expect((await cache.read('group#a', 'x', 10, tricky.query)).Items).toEqual(items('y', 1));
    expect(tricky.calls()).toBe(1);
  });

  it('is off when the time to live or the bound is 0', () => {
    expect(createGroupCache({ ttlSeconds: 0, maxBytes: 1_000_000 })).toBeUndefined();
    expect(createGroupCache({ ttlSeconds: 5, maxBytes: 0 })).toBeUndefined();
    expect(createGroupCache({ ttlSeconds: 5, maxBytes: 1_000_000 })).toBeInstanceOf(GroupCache);
  });
});
