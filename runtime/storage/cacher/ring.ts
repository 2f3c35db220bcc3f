// The ring of recent changes of one resource type in the watch cache: events
// in revision order, evicted by age (the history window) and by count. It
// answers "every event after revision N" or says N is too old.
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

export class EventRing {
  private items: CacheEvent[] = [];
  private head = 0;
  /** Events after this revision are all held. */
  oldestRev: number;

  constructor(
    startRev: number,
    private windowMs: number,
    private maxEvents: number,
    private now: () => number = Date.now,
  ) {
    this.oldestRev = startRev;
  }

  get size(): number {
    return this.items.length - this.head;
  }

  push(ev: CacheEvent): void {
    this.items.push(ev);
    this.evict();
  }

  evict(): void {
    const cutoff = this.now() - this.windowMs;
    while (this.head < this.items.length && (this.size > this.maxEvents || this.items[this.head].at < cutoff)) {
      this.oldestRev = this.items[this.head].rev;
      this.items[this.head++] = undefined as unknown as CacheEvent;
    }
    if (this.head > 4096 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }

  /** Events with revision > rev, or null when some of them were evicted. */
  since(rev: number): CacheEvent[] | null {
    this.evict();
    if (rev < this.oldestRev) return null;
    // Binary search for the first event after rev.
    let lo = this.head;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.items[mid].rev <= rev) lo = mid + 1;
      else hi = mid;
    }
    return this.items.slice(lo);
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
