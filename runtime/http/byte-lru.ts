// A cache of byte arrays bounded by weight: once the total passes the bound,
// the least recently used go first. Keys are held strongly, so the weight of
// an entry should count what its key keeps alive as well as its bytes (the
// caller's weigh function says how). A Map in use order: a hit moves its key
// to the end, eviction takes from the front; every operation is O(1)
// amortized. Pure data structure, no timers.

export class ByteLRU<K, V extends { readonly byteLength: number } = Uint8Array> {
  private map = new Map<K, V>();
  private total = 0;
  /** The most recently used key (a hit on it need not move it: the same object read again and again). */
  private newest: K | undefined;

  constructor(
    readonly maxWeight: number,
    private readonly weigh: (key: K, value: V) => number = (_k, v) => v.byteLength,
  ) {}

  /** The value kept for key (now the most recently used), or undefined. */
  get(key: K): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined && key !== this.newest) {
      this.map.delete(key);
      this.map.set(key, v);
      this.newest = key;
    }
    return v;
  }

  /** Keeps value for key, evicting the least recently used past the bound; one heavier than the bound is not kept. */
  set(key: K, value: V): void {
    this.delete(key);
    const w = this.weigh(key, value);
    if (w > this.maxWeight) return;
    this.map.set(key, value);
    this.newest = key;
    this.total += w;
    while (this.total > this.maxWeight) {
      const oldest = this.map.keys().next().value as K;
      this.delete(oldest);
    }
  }

  delete(key: K): void {
    const v = this.map.get(key);
    if (v === undefined) return;
    this.map.delete(key);
    if (key === this.newest) this.newest = undefined;
    this.total -= this.weigh(key, v);
  }

  clear(): void {
    this.map.clear();
    this.newest = undefined;
    this.total = 0;
  }

  /** Entries kept. */
  get size(): number {
    return this.map.size;
  }

  /** Their total weight (never above maxWeight). */
  get weight(): number {
    return this.total;
  }
}
