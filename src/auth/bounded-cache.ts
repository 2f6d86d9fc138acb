/**
 * A size-bounded map whose entries each carry the instant they stop being served: least recently used first
 * out when full, never answered once expired. A Map keeps insertion order, so moving an entry to the end on
 * every read makes its first key the least recently used one; both operations are O(1). No library: the
 * service has no LRU dependency (lru-cache is not one of its dependencies), and these few lines are all the
 * two authentication caches need (docs/adr/0099-authentication-caches.md).
 *
 * Time is an argument, not read here: the callers pass their clock's `now` (src/clock.ts).
 */
export class BoundedCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

  /** `maxEntries` 0: nothing is ever kept (caching off). */
  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  /** The value, unless absent or expired at `now` (an expired entry is dropped on the way). */
  get(key: K, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= now) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` until `expiresAt` (already past: not kept), evicting the least recently used entries beyond the bound. */
  set(key: K, value: V, expiresAt: number, now: number): void {
    this.entries.delete(key);
    if (this.maxEntries === 0 || expiresAt <= now) return;
    this.entries.set(key, { value, expiresAt });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
