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
 */
export function cacheEvent(kind: CacheEvent['kind'], cur: Entry, rev: number, prev: Entry | undefined, live: Obj | undefined, at: number): { ce: CacheEvent; release(): void } {
  let obj = live;
  const ce: CacheEvent = {
    kind,
    key: cur.key,
    rev,
    attrs: cur.attrs,
    json: cur.json,
    prevAttrs: prev?.attrs,
    prevJson: prev?.json,
    at,
    get obj(): Obj {
      return obj ?? parseEntry(cur);
    },
    get prevObj(): Obj | undefined {
      return prev ? parseEntry(prev) : undefined;
    },
  };
  return {
    ce,
    release() {
      obj = undefined;
      ce.shared = undefined;
    },
  };
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
