// Event expiry (--event-ttl, default 1h): kube-apiserver stores Events with
// an etcd lease renewed by every write, so an Event is deleted once the TTL
// has passed since it was last written. Here a sweep, run every minute (and
// callable directly with an injected clock), deletes every Event (core/v1
// and events.k8s.io/v1 are one store: each Event is swept once, whichever
// group wrote it) whose last write (the latest of its creation and its
// managedFields times) is older than the TTL. A delete carries the
// resourceVersion it saw as a precondition, so an Event written meanwhile
// stays; Watchers see DELETED as they would on expiry.

import { APISERVER_WRITER } from '../registry/write-services.ts';
import type { ApiIndex } from '../registry/served.ts';
import type { RegistryStore } from '../registry/store.ts';
import type { Obj } from '../storage/interface.ts';
import { ignoreStatus } from './ignore-status.ts';

export const DEFAULT_EVENT_TTL_MS = 3600_000;
const SWEEP_INTERVAL_MS = 60_000;

export interface EventTTLOptions {
  ttlMs?: number;
  now?: () => number;
  /** Time between sweeps (ms); 0 runs none on its own (tests call sweep()). */
  intervalMs?: number;
}

export interface EventTTL {
  /** One pass: deletes the expired Events, returns how many. */
  sweep(): Promise<number>;
  stop(): Promise<void>;
}

/** When an Event was last written: its creation or the latest managedFields time, whichever is later. */
export function lastWritten(obj: Obj): number {
  let t = Date.parse(obj.metadata?.creationTimestamp ?? '');
  for (const m of Array.isArray(obj.metadata?.managedFields) ? obj.metadata.managedFields : []) {
    const mt = Date.parse(m?.time ?? '');
    if (!Number.isNaN(mt) && (Number.isNaN(t) || mt > t)) t = mt;
  }
  return t;
}

function eventStores(api: ApiIndex): RegistryStore[] {
  const out = new Set<RegistryStore>();
  for (const [group, version] of [
    ['', 'v1'],
    ['events.k8s.io', 'v1'],
  ]) {
    const s = api.lookup(group, version, 'events');
    if (s) out.add(s.store);
  }
  return [...out];
}

export function startEventTTL(api: ApiIndex, o: EventTTLOptions = {}): EventTTL {
  const ttl = o.ttlMs ?? DEFAULT_EVENT_TTL_MS;
  const now = o.now ?? Date.now;
  const stores = eventStores(api);
  let running: Promise<number> | undefined;

  const pass = async (): Promise<number> => {
    let deleted = 0;
    const cutoff = now() - ttl;
    for (const store of stores) {
      const { items } = await store.list('', {});
      for (const ev of items) {
        const t = lastWritten(ev);
        if (Number.isNaN(t) || t > cutoff || ev.metadata?.deletionTimestamp) continue;
        const md = ev.metadata;
        try {
          const r = await store.delete(md.namespace ?? '', md.name, { preconditions: { uid: md.uid, resourceVersion: md.resourceVersion }, writer: APISERVER_WRITER });
          if (r.deleted) deleted++;
        } catch (err) {
          ignoreStatus([404, 409])(err); // gone, or written again since the list
        }
      }
    }
    return deleted;
  };

  const sweep = (): Promise<number> => {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  };

  const interval = o.intervalMs ?? SWEEP_INTERVAL_MS;
  const timer = interval > 0 ? setInterval(() => void sweep().catch(() => {}), interval) : undefined;
  timer?.unref();
  return {
    sweep,
    async stop() {
      if (timer) clearInterval(timer);
      await running?.catch(() => {});
    },
  };
}
