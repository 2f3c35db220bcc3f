// What the watch cache keeps of an object: its served JSON (the string a get
// answers with, shared by get, list and watch), its apiVersion, and the
// labels and selectable fields selectors need, computed once when the change
// arrives. The parsed object is not kept: readers that need one parse the JSON
// (a fresh copy each time), so memory holds about one copy of the bytes per
// object. Ring events (ring.ts) are built here too, over the same strings.
import type { EncodedObject, Obj, ObjectAttrs, WatchEvent } from '../interface.ts';
import type { CacheEvent } from './ring.ts';

export interface Entry extends EncodedObject {
  readonly key: string;
  /** JSON.stringify of the object as stored, resourceVersion included. */
  readonly json: string;
  readonly apiVersion: string;
  readonly attrs: ObjectAttrs;
}

/** A fresh parsed copy of an entry's object. */
export function parseEntry(e: { json: string }): Obj {
  return JSON.parse(e.json) as Obj;
}

/**
 * A ring event over entry strings. `live` is the object the change arrived
 * with: it serves the watchers the change is delivered to at once and is let
 * go by `release()`, after which the objects are parsed from the JSON (for a
 * watch that starts from an earlier version), so the ring holds strings only.
 * A class, so that every event has the same small shape (object literals with
 * getters are kept as dictionaries, several hundred bytes each).
 */
class EntryEvent implements CacheEvent {
  readonly key: string;
  readonly attrs: ObjectAttrs;
  readonly json: string;
  readonly prevAttrs?: ObjectAttrs;
  readonly prevJson?: string;
  shared?: Map<string, WatchEvent>;

  constructor(
    readonly kind: CacheEvent['kind'],
    cur: Entry,
    readonly rev: number,
    prev: Entry | undefined,
    private live: Obj | undefined,
    readonly at: number,
  ) {
    this.key = cur.key;
    this.attrs = cur.attrs;
    this.json = cur.json;
    this.prevAttrs = prev?.attrs;
    this.prevJson = prev?.json;
  }

  get obj(): Obj {
    return this.live ?? (JSON.parse(this.json) as Obj);
  }

  get prevObj(): Obj | undefined {
    return this.prevJson === undefined ? undefined : (JSON.parse(this.prevJson) as Obj);
  }

  release(): void {
    this.live = undefined;
    this.shared = undefined;
  }
}

export function cacheEvent(kind: CacheEvent['kind'], cur: Entry, rev: number, prev: Entry | undefined, live: Obj | undefined, at: number): CacheEvent {
  return new EntryEvent(kind, cur, rev, prev, live, at);
}

/** The ADDED event of an entry for a watch's initial state; its object is parsed on first use. */
export function initialEvent(e: Entry): WatchEvent {
  let obj: Obj | undefined;
  return {
    type: 'ADDED',
    get object(): Obj {
      return (obj ??= parseEntry(e));
    },
    json: e.json,
    encoded: new Map(),
  };
}
