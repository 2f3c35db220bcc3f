// Reads from storage as the apiextensions server decodes a custom resource
// from storage: a Storage over the custom resource's storage that prunes
// every object it hands out (get, list, watch events, the current object of
// an update or delete, the result of a delete) to the structural schema of
// the version it is stored in, then drops that schema's disallowed nulls and
// sets its defaults, without writing anything back (upstream's storage codec
// prunes while decoding and defaults before converting). One is made each
// time a CRD's schema is served anew, so its caches belong to one schema: a
// stored object's served JSON (the watch cache's entry; the result is kept
// as bytes) and a watch event are read once and then shared by every reader,
// and an object the read does not change is handed out as it is (the watch
// cache's bytes, its encoded events). A watch fed by an event queue keeps it:
// the queue hands out the read events (so a watch over a socket is still
// written straight to it), each event read once for all its watchers. An
// object that cannot be read (the read throws) fails the get or list, and is
// an ERROR event in a watch.
import { errors } from '../api/errors.ts';
import { isPromise } from '../api/maybe.ts';
import { EventQueue } from '../storage/stream/event-queue.ts';
import type { EncodedObject, Obj, Storage, WatchEvent, WatchStream } from '../storage/interface.ts';

/** A defaulted object's served JSON, kept as its UTF-8 bytes (one copy, written out as they are); the text is decoded on each read. */
class DefaultedJSON implements EncodedObject {
  constructor(
    readonly bytes: Buffer,
    readonly apiVersion: string,
  ) {}

  get json(): string {
    return this.bytes.toString('utf8');
  }
}

/** ADDED events remembered by their JSON at most (per CRD schema served). */
const MAX_ADDED_BY_JSON = 10_000;

/** What a read from storage does to an object of one version (pruning, nulls, defaults): true when it changed obj. */
export interface StorageRead {
  apply(obj: Obj): boolean;
}

/** The read of the version an object is stored in (by its apiVersion); undefined when it changes nothing. */
export type ReadOf = (apiVersion: unknown) => StorageRead | undefined;

export function withReadDefaults(inner: Storage, readOf: ReadOf): Storage {
  const defaults = { apply: (obj: Obj): boolean => readOf(obj.apiVersion)?.apply(obj) ?? false };
  const encodedSeen = new WeakMap<EncodedObject, EncodedObject>();
  const eventsSeen = new WeakMap<WatchEvent, WatchEvent>();

  /** An object handed out afresh by storage (a copy of its own): defaulted in place. */
  const fresh = <T extends Obj | null>(obj: T): T => {
    if (obj) defaults.apply(obj);
    return obj;
  };
  /** An object storage may share: a defaulted copy when the defaults change it. */
  const shared = (obj: Obj): Obj => {
    const copy = structuredClone(obj);
    return defaults.apply(copy) ? copy : obj;
  };
  const encoded = (e: EncodedObject): EncodedObject => {
    // a version whose read changes nothing hands out the stored JSON without parsing it
    if (readOf(e.apiVersion || undefined) === undefined) return e;
    let out = encodedSeen.get(e);
    if (!out) {
      const obj = JSON.parse(e.json) as Obj;
      out = defaults.apply(obj) ? new DefaultedJSON(Buffer.from(JSON.stringify(obj)), e.apiVersion) : e;
      encodedSeen.set(e, out);
    }
    return out;
  };
  /**
   * The read ADDED events by the stored JSON they carry (null: unchanged): a
   * watch's initial events are made afresh for each watcher over the same
   * JSON strings of the watch cache, so watchers of one state share one read
   * and one encoding. Emptied when it grows past its bound.
   */
  const addedByJson = new Map<string, WatchEvent | null>();
  const event = (ev: WatchEvent): WatchEvent => {
    if (ev.type === 'BOOKMARK' || ev.type === 'ERROR') return ev;
    let out = eventsSeen.get(ev);
    if (out) return out;
    const json = ev.type === 'ADDED' ? ev.json : undefined;
    const known = json !== undefined ? addedByJson.get(json) : undefined;
    if (known !== undefined) out = known ?? ev;
    else {
      const obj = (ev.json !== undefined ? JSON.parse(ev.json) : structuredClone(ev.object)) as Obj;
      // a changed event gets its own encoding cache, shared by every watcher it is handed to
      let changed: boolean;
      try {
        changed = defaults.apply(obj);
      } catch (err) {
        // an object that cannot be read (stored in a version the CRD no longer lists): the watch's ERROR event
        return { type: 'ERROR', object: errors.internal(err).status() };
      }
      out = changed ? { type: ev.type, object: obj, encoded: new Map() } : ev;
      if (json !== undefined) {
        if (addedByJson.size >= MAX_ADDED_BY_JSON) addedByJson.clear();
        addedByJson.set(json, changed ? out : null);
      }
    }
    eventsSeen.set(ev, out);
    return out;
  };
  const stream = (s: WatchStream): WatchStream => {
    const out: WatchStream = {
      stop: () => s.stop(),
      [Symbol.asyncIterator]() {
        const it = s[Symbol.asyncIterator]();
        return {
          next: async () => {
            const r = await it.next();
            return r.done ? r : { done: false, value: event(r.value) };
          },
          return: async (v?: unknown) => (it.return ? it.return(v) : { done: true, value: v }),
        };
      },
    };
    if (s.requestProgress) out.requestProgress = () => s.requestProgress!();
    if (s.takeBuffered) out.takeBuffered = (max) => s.takeBuffered!(max).map(event);
    return out;
  };

  const wrapped: Storage = {
    create: (key, obj) => inner.create(key, obj),
    get: async (key, opts) => fresh(await inner.get(key, opts)),
    list: async (prefix, opts) => {
      const r = await inner.list(prefix, opts);
      for (const o of r.items) defaults.apply(o);
      return r;
    },
    watch: async (keyOrPrefix, opts) => {
      const s = await inner.watch(keyOrPrefix, opts);
      if (!(s instanceof EventQueue)) return stream(s);
      s.mapEvents(event);
      return s;
    },
    guaranteedUpdate: (key, opts) => inner.guaranteedUpdate(key, { ...opts, tryUpdate: (current) => opts.tryUpdate(current && shared(current)) }),
    delete: async (key, opts = {}) => {
      const validate = opts.validateDeletion;
      return fresh(await inner.delete(key, validate ? { ...opts, validateDeletion: (current) => validate(shared(current)) } : opts));
    },
    count: (prefix) => inner.count(prefix),
    currentRevision: () => inner.currentRevision(),
    close: () => inner.close(),
  };
  if (inner.revisionNow) wrapped.revisionNow = () => inner.revisionNow!();
  if (inner.getEncoded) {
    const getEncoded = inner.getEncoded.bind(inner);
    wrapped.getEncoded = (key, opts) => {
      const e = getEncoded(key, opts);
      if (isPromise(e)) return e.then((x) => x && encoded(x));
      return e && encoded(e);
    };
  }
  if (inner.listEncoded) {
    const listEncoded = inner.listEncoded.bind(inner);
    wrapped.listEncoded = async (prefix, opts) => {
      const r = await listEncoded(prefix, opts);
      return { ...r, items: r.items.map(encoded) };
    };
  }
  return wrapped;
}
