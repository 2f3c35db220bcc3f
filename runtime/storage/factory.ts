// Opens the storage stack the server runs on: the SQLite revision log
// (<dataDir>/specserver.db, or in memory) or etcd (--etcd-servers; no database
// file then, values as kube-apiserver stores them, with its compaction loop;
// --etcd-servers-overrides puts a resource in etcd servers of its own), one KVStorage over it, and one
// watch cache per resource prefix (unless disabled; each lists the store on
// its first read or watch, at the revision it was made at). The only place that
// wires the layers together. Opening a file takes its exclusive lock and
// checks that every stored value is an object (see sqlite/open-errors.ts for
// the refusals, sqlite/quarantine.ts for the way past unreadable values).
import fs from 'node:fs';
import path from 'node:path';
import type { KV, ObjectAttrs, Obj, Storage } from './interface.ts';
import { openSqliteKV } from './sqlite/index.ts';
import { openEtcdKV, EtcdCompactor, protobufValues } from './etcd/index.ts';
import type { UnreadableRow } from './sqlite/open-errors.ts';
import type { OwnerRecord } from './sqlite/owner.ts';
import { KVStorage } from './kvstore/index.ts';
import { Cacher, type CacherOptions } from './cacher/index.ts';
import { keyRoot } from '../api/keys.ts';

export interface OpenStorageOptions {
  /** Directory of the database; undefined: in memory. */
  dataDir?: string;
  /** History kept for watches, exact reads and continue tokens (default 5 minutes). */
  historyWindowMs?: number;
  /** Serve reads and watches from per-type caches (default true). */
  watchCache?: boolean;
  /** Extra options for every cache (bookmark period, buffer sizes). */
  cacher?: Partial<Omit<CacherOptions, 'prefix' | 'attrs'>>;
  /** Move stored values that cannot be read into the quarantine table instead of refusing to open. */
  quarantineUnreadable?: boolean;
  /** Where storage state changes are reported (commits failing, recovering). */
  log?: (msg: string) => void;
  /** Test only: SQLite's max_page_count and the readiness probe interval. */
  testing?: { maxPageCount?: number; probeIntervalMs?: number };
  /** Wraps the key-value layer the storages call (the server times the store's calls with it). */
  instrumentKV?: (kv: KV) => KV;
  /** Store in etcd instead of SQLite. */
  etcd?: EtcdStorageOptions;
}

export interface EtcdStorageOptions {
  servers: string[];
  /** Key prefix (default /registry). */
  prefix?: string;
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  /** Deadline of the health check (default 2 s). */
  healthcheckTimeoutMs?: number;
  /** Compaction loop interval (0: none; default 5 minutes). */
  compactionIntervalMs?: number;
  /** Deadline of each request (default 10 s). */
  requestTimeoutMs?: number;
  /** --etcd-servers-overrides: resources stored in etcd servers of their own (each its own client, KV, object layer and caches). */
  overrides?: { group: string; resource: string; servers: string[] }[];
}

export interface OpenedStorage {
  kv: KV;
  /** The object layer without caches (on etcd with overrides: the main servers'). */
  base: KVStorage;
  /** The object layer without caches that holds the keys under a resource's prefix (its override's, or base). */
  baseFor(prefix: string): KVStorage;
  storageFor(prefix: string, attrs: (obj: Obj) => ObjectAttrs): Storage;
  /** null while writes can commit; otherwise why not (readiness reports it). */
  commitHealth(): Error | null;
  /** Where the store is remote (etcd): a request with the health-check deadline; null when it answered. */
  ping?(): Promise<Error | null>;
  /** What the open found: rows moved into quarantine now, rows quarantined before, a previous owner that was killed. */
  report: { file?: string; quarantined: UnreadableRow[]; quarantinedEarlier: number; previousOwner: OwnerRecord | null };
  /** Records the URL the owner serves at, for the message another process gets. */
  describeOwner(url: string): void;
  /** Test only: SQLite's max_page_count (returns the limit in effect). */
  setMaxPageCount(pages: number): number;
  pageCount(): number;
  close(): Promise<void>;
}

export const DB_FILE = 'specserver.db';

/** The object layer and the watch caches over a KV (the same for every backend). */
function layersOver(kv: KV, opts: OpenStorageOptions): { base: KVStorage; storageFor: OpenedStorage['storageFor']; closeCaches(): Promise<void> } {
  const called = opts.instrumentKV ? opts.instrumentKV(kv) : kv;
  const base = new KVStorage(called);
  // The caches' own feed is unbounded: a cache drains it in the same turn,
  // and cutting it off would end every client watch of the type.
  const cacheFeed = new KVStorage(called, { watchBuffer: Number.POSITIVE_INFINITY });
  const caches = new Map<string, Cacher>();
  const useCache = opts.watchCache ?? true;
  return {
    base,
    storageFor(prefix, attrs) {
      if (!useCache) return base;
      let c = caches.get(prefix);
      if (!c) {
        c = new Cacher(cacheFeed, { primeOnFirstUse: true, ...opts.cacher, prefix, attrs, historyWindowMs: opts.historyWindowMs });
        caches.set(prefix, c);
      }
      return c;
    },
    async closeCaches() {
      for (const c of caches.values()) await c.close();
    },
  };
}

export async function openStorage(opts: OpenStorageOptions = {}): Promise<OpenedStorage> {
  if (opts.etcd) return openEtcdStorage(opts, opts.etcd);
  let file = ':memory:';
  if (opts.dataDir !== undefined) {
    fs.mkdirSync(opts.dataDir, { recursive: true });
    file = path.join(opts.dataDir, DB_FILE);
  }
  const kv = openSqliteKV({
    path: file,
    historyWindowMs: opts.historyWindowMs,
    valueCheck: 'json-object',
    quarantineUnreadable: opts.quarantineUnreadable,
    log: opts.log,
    maxPageCount: opts.testing?.maxPageCount,
    probeIntervalMs: opts.testing?.probeIntervalMs,
  });
  const layers = layersOver(kv, opts);
  return {
    kv,
    base: layers.base,
    baseFor: () => layers.base,
    storageFor: layers.storageFor,
    commitHealth: () => kv.commitHealth(),
    report: {
      file: file === ':memory:' ? undefined : file,
      quarantined: kv.quarantined,
      quarantinedEarlier: kv.quarantinedEarlier,
      previousOwner: kv.previousOwner,
    },
    describeOwner: (url) => kv.describeOwner(url),
    setMaxPageCount: (pages) => kv.setMaxPageCount(pages),
    pageCount: () => kv.pageCount(),
    async close() {
      await layers.closeCaches();
      await kv.close();
    },
  };
}

/** The stack on etcd: the same KVStorage and caches over an EtcdKV; each override's resource over an EtcdKV of its own. */
async function openEtcdStorage(opts: OpenStorageOptions, e: EtcdStorageOptions): Promise<OpenedStorage> {
  const read = (f?: string) => (f ? fs.readFileSync(f) : undefined);
  // values as kube-apiserver stores them: protobuf where the kind has a message (the codec loads only now)
  const { loadKubeProtobuf } = await import('../codec/protobuf/index.ts');
  const values = protobufValues(await loadKubeProtobuf());
  const open = async (servers: string[]) => {
    const kv = await openEtcdKV({
      endpoints: servers,
      prefix: e.prefix,
      tls: e.caFile || e.certFile ? { ca: read(e.caFile), cert: read(e.certFile), key: read(e.keyFile) } : undefined,
      requestTimeoutMs: e.requestTimeoutMs,
      values,
    });
    // every etcd cluster has its own revisions: each is compacted on its own
    const compactor = new EtcdCompactor(kv, opts.log);
    compactor.start(e.compactionIntervalMs ?? 5 * 60_000);
    return { kv, compactor, layers: layersOver(kv, opts) };
  };
  const stacks: Awaited<ReturnType<typeof open>>[] = [];
  const closeAll = async () => {
    for (const st of stacks) {
      await st.compactor.stop();
      await st.layers.closeCaches();
      await st.kv.close();
    }
  };
  const byRoot = new Map<string, Awaited<ReturnType<typeof open>>>();
  try {
    stacks.push(await open(e.servers));
    for (const o of e.overrides ?? []) {
      const st = await open(o.servers);
      stacks.push(st);
      byRoot.set(keyRoot(o.group, o.resource), st);
    }
  } catch (err) {
    await closeAll();
    throw err;
  }
  const main = stacks[0];
  const stackOf = (prefix: string) => {
    for (const [root, st] of byRoot) if (prefix.startsWith(root)) return st;
    return main;
  };
  const healthTimeout = e.healthcheckTimeoutMs ?? 2000;
  return {
    kv: main.kv,
    base: main.layers.base,
    baseFor: (prefix) => stackOf(prefix).layers.base,
    storageFor: (prefix, attrs) => stackOf(prefix).layers.storageFor(prefix, attrs),
    // a write etcd refuses fails that request (500); there is no standing commit failure to report
    commitHealth: () => null,
    ping: async () => {
      for (const st of stacks) {
        const err = await st.kv.health(healthTimeout);
        if (err) return err;
      }
      return null;
    },
    report: { quarantined: [], quarantinedEarlier: 0, previousOwner: null },
    describeOwner: () => {},
    setMaxPageCount: () => 0,
    pageCount: () => 0,
    close: closeAll,
  };
}
