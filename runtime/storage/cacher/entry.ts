// What the watch cache keeps of an object: its served JSON (what a get
// answers with, shared by get, list and watch) as UTF-8 bytes in the cache's
// byte arena (byte-arena.ts: outside the JavaScript heap, about one copy of
// the bytes per object), its apiVersion, and the labels and selectable
// fields selectors need, computed once when the change arrives. The parsed
// object is not kept: readers that need one parse the JSON (a fresh copy
// each time); writers of bytes take the bytes themselves. To keep the rest
// small, an entry is one object that is its own selector attributes: label
// sets seen before are shared (EntryFactory), and metadata.name and
// metadata.namespace, when they are all the fields and the key spells them,
// are read back from the key instead of being stored. The events of changes
// (what watchers get, and what the ring, ring.ts, makes from its slots) are
// built here too, referring to the entries.
import type { EncodedObject, Obj, ObjectAttrs, WatchEvent } from '../interface.ts';
import type { CacheEvent } from './ring.ts';
import { ByteArena, Held } from './byte-arena.ts';

/** How an entry's fields are kept: stored, or read from the key (name only, or namespace and name). */
const NAME_FROM_KEY = 1;
const NAMESPACED_FROM_KEY = 2;
type FieldsKept = Record<string, string> | typeof NAME_FROM_KEY | typeof NAMESPACED_FROM_KEY;

export class Entry extends Held implements EncodedObject, ObjectAttrs {
  constructor(
    readonly key: string,
    readonly apiVersion: string,
    readonly labels: Record<string, string>,
    private readonly kept: FieldsKept,
  ) {
    super();
  }

  /** JSON.stringify of the object as stored, resourceVersion included (decoded from the bytes on each read). */
  get json(): string {
    return this.text;
  }

  /** The field-selector fields (a fresh record when they are read from the key). */
  get fields(): Record<string, string> {
    const k = this.kept;
    if (typeof k === 'object') return k;
    const slash = this.key.lastIndexOf('/');
    const name = this.key.slice(slash + 1);
    if (k === NAME_FROM_KEY) return { 'metadata.name': name };
    return { 'metadata.name': name, 'metadata.namespace': this.key.slice(this.key.lastIndexOf('/', slash - 1) + 1, slash) };
  }

  /** The entry is its own selector attributes. */
  get attrs(): ObjectAttrs {
    return this;
  }
}

/** How many distinct label sets a factory shares (more are kept per entry). */
const MAX_SHARED_LABEL_SETS = 4096;
const NO_LABELS: Record<string, string> = Object.freeze({});

/** The arena of every watch cache that is not given its own: one slab being filled for the whole process. */
const sharedArena = new ByteArena();

/** Makes the entries of one watch cache, sharing label sets and apiVersion strings between them, their bytes in an arena. */
export class EntryFactory {
  private labelSets = new Map<string, Record<string, string>>();
  private lastApiVersion = '';

  constructor(
    private readonly attrs: (obj: Obj) => ObjectAttrs,
    private readonly arena: ByteArena = sharedArena,
  ) {}

  make(key: string, obj: Obj, json: string): Entry {
    const a = this.attrs(obj);
    const apiVersion = typeof obj.apiVersion === 'string' ? obj.apiVersion : '';
    // one string per apiVersion, not one per object
    if (apiVersion !== this.lastApiVersion) this.lastApiVersion = apiVersion;
    const e = new Entry(key, this.lastApiVersion, this.shared(a.labels), fieldsKept(key, a.fields));
    this.arena.put(e, json);
    return e;
  }

  /** The entry is no longer the object's current state (replaced or deleted): its bytes may be compacted away once the watch history lets go of it. */
  retire(e: Entry): void {
    this.arena.retire(e);
  }

  /** The same label set seen before, while fewer than MAX_SHARED_LABEL_SETS are kept. */
  private shared(labels: Record<string, string>): Record<string, string> {
    let id = '';
    for (const k in labels) id += `${k.length}:${k}=${labels[k].length}:${labels[k]};`;
    if (id === '') return NO_LABELS;
    const seen = this.labelSets.get(id);
    if (seen) return seen;
    if (this.labelSets.size < MAX_SHARED_LABEL_SETS) this.labelSets.set(id, labels);
    return labels;
  }
}

/** The fields as kept: read from the key when they are exactly the name (and namespace) it spells. */
function fieldsKept(key: string, fields: Record<string, string>): FieldsKept {
  let n = 0;
  for (const f in fields) {
    if (f !== 'metadata.name' && f !== 'metadata.namespace') return fields;
    n++;
  }
  const slash = key.lastIndexOf('/');
  if (fields['metadata.name'] !== key.slice(slash + 1)) return fields;
  if (n === 1) return NAME_FROM_KEY;
  if (n === 2 && fields['metadata.namespace'] === key.slice(key.lastIndexOf('/', slash - 1) + 1, slash)) return NAMESPACED_FROM_KEY;
  return fields;
}

/** A fresh parsed copy of an entry's object. */
export function parseEntry(e: { json: string }): Obj {
  return JSON.parse(e.json) as Obj;
}

/**
 * A change over entries. `live` is the object the change arrived with: it
 * serves the watchers the change is delivered to at once and is let go by
 * `release()`, after which the objects are parsed from the JSON. The ring
 * (ring.ts) keeps only the entries, kind, revision and time of a change and
 * makes a fresh event without `live` for a watch that starts from an earlier
 * version.
 * A class, so that every event has the same small shape (object literals with
 * getters are kept as dictionaries, several hundred bytes each).
 */
class EntryEvent implements CacheEvent {
  shared?: Map<string, WatchEvent>;

  constructor(
    readonly kind: CacheEvent['kind'],
    private readonly cur: Entry,
    readonly rev: number,
    private readonly prev: Entry | undefined,
    private live: Obj | undefined,
    readonly at: number,
  ) {}

  get key(): string {
    return this.cur.key;
  }
  get attrs(): ObjectAttrs {
    return this.cur;
  }
  get json(): string {
    return this.cur.json;
  }
  get prevAttrs(): ObjectAttrs | undefined {
    return this.prev;
  }
  get prevJson(): string | undefined {
    return this.prev?.json;
  }

  get obj(): Obj {
    return this.live ?? (JSON.parse(this.cur.json) as Obj);
  }

  get prevObj(): Obj | undefined {
    return this.prev === undefined ? undefined : (JSON.parse(this.prev.json) as Obj);
  }

  release(): void {
    this.live = undefined;
    this.shared = undefined;
  }
}

export function cacheEvent(kind: CacheEvent['kind'], cur: Entry, rev: number, prev: Entry | undefined, live: Obj | undefined, at: number): CacheEvent {
  return new EntryEvent(kind, cur, rev, prev, live, at);
}

/** The ADDED event of an entry for a watch's initial state; its JSON is decoded and its object parsed on first use. */
export function initialEvent(e: Entry): WatchEvent {
  let obj: Obj | undefined;
  let json: string | undefined;
  return {
    type: 'ADDED',
    get object(): Obj {
      return (obj ??= parseEntry(e));
    },
    get json(): string {
      return (json ??= e.json);
    },
    encoded: new Map(),
  };
}
