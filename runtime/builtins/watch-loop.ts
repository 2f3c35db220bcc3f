// A long-running watch of one registry store for the built-ins: lists, then
// watches from that revision, and after the watch ends (410, storage
// restart) lists again and resumes. stop() ends it and waits.

import type { RegistryStore } from '../registry/store.ts';
import type { Obj, WatchEvent, WatchStream } from '../storage/interface.ts';

export interface WatchLoop {
  stop(): Promise<void>;
}

export interface WatchHandlers {
  /** The full list, at start and after every restart of the watch. */
  resync(items: Obj[]): void | Promise<void>;
  /** One ADDED, MODIFIED or DELETED event. */
  event(ev: WatchEvent): void | Promise<void>;
}

export function startWatchLoop(store: RegistryStore, namespace: string, h: WatchHandlers, retryMs = 100): WatchLoop {
  let stopped = false;
  let watch: WatchStream | undefined;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) =>
    new Promise<void>((r) => {
      wake = r;
      setTimeout(r, ms);
    });
  const done = (async () => {
    while (!stopped) {
      try {
        const list = await store.list(namespace, {});
        await h.resync(list.items);
        if (stopped) break;
        watch = await store.watch(namespace, { resourceVersion: list.resourceVersion });
        if (stopped) {
          watch.stop();
          break;
        }
        for await (const ev of watch) {
          if (ev.type === 'ADDED' || ev.type === 'MODIFIED' || ev.type === 'DELETED') await h.event(ev);
          if (stopped) break;
        }
      } catch {
        // storage closing or the watch expired: list again after a pause
      }
      if (!stopped) await sleep(retryMs);
    }
  })();
  return {
    async stop() {
      stopped = true;
      watch?.stop();
      wake?.();
      await done;
    },
  };
}
