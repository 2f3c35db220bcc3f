// Where the watch cache keeps its objects' JSON: as UTF-8 bytes packed into
// large buffers (slabs) outside the JavaScript heap, not as one string per
// object. A string on the heap costs its bytes once more in the garbage
// collector's headroom (the heap is let grow to a multiple of what is live
// before it is collected) and in fragmentation (the strings are promoted with
// the garbage of the requests that made them); bytes in a slab cost their
// size. Slabs are filled front to back and a range once handed out is never
// written again, so a view of it (a list being sent) stays valid whatever
// happens next. A holder whose bytes are no longer current (its object was
// updated or deleted) is retired; when a slab's current bytes fall under
// half of what it holds, the current holders are copied into the slab being
// filled and the old slab is left to the garbage collector, which frees it
// once nothing refers to it any more (the watch history may, for a while).
// Objects larger than a quarter of a slab get a buffer of their own.

/** Bytes per slab. */
export const SLAB_BYTES = 256 * 1024;

/** A buffer of packed bytes and the bookkeeping that decides when to compact it. */
export class Slab {
  /** Bytes handed out, from the front. */
  used = 0;
  /** Bytes of the holders still current. */
  live = 0;
  /** Holders placed here (current or retired); emptied when the slab is compacted. */
  members: Held[] = [];

  constructor(readonly buf: Buffer) {}
}

/** Something whose bytes the arena keeps: where they are, and whether they are still current. */
export class Held {
  slab!: Slab;
  at = 0;
  len = 0;
  current = true;

  /** The bytes: a view into the slab, to read and never to write. */
  get bytes(): Buffer {
    return this.slab.buf.subarray(this.at, this.at + this.len);
  }

  /** The size of the bytes. */
  get byteLength(): number {
    return this.len;
  }

  /** Copies the bytes into out at `at` (no view of them is made); returns their size. */
  copyBytes(out: Uint8Array, at: number): number {
    return this.slab.buf.copy(out, at, this.at, this.at + this.len);
  }

  /** The bytes decoded as a string (a new string each time). */
  get text(): string {
    return this.slab.buf.toString('utf8', this.at, this.at + this.len);
  }
}

export class ByteArena {
  private slab: Slab;
  private readonly own: number;

  constructor(private readonly slabBytes: number = SLAB_BYTES) {
    this.slab = new Slab(Buffer.allocUnsafeSlow(slabBytes));
    this.own = Math.floor(slabBytes / 4);
  }

  /** Copies text's UTF-8 bytes into the arena as h's bytes. */
  put(h: Held, text: string): void {
    const n = Buffer.byteLength(text);
    if (n > this.own) {
      const s = new Slab(Buffer.allocUnsafeSlow(n));
      s.used = s.buf.write(text, 0);
      this.place(h, s, 0, n);
      return;
    }
    const s = this.room(n);
    s.buf.write(text, s.used);
    this.place(h, s, s.used, n);
    s.used += n;
    s.members.push(h);
  }

  /** h's bytes are no longer current; its slab is compacted when mostly retired. */
  retire(h: Held): void {
    if (!h.current) return;
    h.current = false;
    const s = h.slab;
    s.live -= h.len;
    if (s !== this.slab && s.members.length > 0 && s.live * 2 < s.used) this.compact(s);
  }

  /** Slabs filled or being filled and bytes current, for tests and metrics (counts only what the arena can see: the slab being filled). */
  get filling(): { used: number; live: number } {
    return { used: this.slab.used, live: this.slab.live };
  }

  private place(h: Held, s: Slab, at: number, n: number): void {
    h.slab = s;
    h.at = at;
    h.len = n;
    h.current = true;
    s.live += n;
  }

  /** The slab being filled, with room for n bytes (a fresh one when it has not). */
  private room(n: number): Slab {
    const s = this.slab;
    if (s.used + n <= s.buf.length) return s;
    this.slab = new Slab(Buffer.allocUnsafeSlow(this.slabBytes));
    // a slab left mostly retired while it was being filled is compacted now
    if (s.live * 2 < s.used) this.compact(s);
    return this.slab;
  }

  /** Copies s's current holders into the slab being filled; s then belongs to whoever still views it. */
  private compact(s: Slab): void {
    const members = s.members;
    s.members = [];
    for (const h of members) {
      if (!h.current || h.slab !== s) continue;
      const to = this.room(h.len);
      s.buf.copy(to.buf, to.used, h.at, h.at + h.len);
      s.live -= h.len;
      this.place(h, to, to.used, h.len);
      to.used += h.len;
      to.members.push(h);
    }
  }
}
