// The one eviction rule of the token and group caches: least recently used out first, within both bounds.

import { describe, expect, it } from '@jest/globals';
import { SizedLru } from '../../../handlers/lib/sized-lru.ts';

describe('SizedLru', () => {
  it('drops the least recently used entry once past its size, a hit counting as a use', () => {
    const lru = new SizedLru<string>(10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    expect(lru.get('a')).toBe('A');
    lru.set('c', 'C', 4);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual(['A', undefined, 'C']);
    expect(lru.totalSize).toBe(8);
  });

  it('keeps at most its number of entries, and replaces an entry set twice', () => {
    const lru = new SizedLru<number>(100, 2);
    lru.set('a', 1, 1);
    lru.set('a', 2, 5);
    lru.set('b', 3, 1);
    lru.set('c', 4, 1);
    expect([lru.get('a'), lru.get('b'), lru.get('c')]).toEqual([undefined, 3, 4]);
    expect([lru.size, lru.totalSize]).toEqual([2, 2]);
  });

  it('drops an entry its reader no longer counts as live', () => {
    const lru = new SizedLru<number>(100);
    lru.set('a', 1, 7);
    expect(lru.get('a', (value) => value > 1)).toBeUndefined();
    expect([lru.size, lru.totalSize, lru.get('a')]).toEqual([0, 0, undefined]);
  });

  it('holds nothing larger than its size', () => {
    const lru = new SizedLru<number>(5);
    lru.set('a', 1, 6);
    expect([lru.size, lru.totalSize]).toEqual([0, 0]);
  });
});
