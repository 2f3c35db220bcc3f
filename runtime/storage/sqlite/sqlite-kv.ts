// The SQLite implementation of the KV contract (interface.ts): an append-only
// revision log with a current-state table beside it, group commit (every write
// arriving in the same event-loop turn shares one transaction; with
// synchronous FULL on a file the WAL's fsync runs off the main thread, the
// writes arriving while it runs share the transaction committed when it
// ends, and writes are acknowledged, watched and read only once the fsync
// after their commit is done: see wal-sync.ts),
// reads at a revision, watches from a revision, and background compaction that
// keeps a time window of history. A file is held with an exclusive lock for
// the store's life (one process per database), checked at open (structure,
// and optionally that every value is a JSON object), and the outcome of the
// last commit is kept for readiness. Knows nothing of Kubernetes objects.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  KeyExistsError,
  NotFoundError,
  StorageError,
  type KV,
  type KeyValue,
  type KVListOptions,
  type KVListResult,
  type KVWatcher,
  type KVWatchOptions,
} from '../interface.ts';
import { commitFailure } from '../errors.ts';
import { applyPragmas, DDL, prefixEnd, type SyncMode } from './schema.ts';
import { CommitHealth } from './commit-health.ts';
import { DataDirInUseError, DatabaseFileError, UnreadableRowsError, type UnreadableRow } from './open-errors.ts';
import { pidAlive, readOwner, removeOwner, writeOwner, type OwnerRecord } from './owner.ts';
import { findUnreadable, quarantineCount, quarantineRows } from './quarantine.ts';
import { WatchHub, type LogRow } from './watch-hub.ts';
import { compactChunk, prepareCompact, RevisionClock, type CompactStatements } from './compactor.ts';
import { WalSync, type SyncFn } from './wal-sync.ts';
import { sqliteAddon } from './addon.ts';

export interface SqliteKVOptions {
  /** Database file path, or ':memory:'. */
  path: string;
  /** History kept for reads at a revision and watches (default 5 minutes). */
  historyWindowMs?: number;
  /** How often the background compactor runs (default: a fifth of the window, at most 60 s). */
  compactIntervalMs?: number;
  /** SQLite synchronous mode (default FULL: an acknowledged write survives power loss). */
  synchronous?: SyncMode;
  /** Rows handled per compaction transaction (default 2000). */
  compactChunkRows?: number;
  /**
   * Check at open that every stored value is a JSON object (the object
   * layer's encoding); unreadable rows refuse the open unless quarantined.
   */
  valueCheck?: 'json-object';
  /** Move unreadable rows into the `quarantine` table instead of refusing to open. */
  quarantineUnreadable?: boolean;
  /** While commits fail, readiness re-probes with a small commit at most this often (default 1000 ms). */
  probeIntervalMs?: number;
  /** Test only: SQLite's max_page_count, to make a full database without a full disk. */
  maxPageCount?: number;
  /** Where state changes worth an operator's attention are reported. */
  log?: (msg: string) => void;
  /** Test only: replaces the fsync of the WAL file that makes commits durable (synchronous FULL on a file). */
  syncWal?: SyncFn;
}

export interface SqliteKVStats {
  revision: number;
  compactedRevision: number;
  logRows: number;
  currentRows: number;
  pageCount: number;
  freePages: number;
  dbBytes: number;
  walBytes: number;
  commits: number;
  writes: number;
}

type WriteOp =
  | { kind: 'create'; key: string; value: string; resolve: (kv: KeyValue) => void; reject: (e: Error) => void }
  | { kind: 'update'; key: string; value: string; expected: number; resolve: (kv: KeyValue) => void; reject: (e: Error) => void }
  | { kind: 'delete'; key: string; expected?: number; resolve: (kv: KeyValue) => void; reject: (e: Error) => void };

/** A committed transaction whose writes wait for the WAL's fsync to be answered. */
interface Batch {
  ops: WriteOp[];
  results: (KeyValue | Error)[];
  rows: LogRow[];
  /** The store's revision after it. */
  rev: number;
}

interface CurrentRow {
  rev: number;
  createRev: number;
}
interface ValueRow {
  key: string;
  rev: number;
  createRev: number;
  value: string;
}

export class SqliteKV implements KV {
  readonly path: string;
  private db: Database.Database;
  /** The revision of the last acknowledged write: what reads, watches and callers see. */
  private rev: number;
  /** The revision of the last write committed to SQLite (ahead of rev while its fsync runs). */
  private head: number;
  /** The fsync of the WAL after commits, when acknowledgement waits for it (synchronous FULL on a file). */
  private syncWal?: SyncFn;
  private walSync?: WalSync;
  /** Committed batches waiting for an fsync, oldest first. */
  private pending: Batch[] = [];
  private syncing = false;
  /** Set when an fsync failed: what was committed since is of unknown durability, so writes stop. */
  private syncFailure?: StorageError;
  private drainWaiters: (() => void)[] = [];
  private log?: (msg: string) => void;
  private compacted: number;
  private compactDone: number;
  private queue: WriteOp[] = [];
  private flushScheduled = false;
  private closed = false;
  private hub: WatchHub;
  private clock: RevisionClock;
  private timer?: NodeJS.Timeout;
  private compacting?: Promise<void>;
  private commitCount = 0;
  private writeCount = 0;
  private chunkRows: number;
  private st: Record<string, Database.Statement>;
  private cst: CompactStatements;
  private health: CommitHealth;
  /** Rows moved into the quarantine table by this open. */
  readonly quarantined: UnreadableRow[] = [];
  /** Rows the quarantine table held before this open. */
  readonly quarantinedEarlier: number = 0;
  /** The owner record of a previous process that did not close the store (it was killed). */
  readonly previousOwner: OwnerRecord | null = null;

  constructor(opts: SqliteKVOptions) {
    this.path = opts.path;
    this.log = opts.log;
    const inMemory = opts.path === ':memory:';
    const sync = opts.synchronous ?? 'FULL';
    // FULL on a file: SQLite's NORMAL (every sync but the per-commit one) plus our fsync after each commit
    const deferSync = sync === 'FULL' && !inMemory;
    this.db = openChecked(opts.path, deferSync ? 'NORMAL' : sync, inMemory);
    const db = this.db;
    try {
      if (opts.maxPageCount !== undefined) db.pragma(`max_page_count = ${Math.floor(opts.maxPageCount)}`);
      if (opts.valueCheck === 'json-object' && !inMemory) {
        this.quarantinedEarlier = quarantineCount(db);
        const bad = findUnreadable(db);
        if (bad.length && !opts.quarantineUnreadable) throw new UnreadableRowsError(opts.path, bad);
        if (bad.length) {
          quarantineRows(db, bad);
          this.quarantined = bad;
        }
      }
      if (!inMemory) {
        const prev = readOwner(opts.path);
        if (prev && !(prev.pid === process.pid && prev.host === os.hostname())) this.previousOwner = prev;
        writeOwner(opts.path);
      }
    } catch (err) {
      db.close();
      throw err;
    }
    this.st = {
      getCurrent: db.prepare('SELECT rev, create_rev AS createRev FROM current WHERE key = ?'),
      getValue: db.prepare('SELECT value FROM log WHERE rev = ?').pluck(),
      insLog: db.prepare('INSERT INTO log (rev, key, created, deleted, create_rev, prev_rev, value) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      // a create's one look-up: no row is inserted (changes = 0) when the key exists
      insCurrent: db.prepare('INSERT INTO current (key, rev, create_rev) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING'),
      updCurrent: db.prepare('UPDATE current SET rev = ? WHERE key = ?'),
      delCurrent: db.prepare('DELETE FROM current WHERE key = ?'),
      getLatest: db.prepare('SELECT c.key, c.rev, c.create_rev AS createRev, l.value FROM current c JOIN log l ON l.rev = c.rev WHERE c.key = ?'),
      getAt: db.prepare('SELECT key, rev, create_rev AS createRev, deleted, value FROM log WHERE key = ? AND rev <= ? ORDER BY rev DESC LIMIT 1'),
      listLatest: db.prepare('SELECT c.key, c.rev, c.create_rev AS createRev, l.value FROM current c JOIN log l ON l.rev = c.rev WHERE c.key >= ? AND c.key < ? ORDER BY c.key LIMIT ?'),
      countLatest: db.prepare('SELECT count(*) FROM current WHERE key >= ? AND key < ?').pluck(),
      changedSince: db.prepare('SELECT DISTINCT key FROM log NOT INDEXED WHERE rev > ? AND key >= ? AND key < ?').pluck(),
      rowsSince: db.prepare('SELECT rev, key, deleted, create_rev AS createRev, prev_rev AS prevRev, value FROM log NOT INDEXED WHERE rev > ? AND rev <= ? AND key >= ? AND key < ? ORDER BY rev'),
      maxRev: db.prepare('SELECT max(rev) FROM log').pluck(),
      getMeta: db.prepare('SELECT value FROM meta WHERE name = ?').pluck(),
      logCount: db.prepare('SELECT count(*) FROM log').pluck(),
      currentCount: db.prepare('SELECT count(*) FROM current').pluck(),
      probeWrite: db.prepare('INSERT INTO probe (id, pad) VALUES (1, zeroblob(8192))'),
      probeClear: db.prepare('DELETE FROM probe'),
    };
    // the probe commits a row of two pages' size and removes it in the same transaction
    const probe = db.transaction(() => {
      this.st.probeWrite.run();
      this.st.probeClear.run();
    });
    this.health = new CommitHealth(() => probe.immediate(), opts.probeIntervalMs ?? 1000, opts.log);
    this.cst = prepareCompact(db);
    // Revisions start at 1 like etcd's, so "0" never names a real state.
    this.rev = Math.max(1, (this.st.maxRev.get() as number | null) ?? 0);
    this.head = this.rev;
    if (deferSync) {
      if (opts.syncWal) this.syncWal = opts.syncWal;
      else {
        this.walSync = new WalSync(opts.path);
        this.syncWal = this.walSync.sync;
      }
    }
    this.compacted = (this.st.getMeta.get('compact_rev') as number | undefined) ?? 0;
    this.compactDone = (this.st.getMeta.get('compact_done') as number | undefined) ?? 0;
    this.hub = new WatchHub(
      (rev) => this.st.getValue.get(rev) as string | undefined,
      () => this.rev,
    );
    const windowMs = opts.historyWindowMs ?? 5 * 60_000;
    this.clock = new RevisionClock(windowMs);
    this.clock.sample(this.rev);
    this.chunkRows = opts.compactChunkRows ?? 2000;
    const interval = opts.compactIntervalMs ?? Math.min(60_000, Math.max(1000, Math.floor(windowMs / 5)));
    this.timer = setInterval(() => this.tick(), Math.max(10, Math.min(interval, windowMs || interval)));
    this.timer.unref();
    // Finish a compaction cut short by a stop.
    if (this.compactDone < this.compacted) this.compacting = this.runCompaction(this.compacted);
  }

  async currentRevision(): Promise<number> {
    return this.rev;
  }
  revisionNow(): number {
    return this.rev;
  }
  async compactedRevision(): Promise<number> {
    return this.compacted;
  }
  /** Synchronous reads of the counters, for callers on a hot path. */
  revisionSync(): number {
    return this.rev;
  }

  /**
   * null while commits succeed; otherwise why they fail (a full disk, an I/O
   * error), until a commit — a client's or the readiness probe's — succeeds.
   */
  commitHealth(): Error | null {
    if (this.closed) return new StorageError('storage closed');
    if (this.syncFailure) return this.syncFailure;
    return this.health.check();
  }

  /** Test only: changes SQLite's max_page_count (below the current size it stops at the current size). */
  setMaxPageCount(pages: number): number {
    return this.db.pragma(`max_page_count = ${Math.floor(pages)}`, { simple: true }) as number;
  }

  /** Test only: the database's page count. */
  pageCount(): number {
    return this.db.pragma('page_count', { simple: true }) as number;
  }

  /** Records where the owner of this file serves, for the message a second process gets. */
  describeOwner(url: string): void {
    if (this.path === ':memory:' || this.closed) return;
    const cur = readOwner(this.path);
    writeOwner(this.path, { url, since: cur?.pid === process.pid ? cur.since : undefined });
  }

  async get(key: string, revision?: number): Promise<KeyValue | null> {
    this.checkOpen();
    const rev = revision ?? 0;
    if (!rev || rev >= this.rev) {
      if (rev > this.rev) throw new FutureRevisionError(rev, this.rev);
      if (this.head === this.rev) {
        const r = this.st.getLatest.get(key) as ValueRow | undefined;
        return r ? { key: r.key, value: r.value, createRevision: r.createRev, modRevision: r.rev } : null;
      }
      // writes committed but not yet durable are not visible: read as of the last acknowledged one
    }
    return this.getAtRev(key, rev || this.rev);
  }

  private getAtRev(key: string, rev: number): KeyValue | null {
    if (rev < this.compacted) throw new CompactedError(rev, this.compacted);
    const r = this.st.getAt.get(key, rev) as (ValueRow & { deleted: number }) | undefined;
    if (!r || r.deleted) return null;
    return { key: r.key, value: r.value, createRevision: r.createRev, modRevision: r.rev };
  }

  async list(start: string, opts: KVListOptions = {}): Promise<KVListResult> {
    this.checkOpen();
    const end = opts.end ?? prefixEnd(start);
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const current = this.rev;
    const rev = opts.revision ?? 0;
    if (rev > current) throw new FutureRevisionError(rev, current);
    if ((!rev || rev === current) && this.head === current) {
      const rows = this.st.listLatest.all(start, end, limit ? limit + 1 : -1) as ValueRow[];
      const more = limit > 0 && rows.length > limit;
      if (more) rows.length = limit;
      const out: KVListResult = { kvs: rows.map(toKV), revision: current, more };
      if (opts.count) out.count = this.st.countLatest.get(start, end) as number;
      return out;
    }
    if (rev && rev < this.compacted) throw new CompactedError(rev, this.compacted);
    // at a past revision, or at the current one while newer commits wait for their fsync
    return this.listAt(start, end, rev || current, limit, !!opts.count);
  }

  /** A list at a past revision: the current table, corrected by the keys written after it. */
  private listAt(start: string, end: string, rev: number, limit: number, count: boolean): KVListResult {
    const changed = new Set(this.st.changedSince.all(rev, start, end) as string[]);
    const baseLimit = limit ? limit + changed.size + 1 : -1;
    const base = (this.st.listLatest.all(start, end, baseLimit) as ValueRow[]).filter((r) => !changed.has(r.key));
    const hist: ValueRow[] = [];
    let changedNow = 0;
    for (const key of changed) {
      if (this.st.getCurrent.get(key)) changedNow++;
      const r = this.st.getAt.get(key, rev) as (ValueRow & { deleted: number }) | undefined;
      if (r && !r.deleted) hist.push(r);
    }
    const all = base.concat(hist).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const more = limit > 0 && all.length > limit;
    if (more) all.length = limit;
    const out: KVListResult = { kvs: all.map(toKV), revision: rev, more };
    if (count) out.count = (this.st.countLatest.get(start, end) as number) - changedNow + hist.length;
    return out;
  }

  create(key: string, value: string): Promise<KeyValue> {
    return new Promise((resolve, reject) => this.enqueue({ kind: 'create', key, value, resolve, reject }));
  }

  update(key: string, value: string, expectedModRevision: number): Promise<KeyValue> {
    return new Promise((resolve, reject) => this.enqueue({ kind: 'update', key, value, expected: expectedModRevision, resolve, reject }));
  }

  /** Returns the deleted value, with modRevision = the revision of the delete. */
  delete(key: string, expectedModRevision?: number): Promise<KeyValue> {
    return new Promise((resolve, reject) => this.enqueue({ kind: 'delete', key, expected: expectedModRevision, resolve, reject }));
  }

  watch(prefix: string, opts: KVWatchOptions): KVWatcher {
    this.checkOpen();
    if (opts.afterRevision < this.compacted) throw new CompactedError(opts.afterRevision, this.compacted);
    const end = prefixEnd(prefix);
    const backlog =
      opts.afterRevision < this.rev
        ? (this.st.rowsSince.all(opts.afterRevision, this.rev, prefix, end) as (Omit<LogRow, 'deleted'> & { deleted: number })[]).map((r): LogRow => ({ ...r, deleted: !!r.deleted }))
        : [];
    return this.hub.add(prefix, end, opts, backlog);
  }

  async compact(revision: number): Promise<void> {
    this.checkOpen();
    if (revision > this.rev) throw new FutureRevisionError(revision, this.rev);
    if (revision <= this.compacted) {
      if (this.compacting) await this.compacting;
      return;
    }
    if (this.compacting) await this.compacting;
    if (revision <= this.compacted) return;
    this.compacting = this.runCompaction(revision);
    await this.compacting;
  }

  /** Runs one compaction pass now, to the history window's horizon; returns the revision compacted to. */
  async compactNow(): Promise<number> {
    this.clock.sample(this.rev);
    const target = Math.min(this.clock.horizon(), this.rev);
    if (target > this.compacted) await this.compact(target);
    return this.compacted;
  }

  /** Checkpoints the WAL into the database and truncates it. */
  checkpoint(): void {
    if (this.path !== ':memory:') this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  stats(): SqliteKVStats {
    const size = (p: string) => {
      try {
        return fs.statSync(p).size;
      } catch {
        return 0;
      }
    };
    return {
      revision: this.rev,
      compactedRevision: this.compacted,
      logRows: this.st.logCount.get() as number,
      currentRows: this.st.currentCount.get() as number,
      pageCount: this.db.pragma('page_count', { simple: true }) as number,
      freePages: this.db.pragma('freelist_count', { simple: true }) as number,
      dbBytes: this.path === ':memory:' ? 0 : size(this.path),
      walBytes: this.path === ':memory:' ? 0 : size(this.path + '-wal'),
      commits: this.commitCount,
      writes: this.writeCount,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.queue.length) this.flush();
    while (this.pending.length && !this.syncFailure) await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
    if (this.compacting) await this.compacting.catch(() => undefined);
    this.closed = true;
    this.walSync?.close();
    clearInterval(this.timer);
    this.hub.closeAll(new StorageError('storage closed'));
    this.db.close();
    if (this.path !== ':memory:') removeOwner(this.path);
  }

  // -------------------------------------------------------------------------

  private checkOpen(): void {
    if (this.closed) throw new StorageError('storage closed');
  }

  private enqueue(op: WriteOp): void {
    if (this.closed) {
      op.reject(new StorageError('storage closed'));
      return;
    }
    if (this.syncFailure) {
      op.reject(this.syncFailure);
      return;
    }
    this.queue.push(op);
    // while an fsync runs, writes gather for the commit that follows it
    if (!this.flushScheduled && !this.syncing) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /**
   * Applies every queued write in one transaction, then answers and notifies
   * at once, or (deferred sync) once an fsync started after the commit is done.
   */
  private flush(): void {
    this.flushScheduled = false;
    const ops = this.queue;
    this.queue = [];
    if (ops.length === 0 || this.closed) return;
    const startRev = this.head;
    const results: (KeyValue | Error)[] = [];
    const rows: LogRow[] = [];
    try {
      this.db
        .transaction(() => {
          for (const op of ops) {
            try {
              results.push(this.apply(op, rows));
            } catch (err) {
              if (!(err instanceof StorageError)) throw err;
              results.push(err);
            }
          }
        })
        .immediate();
    } catch (err) {
      this.head = startRev;
      const failure = commitFailure(err);
      if (failure) this.health.failed(failure);
      for (const op of ops) op.reject(failure ?? (err as Error));
      return;
    }
    this.health.succeeded();
    this.commitCount++;
    this.writeCount += rows.length;
    const batch: Batch = { ops, results, rows, rev: this.head };
    if (!this.syncWal || (this.pending.length === 0 && rows.length === 0)) {
      this.rev = this.head;
      this.settle(batch);
      return;
    }
    // answered after a sync that starts after this commit, in commit order
    // (a failed write's answer too: it may depend on a write not yet durable)
    this.pending.push(batch);
    this.startSync();
  }

  /** Starts an fsync covering every commit so far, unless one runs (its end starts the next). */
  private startSync(): void {
    if (this.syncing || this.pending.length === 0 || !this.syncWal) return;
    this.syncing = true;
    const covered = this.head;
    this.syncWal((err) => {
      this.syncing = false;
      if (err) this.failSync(err);
      else {
        this.rev = Math.max(this.rev, covered);
        let n = 0;
        while (n < this.pending.length && this.pending[n].rev <= covered) n++;
        for (const b of this.pending.splice(0, n)) this.settle(b);
        // the writes that arrived meanwhile: one transaction, and its fsync at once
        if (this.queue.length) this.flush();
        this.startSync();
      }
      if (this.pending.length === 0 || this.syncFailure) for (const w of this.drainWaiters.splice(0)) w();
    });
  }

  /**
   * An fsync failed: whether the writes it covered survive a crash is
   * unknown, and SQLite has made them visible already, so none is
   * acknowledged and the store takes no more writes (readiness reports why).
   */
  private failSync(err: Error): void {
    const failure = new StorageError(`storage commit failed: fsync of the write-ahead log: ${err.message}`);
    this.syncFailure = failure;
    this.log?.(`storage: ${failure.message}; writes are refused until restart`);
    for (const b of this.pending.splice(0)) for (const op of b.ops) op.reject(failure);
    for (const op of this.queue.splice(0)) op.reject(failure);
  }

  /** Notifies watchers of a durable batch's rows and answers its writes. */
  private settle(b: Batch): void {
    this.hub.dispatch(b.rows);
    for (let i = 0; i < b.ops.length; i++) {
      const r = b.results[i];
      if (r instanceof Error) b.ops[i].reject(r);
      else b.ops[i].resolve(r);
    }
  }

  private apply(op: WriteOp, rows: LogRow[]): KeyValue {
    const st = this.st;
    if (op.kind === 'create') {
      const rev = this.head + 1;
      if (st.insCurrent.run(op.key, rev, rev).changes === 0) throw new KeyExistsError(op.key);
      st.insLog.run(rev, op.key, 1, 0, rev, 0, op.value);
      this.head = rev;
      rows.push({ rev, key: op.key, deleted: false, createRev: rev, prevRev: 0, value: op.value });
      return { key: op.key, value: op.value, createRevision: rev, modRevision: rev };
    }
    const cur = st.getCurrent.get(op.key) as CurrentRow | undefined;
    if (!cur) throw new NotFoundError(op.key);
    if (op.expected !== undefined && cur.rev !== op.expected) throw new ConflictError(op.key);
    const rev = this.head + 1;
    if (op.kind === 'update') {
      st.insLog.run(rev, op.key, 0, 0, cur.createRev, cur.rev, op.value);
      st.updCurrent.run(rev, op.key);
      this.head = rev;
      rows.push({ rev, key: op.key, deleted: false, createRev: cur.createRev, prevRev: cur.rev, value: op.value });
      return { key: op.key, value: op.value, createRevision: cur.createRev, modRevision: rev };
    }
    const old = st.getValue.get(cur.rev) as string;
    st.insLog.run(rev, op.key, 0, 1, cur.createRev, cur.rev, old);
    st.delCurrent.run(op.key);
    this.head = rev;
    rows.push({ rev, key: op.key, deleted: true, createRev: cur.createRev, prevRev: cur.rev, value: old });
    return { key: op.key, value: old, createRevision: cur.createRev, modRevision: rev };
  }

  private tick(): void {
    if (this.closed || this.compacting) return;
    this.clock.sample(this.rev);
    const target = Math.min(this.clock.horizon(), this.rev);
    if (target > this.compacted) {
      this.compacting = this.runCompaction(target).catch(() => undefined);
    }
  }

  private async runCompaction(target: number): Promise<void> {
    // Yield first so the caller has stored this promise in `compacting`
    // before the `finally` below clears it.
    await Promise.resolve();
    try {
      this.compacted = Math.max(this.compacted, target);
      this.cst.setMeta.run('compact_rev', this.compacted);
      let done = this.compactDone;
      while (done < target && !this.closed) {
        done = compactChunk(this.db, this.cst, done, target, this.head, this.chunkRows).done;
        this.compactDone = done;
        if (done < target) await new Promise((r) => setImmediate(r));
      }
      if (!this.closed) this.checkpoint();
    } finally {
      this.compacting = undefined;
    }
  }
}

function toKV(r: ValueRow): KeyValue {
  return { key: r.key, value: r.value, createRevision: r.createRev, modRevision: r.rev };
}

export { prefixEnd };

/**
 * Opens the file, takes its exclusive lock and checks its structure; every
 * failure becomes an error that names the file (or the process holding it).
 */
function openChecked(file: string, sync: SyncMode, inMemory: boolean): Database.Database {
  let db: Database.Database | undefined;
  try {
    // no busy wait: a file held by another process is refused at once
    db = new Database(file, { timeout: 0, nativeBinding: sqliteAddon() });
    applyPragmas(db, sync, inMemory);
    if (!inMemory) db.exec('BEGIN EXCLUSIVE; COMMIT'); // take the lock now, even before the first write
    db.exec(DDL);
    if (!inMemory) {
      const problems = db.pragma('quick_check(5)', { simple: false }) as { quick_check: string }[];
      const texts = problems.map((p) => p.quick_check).filter((t) => t !== 'ok');
      if (texts.length) throw new DatabaseFileError(file, `the integrity check failed: ${texts.join('; ')}`);
    }
    return db;
  } catch (err) {
    try {
      db?.close();
    } catch {
      /* already unusable */
    }
    const code = (err as { code?: unknown }).code;
    if (typeof code !== 'string') throw err;
    if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
      const owner = readOwner(file);
      const alive = !!owner && (owner.host !== os.hostname() || pidAlive(owner.pid));
      throw new DataDirInUseError(file, owner, alive);
    }
    if (/^SQLITE_(NOTADB|CORRUPT|CANTOPEN|IOERR|READONLY|PERM|AUTH|FORMAT)/.test(code)) {
      throw new DatabaseFileError(file, `${(err as Error).message} (${code})`);
    }
    throw err;
  }
}
