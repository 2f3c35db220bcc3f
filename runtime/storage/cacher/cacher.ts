// The watch cache of one resource type (one key prefix): the current state in
// memory plus a ring of recent events, fed by one watch on the inner Storage.
// Serves gets, lists and watches from memory with kube-apiserver's
// resourceVersion semantics (delegating to the inner Storage where upstream's
// cacher does: Exact matches, pages at an older revision; a page at the
// cache's own revision is the same from memory, see cachedList), writes
// through, and fans each event out to every watcher as one shared WatchEvent
// (serialized once per wire format), in sweeps that run after the write was
// answered (fanout.ts). Consistent reads (no
// resourceVersion), gets as well as lists, wait until the cache has reached
// the store's current revision and are then answered from memory: what 1.31's
// ConsistentListFromCache does for lists, applied to gets too. The cache keeps
// each object as its served JSON's bytes (entry.ts), not as a parsed object:
// gets parse a copy, lists and gets as JSON (listEncoded/getEncoded) hand the
// entries on, whose bytes are written out as they are. With primeOnFirstUse
// the cache lists nothing until its first read or watch: it notes the
// store's revision when it is made, and its first use lists at that revision
// and follows from there, so it answers as a cache primed when it was made
// would (a watch from any revision since is served from its ring); only when
// the store has compacted that revision away does it list at the latest one.
import {
  CompactedError,
  InvalidRequestError,
  type EncodedListResult,
  type EncodedObject,
  type GetOptions,
  type GuaranteedUpdateOptions,
  type ListOptions,
  type ListResult,
  type Obj,
  type ObjectAttrs,
  type Preconditions,
  type Storage,
  type WatchEvent,
  type WatchOptions,
  type WatchStream,
} from '../interface.ts';
import type { Maybe } from '../../api/maybe.ts';
import { TooLargeResourceVersionError } from '../errors.ts';
import { planGet, planList, planWatch, validateListOptions, validateWatchOptions, type ReadPlan } from '../semantics/options.ts';
import { matchesAttrs, predicateEmpty, statusObject, transition } from '../semantics/predicate.ts';
import { EventQueue } from '../stream/event-queue.ts';
import { EventRing, sharedEvent, type CacheEvent } from './ring.ts';
import { Fanout } from './fanout.ts';
import { cacheEvent, EntryFactory, initialEvent, parseEntry, type Entry } from './entry.ts';
import { SortedKeys } from './sorted-keys.ts';
import type { ByteArena } from './byte-arena.ts';
import { decodeContinue, encodeContinue } from '../kvstore/continue.ts';
import { objectKey } from '../../api/keys.ts';
import { ANNOTATION_INITIAL_EVENTS_END } from '../../api/k8s-names.ts';

export interface CacherOptions {
  /** The resource type's key prefix, ending with '/'. */
  prefix: string;
  /** Labels and selectable fields of an object. */
  attrs: (obj: Obj) => ObjectAttrs;
  /** The key of an object (default: prefix + [namespace/]name). */
  keyOf?: (obj: Obj) => string;
  /** How long events stay in the ring (default 5 minutes). */
  historyWindowMs?: number;
  /** Ring capacity in events (default 100000). */
  maxEvents?: number;
  /** Events buffered per watcher before it is cut off (default 1000). */
  watchBuffer?: number;
  /** Bookmark period for watchers that allow them (default 60 s). */
  bookmarkIntervalMs?: number;
  /** How long a read waits for the cache to reach a version (default 3 s). */
  freshnessTimeoutMs?: number;
  /** Time a turn of the event loop may spend handing events to watchers, in ms (default 1). */
  fanoutSliceMs?: number;
  /** The largest share of the time the fan-out takes while writes keep coming (fanout.ts; default 0.1). */
  fanoutBusyShare?: number;
  /** apiVersion/kind put on BOOKMARK objects (default: those of the objects seen). */
  apiVersion?: string;
  kind?: string;
  /** Where the objects' JSON bytes are kept (default: the arena every watch cache of the process shares). */
  arena?: ByteArena;
  /** List and follow the store on the first read or watch, at the revision the cache was made at (default false: at once). */
  primeOnFirstUse?: boolean;
}

interface Watcher {
  q: EventQueue;
  key: string;
  recursive: boolean;
  opts: WatchOptions;
  /** Deliver only events after this revision. */
  startRev: number;
  /** Every change up to this revision has been handed to the watcher (or did not concern it). */
  sentRev: number;
  /** Its predicate selects everything (no label or field selector). */
  unfiltered: boolean;
}

/** The events the last watcher of a sweep was handed, and how it watches: the next one that watches the same way gets the same. */
interface LastDelivery {
  items: readonly FanItem[] | null;
  key: string;
  recursive: boolean;
  bookmarks: boolean;
  predicate: WatchOptions['predicate'];
  events: WatchEvent[];
}

/** A periodic BOOKMARK, fanned out in order with the changes; its event is built once. */
interface BookmarkItem {
  bookmark: true;
  rev: number;
  ev?: WatchEvent;
}
type FanItem = CacheEvent | BookmarkItem;

/** A list answered from memory: the entries, and a page's continue token and remaining count. */
interface CachedList {
  items: Entry[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

export const TOO_OLD_WATCH = (rev: number, oldest: number) => `too old resource version: ${rev} (${oldest})`;

export class Cacher implements Storage {
  readonly prefix: string;
  private store = new Map<string, Entry>();
  private keys = new SortedKeys();
  private ring: EventRing<Entry>;
  private rev = 0;
  /** The first list and the start of the follow; undefined until the first use with primeOnFirstUse. */
  private ready: Promise<void> | undefined;
  /** With primeOnFirstUse: the store's revision when the cache was made, the one its first list reads at. */
  private madeAtRev: number | undefined;
  /** The last (re)list finished and the cache follows the store (reads need not wait for ready). */
  private following = false;
  private readyError: Error | null = null;
  private inner: Storage;
  private innerStream?: WatchStream;
  private watchers: Fanout<FanItem, Watcher>;
  private waiters: { rev: number; resolve: (ok: boolean) => void }[] = [];
  private bookmarkTimer: NodeJS.Timeout;
  private closed = false;
  private typeInfo: { apiVersion?: string; kind?: string };
  private entries: EntryFactory;
  private opts: Required<Pick<CacherOptions, 'historyWindowMs' | 'maxEvents' | 'watchBuffer' | 'freshnessTimeoutMs'>> & CacherOptions;

  constructor(inner: Storage, opts: CacherOptions) {
    if (!opts.prefix.endsWith('/')) throw new Error(`cacher prefix must end with '/': ${opts.prefix}`);
    this.inner = inner;
    this.prefix = opts.prefix;
    this.opts = {
      ...opts,
      historyWindowMs: opts.historyWindowMs ?? 5 * 60_000,
      maxEvents: opts.maxEvents ?? 100_000,
      watchBuffer: opts.watchBuffer ?? 1000,
      freshnessTimeoutMs: opts.freshnessTimeoutMs ?? 3000,
    };
    this.typeInfo = { apiVersion: opts.apiVersion, kind: opts.kind };
    this.entries = new EntryFactory(opts.attrs, opts.arena);
    this.ring = this.newRing(0);
    this.watchers = new Fanout<FanItem, Watcher>({
      deliver: (w, items) => this.deliverBatch(w, items),
      sliceMs: opts.fanoutSliceMs,
      busyShare: opts.fanoutBusyShare,
      // once every watcher has a change, the objects built for it are let go (the ring keeps the entries only)
      settled: (items) => {
        for (const item of items) if (!('bookmark' in item)) item.release?.();
        if (this.lastDelivery.items === items) {
          this.lastDelivery.items = null;
          this.lastDelivery.events = [];
        }
      },
    });
    this.madeAtRev = opts.primeOnFirstUse ? inner.revisionNow?.() : undefined;
    // (a failed first list is reported to the reads that wait for it)
    if (this.madeAtRev === undefined) void this.prime();
    this.bookmarkTimer = setInterval(() => this.sendBookmarks(), opts.bookmarkIntervalMs ?? 60_000);
    this.bookmarkTimer.unref();
  }

  /** An empty ring of events after rev; the events it answers with are made from its entries, their objects parsed when asked for. */
  private newRing(rev: number): EventRing<Entry> {
    return new EventRing<Entry>(rev, this.opts.historyWindowMs, this.opts.maxEvents, (kind, cur, r, prev, at) => cacheEvent(kind, cur, r, prev, undefined, at));
  }

  private keyOf(obj: Obj): string {
    if (this.opts.keyOf) return this.opts.keyOf(obj);
    return objectKey(this.prefix, obj.metadata?.namespace, obj.metadata?.name as string);
  }

  /** An entry for an object as it arrived (with its JSON when the source had it). */
  private entry(key: string, obj: Obj, json?: string): Entry {
    return this.entries.make(key, obj, json ?? JSON.stringify(obj));
  }

  /** The first list and follow (at the revision the cache was made at, with primeOnFirstUse), started once. */
  private prime(): Promise<void> {
    if (!this.ready) {
      let at = this.madeAtRev;
      this.madeAtRev = undefined;
      // an empty store (revision 0) has nothing to list and no exact revision 0 to follow from: revision 1 is
      // the next one after it (the first write's), and while nothing was written the latest list is the same
      if (at === 0) at = (this.inner.revisionNow?.() ?? 0) >= 1 ? 1 : undefined;
      this.ready = this.start(at);
      this.ready.catch(() => undefined);
    }
    return this.ready;
  }

  /** Lists the inner storage (at revision `at`, else the latest) and starts following it. */
  private start(at?: number): Promise<void> {
    this.following = false;
    return this.relist(at).then(() => {
      this.following = !this.closed;
    });
  }

  /** The whole prefix, at revision `at` when storage still has it, else at the latest. */
  private async listAll(at: number | undefined): Promise<ListResult | EncodedListResult> {
    const opts: ListOptions = at === undefined ? {} : { resourceVersion: String(at), resourceVersionMatch: 'Exact' };
    try {
      // the JSON when the inner storage has it, each item parsed in turn only for its key and the selectors' attributes
      return this.inner.listEncoded ? await this.inner.listEncoded(this.prefix, opts) : await this.inner.list(this.prefix, opts);
    } catch (err) {
      if (at === undefined || !(err instanceof CompactedError)) throw err;
      return this.listAll(undefined);
    }
  }

  private async relist(at?: number): Promise<void> {
    const list = await this.listAll(at);
    const encoded = this.inner.listEncoded ? (list as EncodedListResult) : undefined;
    const parsed = encoded ? undefined : (list as ListResult);
    for (const e of this.store.values()) this.entries.retire(e);
    this.store.clear();
    this.keys.clear();
    const n = list.items.length;
    for (let i = 0; i < n; i++) {
      const json = encoded?.items[i].json;
      const obj = json === undefined ? parsed!.items[i] : (JSON.parse(json) as Obj);
      const key = this.keyOf(obj);
      this.store.set(key, this.entry(key, obj, json));
      this.keys.insert(key);
      this.noteType(obj);
    }
    this.rev = Number(list.resourceVersion);
    this.ring = this.newRing(this.rev);
    this.innerStream = await this.inner.watch(this.prefix, {
      recursive: true,
      resourceVersion: list.resourceVersion,
      allowWatchBookmarks: true,
    });
    void this.follow(this.innerStream);
  }

  private noteType(obj: Obj): void {
    if (!this.opts.kind && obj.kind) this.typeInfo = { apiVersion: obj.apiVersion, kind: obj.kind };
  }

  private async follow(stream: WatchStream): Promise<void> {
    try {
      for await (const ev of stream) {
        if (this.closed) return;
        if (ev.type === 'ERROR') break;
        this.apply(ev);
      }
    } catch {
      /* fall through to a relist */
    }
    if (this.closed) return;
    // The inner watch ended (compaction, backend restart): hand out what was owed, terminate watchers and relist.
    this.watchers.flush();
    for (const w of [...this.watchers]) w.q.end();
    this.watchers.clear();
    const ready = this.start();
    this.ready = ready;
    ready.catch((err) => {
      this.readyError = err;
    });
  }

  /** Applies one event of the inner watch to the state, the ring and the watchers. */
  private apply(ev: WatchEvent): void {
    const rev = Number(ev.object.metadata?.resourceVersion ?? 0);
    if (ev.type === 'BOOKMARK') {
      if (rev > this.rev) this.advance(rev);
      return;
    }
    const obj = ev.object;
    const key = this.keyOf(obj);
    const prev = this.store.get(key);
    const cur = this.entry(key, obj, ev.json);
    let kind: CacheEvent['kind'];
    if (ev.type === 'DELETED') {
      kind = 'delete';
      this.store.delete(key);
      this.keys.remove(key);
      // the last state is the ring's only
      this.entries.retire(cur);
    } else {
      kind = prev ? 'update' : 'create';
      this.store.set(key, cur);
      if (!prev) this.keys.insert(key);
    }
    if (prev) this.entries.retire(prev);
    this.noteType(obj);
    // the watchers get the object the change arrived with; the ring keeps the entries only
    const at = Date.now();
    this.ring.push(kind, cur, rev, prev, at);
    this.watchers.publish(cacheEvent(kind, cur, rev, prev, obj, at));
    this.advance(rev);
  }

  private advance(rev: number): void {
    if (rev <= this.rev) return;
    this.rev = rev;
    if (this.waiters.length) {
      const still: typeof this.waiters = [];
      for (const w of this.waiters) w.rev <= rev ? w.resolve(true) : still.push(w);
      this.waiters = still;
    }
  }

  /**
   * One sweep's items for one watcher, in order, handed over together (one
   * wake of its stream, so a socket writer writes them at once); nothing
   * once its stream is closed (cut off or stopped).
   */
  private deliverBatch(w: Watcher, items: readonly FanItem[]): void {
    if (w.q.closed || items.length === 0) return;
    const out = this.batchFor(w, items);
    if (out.length) w.q.pushAll(out);
    w.sentRev = Math.max(w.sentRev, items[items.length - 1].rev);
  }

  /**
   * A batch's events for one watcher. Most watchers of a sweep watch the same
   * way (the same key, no selector, bookmarks or not, started before the
   * batch): those are handed the array made for the one before, so a sweep
   * filters its items once per way of watching, not once per watcher.
   */
  private batchFor(w: Watcher, items: readonly FanItem[]): readonly WatchEvent[] {
    const last = this.lastDelivery;
    const bookmarks = !!w.opts.allowWatchBookmarks;
    // a watcher that started within the batch skips some of it: its events are its own
    const whole = w.startRev < items[0].rev;
    if (
      whole &&
      last.items === items &&
      last.key === w.key &&
      last.recursive === w.recursive &&
      last.bookmarks === bookmarks &&
      (w.unfiltered ? last.predicate === undefined : last.predicate === w.opts.predicate)
    ) {
      return last.events;
    }
    const out: WatchEvent[] = [];
    for (const item of items) {
      if ('bookmark' in item) {
        if (!bookmarks || item.rev < w.startRev) continue;
        item.ev ??= { type: 'BOOKMARK', object: { ...this.typeInfo, metadata: { resourceVersion: String(item.rev) } }, encoded: new Map() };
        out.push(item.ev);
      } else {
        const ev = this.eventFor(w, item);
        if (ev) out.push(ev);
      }
    }
    if (whole) {
      last.items = items;
      last.key = w.key;
      last.recursive = w.recursive;
      last.bookmarks = bookmarks;
      last.predicate = w.unfiltered ? undefined : w.opts.predicate;
      last.events = out;
    }
    return out;
  }
  private readonly lastDelivery: LastDelivery = { items: null, key: '', recursive: false, bookmarks: false, predicate: undefined, events: [] };

  /** The event a change makes for a watcher (shared with every watcher that gets the same one), or none. */
  private eventFor(w: Watcher, ce: CacheEvent): WatchEvent | undefined {
    if (ce.rev <= w.startRev) return undefined;
    if (w.recursive ? !ce.key.startsWith(w.key) : ce.key !== w.key) return undefined;
    const pred = w.opts.predicate;
    let t;
    if (predicateEmpty(pred)) {
      t = transition(ce.kind, true, true);
    } else {
      const prevMatches = ce.prevAttrs ? matchesAttrs(pred, ce.prevAttrs) : false;
      const curMatches = ce.kind === 'delete' ? false : matchesAttrs(pred, ce.attrs);
      t = transition(ce.kind, ce.kind === 'delete' ? matchesAttrs(pred, ce.attrs) : prevMatches, curMatches);
    }
    if (!t) return undefined;
    return sharedEvent(ce, t.type, t.useOld && ce.kind !== 'delete');
  }

  /** Waits until the cache has seen revision `rev`; false on timeout. */
  private waitFresh(rev: number): Promise<boolean> {
    if (this.rev >= rev) return Promise.resolve(true);
    // a feed that cannot report progress may never show a revision of another resource
    if (this.innerStream?.progressSupported === false) return Promise.resolve(false);
    this.innerStream?.requestProgress?.();
    return new Promise((resolve) => {
      const entry = {
        rev,
        resolve: (ok: boolean) => {
          clearTimeout(timer);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== entry);
        resolve(false);
      }, this.opts.freshnessTimeoutMs);
      this.waiters.push(entry);
    });
  }

  private async awaitReady(): Promise<void> {
    await this.prime();
    if (this.readyError) throw this.readyError;
  }

  /** Brings the cache to the freshness a plan needs; false when a consistent read timed out. */
  private async freshen(plan: ReadPlan): Promise<boolean> {
    await this.awaitReady();
    if (plan.kind === 'consistent') {
      // a feed that cannot report progress cannot be waited on: storage answers, without asking it its revision first
      if (this.innerStream?.progressSupported === false) return false;
      return this.waitFresh(await this.inner.currentRevision());
    }
    if (plan.kind === 'notOlderThan') {
      if (!(await this.waitFresh(plan.rev))) throw new TooLargeResourceVersionError(plan.rev, this.rev, 1);
    }
    return true;
  }

  // ---------------------------------------------------------------------------
  // Storage

  create(key: string, obj: Obj): Promise<Obj> {
    return this.inner.create(key, obj);
  }

  guaranteedUpdate(key: string, opts: GuaranteedUpdateOptions): Promise<Obj> {
    return this.inner.guaranteedUpdate(key, opts);
  }

  delete(key: string, opts?: { preconditions?: Preconditions; validateDeletion?: (current: Obj) => void | Promise<void> }): Promise<Obj> {
    return this.inner.delete(key, opts);
  }

  count(prefix: string): Promise<number> {
    return this.inner.count(prefix);
  }
  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }

  async get(key: string, opts: GetOptions = {}): Promise<Obj | null> {
    if (!key.startsWith(this.prefix)) return this.inner.get(key, opts);
    const e = await this.cachedGet(key, opts);
    if (e === undefined) return this.inner.get(key, opts);
    return e && parseEntry(e);
  }

  /**
   * The object's served JSON. At once (no promise) when the cache is known to
   * be fresh enough already: for a read without resourceVersion, the cache
   * has seen the store's current revision (every acknowledged write), which
   * the store knows in memory; else as get(), waiting for the cache or
   * asking storage.
   */
  getEncoded(key: string, opts: GetOptions = {}): Maybe<EncodedObject | null> {
    if (!key.startsWith(this.prefix)) return this.innerGetEncoded(key, opts);
    const now = this.freshEntry(key, opts.resourceVersion);
    if (now !== undefined) return now;
    return this.getEncodedLater(key, opts);
  }

  private async getEncodedLater(key: string, opts: GetOptions): Promise<EncodedObject | null> {
    const e = await this.cachedGet(key, opts);
    if (e === undefined) return this.innerGetEncoded(key, opts);
    return e;
  }

  /** The entry (null: missing) when the cache is known now to be fresh enough for a get at `resourceVersion`; undefined when that needs waiting or asking. */
  private freshEntry(key: string, resourceVersion: string | undefined): Entry | null | undefined {
    if (!this.following || this.closed) return undefined;
    let plan: ReadPlan;
    try {
      plan = planGet(resourceVersion);
    } catch {
      return undefined; // the asynchronous path reports a bad resourceVersion
    }
    let need: number | undefined;
    if (plan.kind === 'consistent') need = this.inner.revisionNow?.();
    else if (plan.kind === 'notOlderThan') need = plan.rev;
    else if (plan.kind === 'any') need = 0;
    if (need === undefined || this.rev < need) return undefined;
    return this.store.get(key) ?? null;
  }

  /** The entry (null: missing) once the cache is fresh enough; undefined when storage must answer. */
  private async cachedGet(key: string, opts: GetOptions): Promise<Entry | null | undefined> {
    const plan = planGet(opts.resourceVersion);
    // a consistent get waits for the cache to reach the store's current revision (as a list does); storage answers if it cannot
    if (!(await this.freshen(plan))) return undefined;
    return this.store.get(key) ?? null;
  }

  private async innerGetEncoded(key: string, opts: GetOptions): Promise<EncodedObject | null> {
    if (this.inner.getEncoded) return this.inner.getEncoded(key, opts);
    const obj = await this.inner.get(key, opts);
    return obj && { json: JSON.stringify(obj), apiVersion: typeof obj.apiVersion === 'string' ? obj.apiVersion : '' };
  }

  /** Lists from memory when upstream's cacher would; every item is a fresh copy. */
  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    const cached = await this.cachedList(prefix, opts);
    if (!cached) return this.inner.list(prefix, opts);
    return { ...cached, items: cached.items.map(parseEntry) };
  }

  /** list() as the items' JSON: from memory, the cached strings themselves. */
  async listEncoded(prefix: string, opts: ListOptions = {}): Promise<EncodedListResult> {
    const cached = await this.cachedList(prefix, opts);
    if (cached) return cached;
    if (this.inner.listEncoded) return this.inner.listEncoded(prefix, opts);
    const l = await this.inner.list(prefix, opts);
    return { ...l, items: l.items.map((o) => ({ json: JSON.stringify(o), apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : '' })) };
  }

  /**
   * The matching entries when the cache answers the list; null when storage
   * must. Upstream 1.31's shouldDelegateList sends continue tokens, a limit
   * with a resourceVersion other than 0, and Exact matches to etcd. Here a
   * page is answered from memory only where that gives exactly what storage
   * would: a first page read at the latest revision (no resourceVersion, or
   * NotOlderThan one the cache has reached) and a continue token whose
   * revision is the cache's own (nothing under the prefix changed since the
   * page before it), with the same continue token and remainingItemCount.
   * Any other page (an older revision, Exact, a token storage must judge)
   * goes to storage, which also answers 410 for a compacted one.
   */
  private async cachedList(prefix: string, opts: ListOptions): Promise<CachedList | null> {
    validateListOptions(opts);
    if (opts.resourceVersionMatch === 'Exact' || !prefix.startsWith(this.prefix)) return null;
    // resourceVersion=0 is served from the cache whole (upstream ignores the limit there)
    const limit = opts.limit && opts.limit > 0 && opts.resourceVersion !== '0' ? opts.limit : 0;
    if (opts.continue) {
      if (opts.resourceVersion) return null;
      let token;
      try {
        token = decodeContinue(opts.continue, prefix);
      } catch {
        return null; // storage gives the error
      }
      await this.awaitReady();
      // no await from here on: the page is read at the revision checked
      if (token.rev !== this.rev) return null;
      return this.page(prefix, token.startKey, limit, opts);
    }
    const plan = planList(opts);
    if (limit && plan.kind !== 'consistent') {
      if (plan.kind !== 'notOlderThan') return null;
      // storage answers a version the cache has not reached (at once, as etcd would), not a wait here
      await this.awaitReady();
      if (this.rev < plan.rev) return null;
    }
    if (!(await this.freshen(plan))) return null;
    return this.page(prefix, prefix, limit, opts);
  }

  /** Up to `limit` (0: all) matching entries from startKey on, at the cache's revision, as storage pages them. */
  private page(prefix: string, startKey: string, limit: number, opts: ListOptions): CachedList {
    const pred = opts.predicate;
    const filtering = !predicateEmpty(pred);
    const { keys, start, end } = this.keys.span(prefix, startKey);
    const items: Entry[] = [];
    let i = start;
    let more = false;
    for (; i < end; i++) {
      const e = this.store.get(keys[i])!;
      if (filtering && !matchesAttrs(pred, e.attrs)) continue;
      items.push(e);
      if (limit && items.length === limit) {
        more = i + 1 < end;
        break;
      }
    }
    const out: CachedList = { items, resourceVersion: String(this.rev) };
    if (more) {
      out.continue = encodeContinue(keys[i] + '\x00', prefix, this.rev);
      // as storage: the keys after the page, counted only when no selector filters them
      if (!filtering) out.remainingItemCount = end - i - 1;
    }
    return out;
  }

  async watch(keyOrPrefix: string, opts: WatchOptions): Promise<WatchStream> {
    validateWatchOptions(opts);
    const plan = planWatch(opts);
    if (!keyOrPrefix.startsWith(this.prefix)) return this.inner.watch(keyOrPrefix, opts);
    if (plan.start.kind === 'exact') await this.awaitReady();
    // a feed that cannot report progress: start at the cache's revision, as kube-apiserver's cache does without consistent reads
    else if (!(await this.freshen(plan.start)) && plan.start.kind === 'consistent' && this.innerStream?.progressSupported !== false) {
      throw new TooLargeResourceVersionError(await this.inner.currentRevision(), this.rev, 1);
    }
    if (this.closed) throw new InvalidRequestError('storage closed');
    // From here on, no await: the snapshot and the registration see the same state.
    const w: Watcher = { q: undefined as unknown as EventQueue, key: keyOrPrefix, recursive: opts.recursive, opts, startRev: this.rev, sentRev: 0, unfiltered: predicateEmpty(opts.predicate) };
    w.q = new EventQueue(
      this.opts.watchBuffer,
      () => this.watchers.delete(w),
      () => this.bookmark(w),
    );
    const pred = opts.predicate;
    const filtering = !predicateEmpty(pred);
    if (plan.initialEvents) {
      const keys = opts.recursive ? this.keys.range(keyOrPrefix) : this.store.has(keyOrPrefix) ? [keyOrPrefix] : [];
      for (const key of keys) {
        const e = this.store.get(key)!;
        if (filtering && !matchesAttrs(pred, e.attrs)) continue;
        w.q.pushInitial(initialEvent(e));
      }
      if (plan.initialEventsEndBookmark) {
        w.q.pushInitial({
          type: 'BOOKMARK',
          object: { ...this.typeInfo, metadata: { resourceVersion: String(this.rev), annotations: { [ANNOTATION_INITIAL_EVENTS_END]: 'true' } } },
        });
      }
    } else if (plan.start.kind === 'exact') {
      w.startRev = plan.start.rev;
      const backlog = this.ring.since(plan.start.rev);
      if (backlog === null) {
        w.q.push({ type: 'ERROR', object: statusObject(410, 'Expired', TOO_OLD_WATCH(plan.start.rev, this.ring.oldestRev)) });
        w.q.end();
        return w.q;
      }
      // Deliver the backlog as if live, then register.
      w.startRev = plan.start.rev;
      for (const ce of backlog) {
        const ev = this.eventFor(w, ce);
        if (ev && !w.q.push(ev)) break;
      }
      // the events built for it stay with this watcher, not in the ring
      for (const ce of backlog) ce.shared = undefined;
      w.startRev = Math.max(plan.start.rev, this.rev);
    }
    if (!w.q.closed) this.watchers.add(w);
    return w.q;
  }

  /** A progress request: a BOOKMARK at the revision up to which the watcher has been handed every change. */
  private bookmark(w: Watcher): void {
    if (!w.opts.allowWatchBookmarks || this.rev < w.startRev) return;
    const rev = Math.max(w.startRev, w.sentRev);
    w.q.push({ type: 'BOOKMARK', object: { ...this.typeInfo, metadata: { resourceVersion: String(rev) } } });
  }

  /** Sends one shared BOOKMARK to every watcher that allows them, after the changes fanned out before it. */
  sendBookmarks(): void {
    this.watchers.publish({ bookmark: true, rev: this.rev });
  }

  /**
   * Forgets the event history (watches from any earlier version then get 410
   * Expired), as a cache does when it must shed memory.
   */
  dropHistory(): void {
    this.ring = this.newRing(this.rev);
  }

  /** Number of open watchers (for tests and metrics). */
  get watcherCount(): number {
    return this.watchers.size;
  }
  /** The cache's revision (for tests and metrics). */
  get cacheRevision(): number {
    return this.rev;
  }
  /** Resolves once the initial list is loaded. */
  whenReady(): Promise<void> {
    return this.awaitReady();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.bookmarkTimer);
    for (const w of this.waiters) w.resolve(false);
    this.waiters = [];
    this.watchers.flush();
    for (const w of [...this.watchers]) w.q.end();
    this.watchers.clear();
    await this.ready?.catch(() => undefined);
    this.innerStream?.stop();
    // the entries stay readable; the arena no longer counts them as current
    for (const e of this.store.values()) this.entries.retire(e);
  }
}
