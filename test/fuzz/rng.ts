// The fuzz harness's seeded pseudo-random generator (mulberry32) and the
// small helpers the generators draw from. Every case gets its own generator,
// derived from the run seed and the case index, so one case can be replayed
// alone (FUZZ_SEED + FUZZ_ONLY) without running the cases before it.

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** The generator of case `index` of a run with `seed`. */
  static forCase(seed: number, index: number): Rng {
    // splitmix-style mixing so neighbouring indices give unrelated streams
    let h = (seed ^ Math.imul(index + 1, 0x9e3779b9)) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    return new Rng((h ^ (h >>> 16)) >>> 0);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight: [[weight, value], ...]. */
  weighted<T>(items: readonly (readonly [number, T])[]): T {
    const total = items.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, v] of items) {
      r -= w;
      if (r < 0) return v;
    }
    return items[items.length - 1][1];
  }

  /** A string of `len` characters from `alphabet`. */
  string(len: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let s = '';
    for (let i = 0; i < len; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }

  bytes(len: number): Uint8Array {
    const out = new Uint8Array(len);
    for (let i = 0; i < len; i++) out[i] = Math.floor(this.next() * 256);
    return out;
  }
}
