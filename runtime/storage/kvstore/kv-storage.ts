// The object layer (Storage, interface.ts) over any KV: JSON objects under
// opaque keys, resourceVersion = modRevision, preconditions, guaranteed
// updates, selectors, chunked lists with continue tokens, and watches read
// straight from the KV (no cache; see cacher/ for that). Follows
// kube-apiserver's etcd3 store semantics for every resourceVersion option.
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  InvalidRequestError,
  KeyExistsError,
  NotFoundError,
  PreconditionError,
  type EncodedListResult,
  type EncodedObject,
  type GetOptions,
  type GuaranteedUpdateOptions,
  type KV,
  type KVEvent,
  type KVWatcher,
  type KeyValue,
  type ListOptions,
  type ListResult,
  type Obj,
  type Preconditions,
  type Storage,
  type WatchEvent,
  type WatchOptions,
  type WatchStream,
} from '../interface.ts';
import { EXPIRED_LIST_MESSAGE, INCONSISTENT_CONTINUE_MESSAGE, ResourceExpiredError, TooLargeResourceVersionError } from '../errors.ts';
import { planGet, planList, planWatch, validateListOptions, validateWatchOptions } from '../semantics/options.ts';
import { ANNOTATION_INITIAL_EVENTS_END } from '../../api/k8s-names.ts';
import { matchesObject, predicateEmpty, statusObject, transition } from '../semantics/predicate.ts';
import { EventQueue } from '../stream/event-queue.ts';
import { decodeContinue, encodeContinue } from './continue.ts';
import { decodeKV, decodeValue, encodeObject, sameObject, setResourceVersion } from './codec.ts';
import { checkRequestSize, DEFAULT_MAX_REQUEST_BYTES } from './request-size.ts';
import { servedJSON } from './encoded.ts';

/** Turns one stored key-value (parsed already when a selector needed it) into a list item. */
type ItemOf<T> = (kv: KeyValue, parsed: Obj | undefined) => T;
const asObject: ItemOf<Obj> = (kv, parsed) => parsed ?? decodeKV(kv);
const asEncoded: ItemOf<EncodedObject> = (kv) => servedJSON(kv.value, kv.modRevision);

export const WATCH_TOO_OLD_MESSAGE = 'The resourceVersion for the provided watch is too old.';

export interface KVStorageOptions {
  /** Events buffered per watcher before it is cut off (default 10000). */
  watchBuffer?: number;
  /** Keys read per round when a selector filters a chunked list (default 500). */
  filterChunk?: number;
  /** Largest write (key plus stored value) in bytes, as etcd's --max-request-bytes (default 1.5 MiB; 0: none). */
  maxRequestBytes?: number;
}

/** Upper bound of a prefix range (prefixes end with '/'). */
function rangeEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

export function checkPreconditions(key: string, pre: Preconditions | undefined, obj: Obj): void {
  if (!pre) return;
  const meta = obj.metadata ?? {};
  if (pre.uid !== undefined && pre.uid !== (meta.uid ?? '')) {
    throw new PreconditionError(`Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${meta.uid ?? ''}`);
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== (meta.resourceVersion ?? '')) {
    throw new PreconditionError(`Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`);
  }
  void key;
}

export class KVStorage implements Storage {
  private watchBuffer: number;
  private filterChunk: number;
  private maxRequestBytes: number;

  constructor(
    public readonly kv: KV,
    opts: KVStorageOptions = {},
  ) {
    this.watchBuffer = opts.watchBuffer ?? 10_000;
    this.filterChunk = opts.filterChunk ?? 500;
    this.maxRequestBytes = opts.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  }

  async create(key: string, obj: Obj): Promise<Obj> {
    if (obj.metadata?.resourceVersion) {
      throw new InvalidRequestError('resourceVersion should not be set on objects to be created');
    }
    const value = encodeObject(obj);
    checkRequestSize(key, value, this.maxRequestBytes);
    const kv = await this.kv.create(key, value);
    // the KV holds the text written (SQLite): that text parses back to the object given (JSON data, as every
    // object the pipeline writes is), which is answered without parsing it again, as a copy of its top level
    // and metadata (the caller's object stays as given); a KV that gives back another text (etcd decoding its
    // protobuf value) is read as it answered
    if (kv.value !== value) return decodeKV(kv);
    return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(kv.modRevision) } };
  }

  async get(key: string, opts: GetOptions = {}): Promise<Obj | null> {
    const kv = await this.getKV(key, opts);
    return kv ? decodeKV(kv) : null;
  }

  /** The object's served JSON spliced from the stored text, without parsing it. */
  async getEncoded(key: string, opts: GetOptions = {}): Promise<EncodedObject | null> {
    const kv = await this.getKV(key, opts);
    return kv ? servedJSON(kv.value, kv.modRevision) : null;
  }

  private async getKV(key: string, opts: GetOptions): Promise<KeyValue | null> {
    const plan = planGet(opts.resourceVersion);
    const kv = await this.kv.get(key);
    if (plan.kind === 'notOlderThan') {
      const cur = await this.kv.currentRevision();
      if (plan.rev > cur) throw new TooLargeResourceVersionError(plan.rev, cur, 0);
    }
    return kv;
  }

  list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    return this.listWith(prefix, opts, asObject);
  }

  /** list() with each item's served JSON spliced from the stored text (parsed only to match a selector). */
  listEncoded(prefix: string, opts: ListOptions = {}): Promise<EncodedListResult> {
    return this.listWith(prefix, opts, asEncoded);
  }

  private async listWith<T>(prefix: string, opts: ListOptions, item: ItemOf<T>): Promise<Omit<ListResult, 'items'> & { items: T[] }> {
    validateListOptions(opts);
    let startKey = prefix;
    let rev = 0;
    let fromContinue = false;
    if (opts.continue) {
      const c = decodeContinue(opts.continue, prefix);
      if (opts.resourceVersion && opts.resourceVersion !== '0') {
        throw new InvalidRequestError('specifying resource version is not allowed when using continue');
      }
      startKey = c.startKey;
      rev = c.rev > 0 ? c.rev : 0;
      fromContinue = true;
    } else {
      const plan = planList(opts);
      if (plan.kind === 'exact') rev = plan.rev;
      if (plan.kind === 'notOlderThan') {
        const cur = await this.kv.currentRevision();
        if (plan.rev > cur) throw new TooLargeResourceVersionError(plan.rev, cur, 0);
      }
    }
    try {
      return await this.readList(prefix, startKey, rev, opts, item);
    } catch (err) {
      if (err instanceof CompactedError && !(err instanceof ResourceExpiredError)) {
        if (fromContinue) {
          throw new ResourceExpiredError(INCONSISTENT_CONTINUE_MESSAGE, err.requested, err.compacted, encodeContinue(startKey, prefix, -1));
        }
        throw new ResourceExpiredError(EXPIRED_LIST_MESSAGE, err.requested, err.compacted);
      }
      if (err instanceof FutureRevisionError && !(err instanceof TooLargeResourceVersionError)) {
        throw new TooLargeResourceVersionError(err.requested, err.current, 0);
      }
      throw err;
    }
  }

  /** Reads pages at one revision until `limit` matching items or the end of the range. */
  private async readList<T>(prefix: string, startKey: string, rev: number, opts: ListOptions, item: ItemOf<T>): Promise<Omit<ListResult, 'items'> & { items: T[] }> {
    const end = rangeEnd(prefix);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const pred = opts.predicate;
    const filtering = !predicateEmpty(pred);
    const items: T[] = [];
    let key = startKey;
    let readRev = rev;
    let count: number | undefined;
    let lastKey = '';
    let hasMore = false;
    for (let round = 0; ; round++) {
      const pageLimit = limit ? (filtering ? Math.max(limit, this.filterChunk) : limit) : 0;
      const res = await this.kv.list(key, { end, revision: readRev, limit: pageLimit, count: round === 0 && limit > 0 && !filtering });
      readRev = res.revision;
      if (round === 0) count = res.count;
      let stoppedEarly = false;
      for (let i = 0; i < res.kvs.length; i++) {
        const kv = res.kvs[i];
        lastKey = kv.key;
        let parsed: Obj | undefined;
        if (filtering) {
          parsed = decodeKV(kv);
          if (!matchesObject(pred, parsed)) continue;
        }
        items.push(item(kv, parsed));
        if (limit && items.length === limit) {
          hasMore = i < res.kvs.length - 1 || res.more;
          stoppedEarly = true;
          break;
        }
      }
      if (stoppedEarly || !res.more) break;
      key = lastKey + '\x00';
    }
    const out: Omit<ListResult, 'items'> & { items: T[] } = { items, resourceVersion: String(readRev) };
    if (hasMore) {
      out.continue = encodeContinue(lastKey + '\x00', prefix, readRev);
      if (!filtering && count !== undefined) out.remainingItemCount = count - items.length;
    }
    return out;
  }

  async watch(keyOrPrefix: string, opts: WatchOptions): Promise<WatchStream> {
    validateWatchOptions(opts);
    const plan = planWatch(opts);
    const pred = opts.predicate;
    const recursive = opts.recursive;
    let kvw: KVWatcher | undefined;
    let typeInfo: { apiVersion?: string; kind?: string } = {};
    const q = new EventQueue(
      this.watchBuffer,
      () => kvw?.close(),
      () => kvw?.requestProgress?.(),
    );
    const bookmark = (rev: number, annotations?: Record<string, string>): WatchEvent => ({
      type: 'BOOKMARK',
      object: { ...typeInfo, metadata: { resourceVersion: String(rev), ...(annotations ? { annotations } : {}) } },
    });
    const cur = await this.kv.currentRevision();
    if (plan.start.kind === 'notOlderThan' && plan.start.rev > cur) {
      throw new TooLargeResourceVersionError(plan.start.rev, cur, 1);
    }
    let startRev: number;
    if (plan.initialEvents) {
      const state = recursive
        ? await this.kv.list(keyOrPrefix, { end: rangeEnd(keyOrPrefix) })
        : { kvs: [await this.kv.get(keyOrPrefix)].filter((x) => x !== null), revision: await this.kv.currentRevision() };
      for (const kv of state.kvs) {
        const obj = decodeKV(kv!);
        typeInfo = { apiVersion: obj.apiVersion, kind: obj.kind };
        if (matchesObject(pred, obj)) q.push({ type: 'ADDED', object: obj });
      }
      startRev = state.revision;
      if (plan.initialEventsEndBookmark) q.push(bookmark(startRev, { [ANNOTATION_INITIAL_EVENTS_END]: 'true' }));
    } else {
      startRev = plan.start.kind === 'exact' ? plan.start.rev : cur;
    }
    const onEvents = (events: KVEvent[]) => {
      for (const ev of events) {
        if (!recursive && ev.kv.key !== keyOrPrefix) continue;
        const out = this.toWatchEvent(ev, opts);
        if (!out) continue;
        typeInfo = { apiVersion: out.object.apiVersion, kind: out.object.kind };
        if (!q.push(out)) return;
      }
    };
    try {
      kvw = this.kv.watch(keyOrPrefix, {
        afterRevision: startRev,
        onEvents,
        onError: (err) => {
          // a start revision the backend found compacted only once the watch ran
          if (err instanceof CompactedError) q.push({ type: 'ERROR', object: statusObject(410, 'Expired', WATCH_TOO_OLD_MESSAGE) });
          q.end();
        },
        onProgress: (rev) => {
          if (opts.allowWatchBookmarks) q.push(bookmark(rev));
        },
      });
      if (!kvw.requestProgress) q.progressSupported = false;
    } catch (err) {
      if (!(err instanceof CompactedError)) throw err;
      q.push({ type: 'ERROR', object: statusObject(410, 'Expired', WATCH_TOO_OLD_MESSAGE) });
      q.end();
    }
    return q;
  }

  private toWatchEvent(ev: KVEvent, opts: WatchOptions): WatchEvent | null {
    const pred = opts.predicate;
    const kind = ev.type === 'DELETE' ? 'delete' : ev.prevKv ? 'update' : 'create';
    const filtering = !predicateEmpty(pred);
    const cur = ev.type === 'PUT' ? decodeKV(ev.kv) : null;
    const old = ev.prevKv && (kind === 'delete' || filtering) ? decodeValue(ev.prevKv.value, ev.kv.modRevision) : null;
    const t = filtering ? transition(kind, old ? matchesObject(pred, old) : false, cur ? matchesObject(pred, cur) : false) : transition(kind, true, true);
    if (!t) return null;
    const object = t.useOld ? old : cur;
    if (!object) return null;
    if (t.useOld) setResourceVersion(object, ev.kv.modRevision);
    // the served JSON rides along, spliced from the stored text (the watch cache keeps it)
    const json = servedJSON(t.useOld ? ev.prevKv!.value : ev.kv.value, ev.kv.modRevision).json;
    return { type: t.type, object, json };
  }

  async guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions): Promise<Obj> {
    const cachedRev = Number(opts.cached?.metadata?.resourceVersion);
    for (let attempt = 0; ; attempt++) {
      // the caller's copy first (no read), when it has a revision; storage's after that
      const guess = attempt === 0 && Number.isSafeInteger(cachedRev) && cachedRev > 0 ? opts.cached! : undefined;
      const kv = guess ? undefined : await this.kv.get(key);
      if (!guess && !kv && !opts.ignoreNotFound) throw new NotFoundError(key);
      const current = guess ?? (kv ? decodeKV(kv) : null);
      if (current) {
        try {
          checkPreconditions(key, opts.preconditions, current);
        } catch (err) {
          if (guess) continue;
          throw err;
        }
      }
      const next = await opts.tryUpdate(current ? structuredClone(current) : null);
      const value = encodeObject(next);
      try {
        if (current && (value === kv?.value || sameObject(next, current))) {
          // nothing to write: true only of the stored object, not of a copy that may be stale
          if (guess) continue;
          return current;
        }
        checkRequestSize(key, value, this.maxRequestBytes);
        if (!current) return decodeKV(await this.kv.create(key, value));
        return decodeKV(await this.kv.update(key, value, guess ? cachedRev : kv!.modRevision));
      } catch (err) {
        // Someone wrote in between: read again and re-apply.
        if ((err instanceof ConflictError || err instanceof KeyExistsError || err instanceof NotFoundError) && attempt < 1000) continue;
        throw err;
      }
    }
  }

  async delete(
    key: string,
    opts: {
      preconditions?: Preconditions;
      validateDeletion?: (current: Obj) => void | Promise<void>;
    } = {},
  ): Promise<Obj> {
    for (let attempt = 0; ; attempt++) {
      const kv = await this.kv.get(key);
      if (!kv) throw new NotFoundError(key);
      const current = decodeKV(kv);
      checkPreconditions(key, opts.preconditions, current);
      if (opts.validateDeletion) await opts.validateDeletion(structuredClone(current));
      try {
        const deleted = await this.kv.delete(key, kv.modRevision);
        return decodeValue(deleted.value, deleted.modRevision);
      } catch (err) {
        if (err instanceof ConflictError && attempt < 1000) continue;
        throw err;
      }
    }
  }

  async count(prefix: string): Promise<number> {
    const res = await this.kv.list(prefix, { end: rangeEnd(prefix), limit: 1, count: true });
    return res.count ?? 0;
  }

  currentRevision(): Promise<number> {
    return this.kv.currentRevision();
  }

  revisionNow(): number | undefined {
    return this.kv.revisionNow?.();
  }

  async close(): Promise<void> {
    /* the KV is owned by whoever opened it */
  }
}
