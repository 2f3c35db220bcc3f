// The answer cache of a webhook authorizer, as upstream's: an LRU of
// bounded size whose entries expire after a TTL chosen per entry (the
// authorized or the unauthorized TTL). Time comes from an injected now().

export const DEFAULT_CACHE_ENTRIES = 8192;

interface Entry<T> {
  expires: number;
  value: T;
}

export class ExpiringLRU<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly now: () => number,
    private readonly maxEntries = DEFAULT_CACHE_ENTRIES,
  ) {}

  get(key: string): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.expires <= this.now()) return undefined;
    this.entries.set(key, e); // most recently used last
    return e.value;
  }

  add(key: string, value: T, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { expires: this.now() + ttlMs, value });
  }

  get size(): number {
    return this.entries.size;
  }
}
