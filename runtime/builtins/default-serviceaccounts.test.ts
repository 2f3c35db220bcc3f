// The wait of ServiceAccount admission for an account the controller is
// about to create: found in the list, found by the watch from the list's
// revision, or given up when the bound expires (a promise here, no clock).
import { describe, expect, it } from 'vitest';
import type { Obj, WatchEvent, WatchStream } from '../storage/interface.ts';
import { awaitAccount } from './default-serviceaccounts.ts';

/** A store with a fixed list and a watch the test feeds; records the revision watched from. */
function fakeStore(items: Obj[]) {
  const pending: WatchEvent[] = [];
  let wake: (() => void) | undefined;
  let stopped = false;
  const watchedFrom: (string | undefined)[] = [];
  const stream: WatchStream = {
    stop() {
      stopped = true;
      wake?.();
    },
    async *[Symbol.asyncIterator]() {
      while (!stopped) {
        const ev = pending.shift();
        if (ev) {
          yield ev;
          continue;
        }
        await new Promise<void>((r) => (wake = r));
      }
    },
  };
  return {
    store: {
      list: async () => ({ items, resourceVersion: '41' }),
      watch: async (_ns: string, opts: { resourceVersion?: string }) => {
        watchedFrom.push(opts.resourceVersion);
        return stream;
      },
    },
    push(ev: WatchEvent) {
      pending.push(ev);
      wake?.();
    },
    watchedFrom,
    stopped: () => stopped,
  };
}

const sa = (name: string): Obj => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'ns' } });
const never = new Promise<void>(() => {});

describe('awaitAccount', () => {
  it('returns an account already listed without watching', async () => {
    const f = fakeStore([sa('other'), sa('default')]);
    expect(await awaitAccount(f.store, 'ns', 'default', never)).toEqual(sa('default'));
    expect(f.watchedFrom).toEqual([]);
  });

  it('watches from the list revision and returns the account when it is added; other events are skipped', async () => {
    const f = fakeStore([]);
    const waiting = awaitAccount(f.store, 'ns', 'default', never);
    await Promise.resolve();
    f.push({ type: 'ADDED', object: sa('other') });
    f.push({ type: 'DELETED', object: sa('default') });
    f.push({ type: 'ADDED', object: sa('default') });
    expect(await waiting).toEqual(sa('default'));
    expect(f.watchedFrom).toEqual(['41']);
    expect(f.stopped()).toBe(true);
  });

  it('gives up (undefined) when the bound expires, and stops its watch', async () => {
    const f = fakeStore([]);
    let expire!: () => void;
    const expired = new Promise<void>((r) => (expire = r));
    const waiting = awaitAccount(f.store, 'ns', 'default', expired);
    f.push({ type: 'ADDED', object: sa('other') });
    expire();
    expect(await waiting).toBeUndefined();
    expect(f.stopped()).toBe(true);
  });
});
