// The ring of recent changes of one resource type in the watch cache: events
// in revision order, evicted by age (the history window) and by count, kept
// packed (a few typed-array slots per change, not an object each). It answers
// "every event after revision N" or says N is too old.
import type { Obj, ObjectAttrs, WatchEvent, WatchEventType } from '../interface.ts';

export interface CacheEvent {
  kind: 'create' | 'update' | 'delete';
  key: string;
  rev: number;
  /** The new object (for a delete: the last state, stamped with the delete revision); parsed from `json` when asked for. */
  readonly obj: Obj;
  attrs: ObjectAttrs;
  /** JSON.stringify(obj), when the cache has it (it always does). */
  json?: string;
  readonly prevObj?: Obj;
  prevAttrs?: ObjectAttrs;
  prevJson?: string;
  /** Arrival time, for eviction by age. */
  at: number;
  /** Watch events built for this change, shared by every watcher (one per type/object). */
  shared?: Map<string, WatchEvent>;
  /** Lets go of the objects built for the watchers it was fanned out to (the ring keeps the strings). */
  release?(): void;
}

const KINDS: readonly CacheEvent['kind'][] = ['create', 'update', 'delete'];
const KIND_CODE: Record<CacheEvent['kind'], number> = { create: 0, update: 1, delete: 2 };
/** Slots the ring starts with; it doubles up to its capacity in events. */
const FIRST_SLOTS = 1024;

/** Makes the event a ring slot stands for (a fresh one each time it is asked for). */
export type MakeEvent<T> = (kind: CacheEvent['kind'], cur: T, rev: number, prev: T | undefined, at: number) => CacheEvent;

/**
 * The events are kept packed, not as one object each: a circular buffer of
 * slots, the revisions and arrival times in Float64Arrays (no boxed number per
 * event), the kinds in a Uint8Array, and the new and previous states (T: the
 * cache's entries, which the state shares) in two arrays. since() makes the
 * events it answers with from the slots.
 */
export class EventRing<T> {
  private slots = 0;
  private first = 0;
  private count = 0;
  private revs = new Float64Array(0);
  private ats = new Float64Array(0);
  private kinds = new Uint8Array(0);
  private curs: (T | undefined)[] = [];
  private prevs: (T | undefined)[] = [];
  /** Events after this revision are all held. */
  oldestRev: number;

  constructor(
    startRev: number,
    private windowMs: number,
    private maxEvents: number,
    private make: MakeEvent<T>,
    private now: () => number = Date.now,
  ) {
    this.oldestRev = startRev;
  }

  get size(): number {
    return this.count;
  }

  push(kind: CacheEvent['kind'], cur: T, rev: number, prev: T | undefined, at: number): void {
    if (this.maxEvents <= 0) {
      this.oldestRev = rev;
      return;
    }
    if (this.count === this.slots) {
      if (this.slots < this.maxEvents) this.grow();
      else this.dropOldest();
    }
    const i = (this.first + this.count) % this.slots;
    this.revs[i] = rev;
    this.ats[i] = at;
    this.kinds[i] = KIND_CODE[kind];
    this.curs[i] = cur;
    this.prevs[i] = prev;
    this.count++;
    this.evict();
  }

  evict(): void {
    const cutoff = this.now() - this.windowMs;
    while (this.count > 0 && (this.count > this.maxEvents || this.ats[this.first] < cutoff)) this.dropOldest();
  }

  /** Events with revision > rev, or null when some of them were evicted. */
  since(rev: number): CacheEvent[] | null {
    this.evict();
    if (rev < this.oldestRev) return null;
    // binary search (over positions from the oldest) for the first event after rev
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.revs[(this.first + mid) % this.slots] <= rev) lo = mid + 1;
      else hi = mid;
    }
    const out: CacheEvent[] = [];
    for (let k = lo; k < this.count; k++) {
      const i = (this.first + k) % this.slots;
      out.push(this.make(KINDS[this.kinds[i]], this.curs[i] as T, this.revs[i], this.prevs[i], this.ats[i]));
    }
    return out;
  }

  private dropOldest(): void {
    const i = this.first;
    this.oldestRev = this.revs[i];
    this.curs[i] = undefined;
    this.prevs[i] = undefined;
    this.first = (i + 1) % this.slots;
    this.count--;
  }

  /** Twice the slots (at most maxEvents), the events moved to the front in order. */
  private grow(): void {
    const slots = Math.min(this.maxEvents, Math.max(FIRST_SLOTS, this.slots * 2));
    const revs = new Float64Array(slots);
    const ats = new Float64Array(slots);
    const kinds = new Uint8Array(slots);
    const curs: (T | undefined)[] = [];
    const prevs: (T | undefined)[] = [];
    for (let k = 0; k < slots; k++) {
      const i = (this.first + k) % Math.max(1, this.slots);
      const held = k < this.count;
      revs[k] = held ? this.revs[i] : 0;
      ats[k] = held ? this.ats[i] : 0;
      kinds[k] = held ? this.kinds[i] : 0;
      curs.push(held ? this.curs[i] : undefined);
      prevs.push(held ? this.prevs[i] : undefined);
    }
    this.slots = slots;
    this.first = 0;
    this.revs = revs;
    this.ats = ats;
    this.kinds = kinds;
    this.curs = curs;
    this.prevs = prevs;
  }
}

/** The keys of a change's shared events, per type, for the new and the old object (made once, not per watcher). */
const SHARED_IDS: Record<WatchEventType, readonly [string, string]> = {
  ADDED: ['ADDED:new', 'ADDED:old'],
  MODIFIED: ['MODIFIED:new', 'MODIFIED:old'],
  DELETED: ['DELETED:new', 'DELETED:old'],
  BOOKMARK: ['BOOKMARK:new', 'BOOKMARK:old'],
  ERROR: ['ERROR:new', 'ERROR:old'],
};

/** The watch event a change produces for one type of delivery, built once and shared. */
export function sharedEvent(ev: CacheEvent, type: WatchEventType, useOld: boolean): WatchEvent {
  const id = SHARED_IDS[type][useOld ? 1 : 0];
  if (!ev.shared) ev.shared = new Map();
  let out = ev.shared.get(id);
  if (!out) {
    let object = useOld ? (ev.prevObj ?? ev.obj) : ev.obj;
    if (useOld && ev.kind !== 'delete') {
      // A watcher that stops matching sees the old object at the change's revision.
      object = { ...object, metadata: { ...object.metadata, resourceVersion: String(ev.rev) } };
    }
    out = { type, object, encoded: new Map() };
    if (!useOld && ev.json !== undefined) out.json = ev.json;
    ev.shared.set(id, out);
  }
  return out;
}
