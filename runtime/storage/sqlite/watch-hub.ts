// Delivery of committed log rows to KV watchers: per-watcher ordered queues
// flushed in a microtask, key-range filtering, progress notifications and the
// prevKv lookup done once per event for all watchers. Knows nothing of SQL:
// the owner hands it rows and a function that loads a previous value.
import type { KVEvent, KeyValue, KVWatcher, KVWatchOptions } from '../interface.ts';

/** One committed write, as the log records it. */
export interface LogRow {
  rev: number;
  key: string;
  deleted: boolean;
  createRev: number;
  prevRev: number;
  value: string;
  /** Known at write time for deletes and updates done in-process. */
  prevValue?: string;
}

interface Watch {
  start: string;
  end: string;
  opts: KVWatchOptions;
  queue: KVEvent[];
  progressAt: number[];
  scheduled: boolean;
  closed: boolean;
}

export class WatchHub {
  private watches = new Set<Watch>();

  constructor(
    private loadValue: (rev: number) => string | undefined,
    private currentRev: () => number,
  ) {}

  get size(): number {
    return this.watches.size;
  }

  toEvent(row: LogRow): KVEvent {
    let prevKv: KeyValue | undefined;
    if (row.prevRev > 0) {
      const pv = row.deleted ? row.value : (row.prevValue ?? this.loadValue(row.prevRev));
      if (pv !== undefined) prevKv = { key: row.key, value: pv, createRevision: row.createRev, modRevision: row.prevRev };
    }
    if (row.deleted) {
      return { type: 'DELETE', kv: { key: row.key, value: '', createRevision: row.createRev, modRevision: row.rev }, prevKv };
    }
    return { type: 'PUT', kv: { key: row.key, value: row.value, createRevision: row.createRev, modRevision: row.rev }, prevKv };
  }

  /** Registers a watcher whose backlog (rows after its start revision) is `backlog`. */
  add(start: string, end: string, opts: KVWatchOptions, backlog: LogRow[]): KVWatcher {
    const w: Watch = { start, end, opts, queue: [], progressAt: [], scheduled: false, closed: false };
    for (const row of backlog) w.queue.push(this.toEvent(row));
    this.watches.add(w);
    if (w.queue.length) this.schedule(w);
    return {
      close: () => {
        w.closed = true;
        this.watches.delete(w);
      },
      requestProgress: () => {
        if (w.closed) return;
        w.progressAt.push(this.currentRev());
        this.schedule(w);
      },
    };
  }

  /** Hands freshly committed rows (in revision order) to every matching watcher. */
  dispatch(rows: LogRow[]): void {
    if (this.watches.size === 0 || rows.length === 0) return;
    const memo = new Map<LogRow, KVEvent>();
    for (const w of this.watches) {
      for (const row of rows) {
        if (row.key < w.start || row.key >= w.end) continue;
        let ev = memo.get(row);
        if (!ev) {
          ev = this.toEvent(row);
          memo.set(row, ev);
        }
        w.queue.push(ev);
      }
      if (w.queue.length) this.schedule(w);
    }
  }

  closeAll(err: Error): void {
    for (const w of this.watches) {
      w.closed = true;
      try {
        w.opts.onError?.(err);
      } catch {
        /* a watcher's handler must not stop the others */
      }
    }
    this.watches.clear();
  }

  private schedule(w: Watch): void {
    if (w.scheduled) return;
    w.scheduled = true;
    queueMicrotask(() => this.flush(w));
  }

  private flush(w: Watch): void {
    w.scheduled = false;
    if (w.closed) return;
    const events = w.queue;
    w.queue = [];
    const progress = w.progressAt;
    w.progressAt = [];
    try {
      if (events.length) w.opts.onEvents(events);
      if (progress.length && w.opts.onProgress) w.opts.onProgress(Math.max(...progress));
    } catch (err) {
      w.closed = true;
      this.watches.delete(w);
      try {
        w.opts.onError?.(err as Error);
      } catch {
        /* ignore */
      }
    }
  }
}
