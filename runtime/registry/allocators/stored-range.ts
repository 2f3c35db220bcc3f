// An allocation range whose state lives in storage, so that several servers
// on one store never hand out the same value: a RangeAllocation object
// (kube-apiserver's `/registry/ranges/serviceips` and
// `/registry/ranges/servicenodeports`: the range's text and its bitmap,
// bitmap.ts) changed only by compare-and-swap. The in-memory allocator is a
// cache of it: every change is made inside storage's read-modify-write on
// the stored state (reloaded into the cache when its resourceVersion is not
// the one the cache last wrote or read), and a conflict runs it again on the
// fresh state. Changes asked for while a write is in flight wait and go
// together in the next write (one compare-and-swap for many Services). A
// write starts from the object this range last stored instead of reading it
// (storage reads it only when that proves stale), so on etcd an allocation
// made alone is one round trip.
// Without storage (unit tests) changes apply to the allocator alone.
//
// An operation is a function of the allocator that either succeeds or throws
// leaving it unchanged; it may run more than once (on a conflict).

import type { Obj, Storage } from '../../storage/interface.ts';
import { decodeBitmap, encodeBitmap } from './bitmap.ts';
import type { RangeState } from './range.ts';

/** The stored object of a range: core's RangeAllocation. */
export function rangeAllocation(state: RangeState, metadata: Obj = {}): Obj {
  return { apiVersion: 'v1', kind: 'RangeAllocation', metadata, range: state.rangeText, data: Buffer.from(encodeBitmap(state.offsets())).toString('base64') };
}

/** The offsets a stored RangeAllocation holds, or null when it is of another range (the configured one changed). */
export function storedOffsets(obj: Obj, state: RangeState): number[] | null {
  if (obj.range !== state.rangeText) return null;
  return decodeBitmap(Buffer.from(typeof obj.data === 'string' ? obj.data : '', 'base64'));
}

interface Pending {
  op: (alloc: RangeState) => unknown;
  resolve(v: unknown): void;
  reject(e: unknown): void;
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown };
}

export class StoredRange<A extends RangeState> {
  /** The resourceVersion the cache equals; undefined: reload before use. */
  private cachedRV: string | undefined;
  /** The stored object the cache equals (its last write), tried first by the next write instead of a read. */
  private cachedObj: Obj | undefined;
  private queue: Pending[] = [];
  private writing: Promise<void> | undefined;

  constructor(
    readonly alloc: A,
    private readonly backing?: { storage: Storage; key: string },
  ) {}

  /** Runs op on the stored state and stores the result; resolves once it is stored. */
  run<R>(op: (alloc: A) => R): Promise<R> {
    if (!this.backing) {
      try {
        return Promise.resolve(op(this.alloc));
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ op: op as Pending['op'], resolve: resolve as Pending['resolve'], reject });
      this.writing ??= this.drain();
    });
  }

  /** Runs op on a copy of the cached state: what a dry run would get, nothing kept. */
  tryRun<R>(op: (alloc: A) => R): R {
    return op(this.alloc.clone());
  }

  /**
   * Merges the stored state with `held` (values that stored objects hold are
   * taken) and stores it; a stored state of another range is replaced.
   * `leaked` decides for each taken offset nothing holds whether to free it.
   */
  repair(held: Iterable<number>, leaked: (offset: number) => boolean = () => false): Promise<void> {
    const want = [...held];
    return this.run((alloc) => {
      const keep = new Set(want);
      for (const o of alloc.offsets()) if (!keep.has(o) && !leaked(o)) keep.add(o);
      alloc.resetTo(keep);
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue;
        this.queue = [];
        await this.write(batch);
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    const { storage, key } = this.backing!;
    try {
      const stored = await storage.guaranteedUpdate(key, {
        ignoreNotFound: true,
        cached: this.cachedObj,
        tryUpdate: (live) => {
          const rv = live?.metadata?.resourceVersion as string | undefined;
          if (!live) this.alloc.resetTo([]);
          else if (rv !== this.cachedRV) this.alloc.resetTo(storedOffsets(live, this.alloc) ?? []);
          // from here the cache holds changes not yet stored
          this.cachedRV = undefined;
          for (const p of batch) {
            try {
              p.outcome = { ok: true, value: p.op(this.alloc) };
            } catch (error) {
              p.outcome = { ok: false, error };
            }
          }
          return rangeAllocation(this.alloc, { ...(live?.metadata ?? {}) });
        },
      });
      this.cachedRV = stored.metadata?.resourceVersion;
      this.cachedObj = stored;
    } catch (err) {
      this.cachedRV = undefined;
      this.cachedObj = undefined;
      for (const p of batch) p.reject(err);
      return;
    }
    for (const p of batch) {
      const o = p.outcome!;
      if (o.ok) p.resolve(o.value);
      else p.reject(o.error);
    }
  }
}
