// The key set of the watch cache in sorted order, for lists in key order
// without sorting per request. Inserts and removals are O(1) (buffered); the
// next range query merges them in, at a cost of the same order as the list it
// serves (O(n + b log b) for b buffered changes).
export class SortedKeys {
  private keys: string[] = [];
  private added = new Set<string>();
  private removed = new Set<string>();

  get size(): number {
    this.settle();
    return this.keys.length;
  }

  insert(k: string): void {
    if (this.removed.delete(k)) return; // it is still in `keys`
    this.added.add(k);
  }

  remove(k: string): void {
    if (this.added.delete(k)) return;
    this.removed.add(k);
  }

  clear(): void {
    this.keys = [];
    this.added.clear();
    this.removed.clear();
  }

  private settle(): void {
    if (this.added.size === 0 && this.removed.size === 0) return;
    const base = this.removed.size ? this.keys.filter((k) => !this.removed.has(k)) : this.keys;
    this.removed.clear();
    if (this.added.size === 0) {
      this.keys = base;
      return;
    }
    const extra = [...this.added].sort();
    this.added.clear();
    // Merge two sorted arrays (appends in order are the common case: a fast path).
    if (base.length === 0 || extra[0] > base[base.length - 1]) {
      this.keys = base.concat(extra);
      return;
    }
    const out: string[] = new Array(base.length + extra.length);
    let i = 0,
      j = 0,
      o = 0;
    while (i < base.length && j < extra.length) out[o++] = base[i] < extra[j] ? base[i++] : extra[j++];
    while (i < base.length) out[o++] = base[i++];
    while (j < extra.length) out[o++] = extra[j++];
    this.keys = out;
  }

  private lowerBound(k: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.keys[mid] < k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Keys that start with prefix, in order. */
  range(prefix: string): string[] {
    const { keys, start, end } = this.span(prefix);
    return keys.slice(start, end);
  }

  /**
   * The keys that start with prefix and are not before `from` (default: the
   * prefix itself), as positions [start, end) in the sorted array, which is
   * not copied: valid until the next insert or remove.
   */
  span(prefix: string, from: string = prefix): { keys: readonly string[]; start: number; end: number } {
    this.settle();
    const start = this.lowerBound(from < prefix ? prefix : from);
    let end = start;
    if (start < this.keys.length && this.keys[start].startsWith(prefix)) end = this.upperBound(prefix, start);
    return { keys: this.keys, start, end };
  }

  /** The first position at or after `from` whose key does not start with prefix. */
  private upperBound(prefix: string, from: number): number {
    let lo = from;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.keys[mid].startsWith(prefix)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
