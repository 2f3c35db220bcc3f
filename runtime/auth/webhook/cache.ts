// The answer cache in front of a webhook token authenticator, as upstream's
// token cache: answers (authenticated or not) are kept for the TTL, errors
// are not; the key is an HMAC-SHA256 (with a per-process random key) of the
// token and the audiences, so no token is kept in memory; concurrent
// identical lookups share one webhook call. Time comes from an injected
// now(). The number of entries is bounded (expired entries go first, then
// the oldest).

import { createHmac, randomBytes } from 'node:crypto';

export interface CacheOptions {
  ttlMs: number;
  now: () => number;
  maxEntries?: number;
}

interface Entry<T> {
  expires: number;
  value: T;
}

export class AnswerCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly inflight = new Map<string, Promise<T>>();
  private readonly hmacKey = randomBytes(32);
  private readonly maxEntries: number;

  constructor(private readonly o: CacheOptions) {
    this.maxEntries = o.maxEntries ?? 10_000;
  }

  key(token: string, audiences: string[]): string {
    const h = createHmac('sha256', this.hmacKey);
    const len = Buffer.alloc(4);
    const write = (s: string) => {
      const b = Buffer.from(s, 'utf8');
      len.writeUInt32BE(b.length);
      h.update(len);
      h.update(b);
    };
    write(token);
    len.writeUInt32BE(audiences.length);
    h.update(len);
    for (const a of audiences) write(a);
    return h.digest('base64');
  }

  /** The cached answer, or the one `compute` gives (cached unless it throws). */
  async get(token: string, audiences: string[], compute: () => Promise<T>): Promise<T> {
    const key = this.key(token, audiences);
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.o.now()) return hit.value;
    if (hit) this.entries.delete(key);
    const running = this.inflight.get(key);
    if (running) return running;
    const p = (async () => {
      try {
        const value = await compute();
        this.store(key, value);
        return value;
      } finally {
        this.inflight.delete(key);
      }
    })();
    this.inflight.set(key, p);
    return p;
  }

  get size(): number {
    return this.entries.size;
  }

  private store(key: string, value: T): void {
    if (this.o.ttlMs <= 0) return;
    const now = this.o.now();
    if (this.entries.size >= this.maxEntries) {
      for (const [k, e] of this.entries) if (e.expires <= now) this.entries.delete(k);
      while (this.entries.size >= this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest === undefined) break;
        this.entries.delete(oldest);
      }
    }
    this.entries.set(key, { expires: now + this.o.ttlMs, value });
  }
}
