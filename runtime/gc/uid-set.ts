// A set of object uids that keeps the usual ones (lowercase UUIDs, what the
// server assigns) as 16 bytes each in a hash table of typed arrays outside
// the JavaScript heap, instead of one string each in a Set: the garbage
// collector knows every object's uid, so this is per-object memory. Any other
// uid (a restored object's odd one) goes to a plain Set beside it. Open
// addressing with linear probing; deletions leave tombstones, cleared when
// the table is rebuilt (at half full, counting them).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const EMPTY = 0;
const FULL = 1;
const DELETED = 2;

export class UidSet {
  private words: Uint32Array;
  private state: Uint8Array;
  private full = 0;
  private used = 0;
  private readonly others = new Set<string>();
  /** Scratch words of the uid being looked at. */
  private readonly w = new Uint32Array(4);

  constructor(private capacity = 1024) {
    this.words = new Uint32Array(capacity * 4);
    this.state = new Uint8Array(capacity);
  }

  get size(): number {
    return this.full + this.others.size;
  }

  has(uid: string): boolean {
    if (!this.parse(uid)) return this.others.has(uid);
    return this.find() >= 0;
  }

  add(uid: string): void {
    if (!this.parse(uid)) {
      this.others.add(uid);
      return;
    }
    if (this.find() >= 0) return;
    if ((this.used + 1) * 2 > this.capacity) {
      // the rebuild uses the scratch words: keep the uid being added
      const uid4 = this.w.slice();
      this.rebuild(this.full * 4 > this.capacity ? this.capacity * 2 : this.capacity);
      this.w.set(uid4);
    }
    this.insert();
  }

  delete(uid: string): void {
    if (!this.parse(uid)) {
      this.others.delete(uid);
      return;
    }
    const i = this.find();
    if (i < 0) return;
    this.state[i] = DELETED;
    this.full--;
  }

  /** Reads a lowercase UUID into the scratch words; false for any other text. */
  private parse(uid: string): boolean {
    if (uid.length !== 36 || !UUID.test(uid)) return false;
    const w = this.w;
    w[0] = parseInt(uid.slice(0, 8), 16);
    w[1] = parseInt(uid.slice(9, 13) + uid.slice(14, 18), 16);
    w[2] = parseInt(uid.slice(19, 23) + uid.slice(24, 28), 16);
    w[3] = parseInt(uid.slice(28, 36), 16);
    return true;
  }

  private slot(): number {
    const w = this.w;
    let h = Math.imul(w[0] ^ (w[1] >>> 7), 0x9e3779b1) ^ Math.imul(w[2] ^ (w[3] << 3), 0x85ebca6b);
    h ^= h >>> 15;
    return (h >>> 0) & (this.capacity - 1);
  }

  /** The position holding the scratch uid, or -1. */
  private find(): number {
    const w = this.w;
    const mask = this.capacity - 1;
    for (let i = this.slot(); ; i = (i + 1) & mask) {
      const s = this.state[i];
      if (s === EMPTY) return -1;
      if (s === FULL) {
        const o = i * 4;
        if (this.words[o] === w[0] && this.words[o + 1] === w[1] && this.words[o + 2] === w[2] && this.words[o + 3] === w[3]) return i;
      }
    }
  }

  /** Puts the scratch uid in the first free position of its probe sequence. */
  private insert(): void {
    const mask = this.capacity - 1;
    let i = this.slot();
    while (this.state[i] === FULL) i = (i + 1) & mask;
    if (this.state[i] === EMPTY) this.used++;
    this.state[i] = FULL;
    this.words.set(this.w, i * 4);
    this.full++;
  }

  /** A fresh table of `capacity` positions (a power of two) holding the same uids, without tombstones. */
  private rebuild(capacity: number): void {
    const words = this.words;
    const state = this.state;
    this.capacity = capacity;
    this.words = new Uint32Array(capacity * 4);
    this.state = new Uint8Array(capacity);
    this.full = 0;
    this.used = 0;
    for (let i = 0; i < state.length; i++) {
      if (state[i] !== FULL) continue;
      this.w.set(words.subarray(i * 4, i * 4 + 4));
      this.insert();
    }
  }
}
