// A sorted array of keys with binary-search insert, remove and prefix range,
// so the watch cache lists in key order without sorting per request.
export class SortedKeys {
  private keys: string[] = [];

  get size(): number { return this.keys.length; }

  private lowerBound(k: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.keys[mid] < k) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  insert(k: string): void {
    const i = this.lowerBound(k);
    if (this.keys[i] !== k) this.keys.splice(i, 0, k);
  }

  remove(k: string): void {
    const i = this.lowerBound(k);
    if (this.keys[i] === k) this.keys.splice(i, 1);
  }

  clear(): void { this.keys = []; }

  /** Keys that start with prefix, in order. */
  range(prefix: string): string[] {
    const start = this.lowerBound(prefix);
    let end = start;
    while (end < this.keys.length && this.keys[end].startsWith(prefix)) end++;
    return this.keys.slice(start, end);
  }
}
