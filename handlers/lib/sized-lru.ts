// A least-recently-used map bounded by its entries and by a size its user measures: the verified-token
// cache's and the group cache's one eviction rule. A Map keeps insertion order; a hit moves to the end.

export class SizedLru<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private total = 0;
  private readonly maxSize: number;
  private readonly maxEntries: number;

  constructor(maxSize: number, maxEntries = Number.POSITIVE_INFINITY) {
    this.maxSize = maxSize;
    this.maxEntries = maxEntries;
  }

  get size(): number {
    return this.entries.size;
  }

  /** What every entry measures together: never above `maxSize` once a set returns. */
  get totalSize(): number {
    return this.total;
  }

  /** The value, now the most recently used; unless `live` says it is not, and then it is dropped. */
  get(key: string, live: (value: V) => boolean = () => true): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.delete(key);
    if (!live(entry.value)) return undefined;
    this.set(key, entry.value, entry.size);
    return entry.value;
  }

  /** Replaces any entry of `key`, then drops the least recently used until within both bounds. */
  set(key: string, value: V, size: number): void {
    this.delete(key);
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.total <= this.maxSize) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.total -= entry.size;
  }
}
