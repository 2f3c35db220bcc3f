// The namespace controller: for every namespace being deleted that still has
// the `kubernetes` finalizer, deletes every namespaced object in it (through
// the registry stores, so each kind's own delete rules apply), waits while
// some remain (their finalizers pending), then removes its finalizer through
// the finalize subresource; the store deletes the namespace once
// spec.finalizers and metadata.finalizers are empty. Event-driven from a
// watch on namespaces, with a bounded retry delay for remaining content.

import { FINALIZER_NAMESPACE } from '../k8s-names.ts';
import type { RegistryStore } from '../registry/store.ts';
import type { ApiIndex } from '../server/api-index.ts';
import type { Obj, WatchStream } from '../storage/interface.ts';

export interface NamespaceController {
  stop(): Promise<void>;
  /** Resolves when nothing is queued or being worked on (tests). */
  idle(): Promise<void>;
}

export interface NamespaceControllerOptions {
  /** Delay before looking again at a namespace whose content is not gone yet (ms, default 500). */
  retryMs?: number;
}

function terminating(ns: Obj): boolean {
  return !!ns.metadata?.deletionTimestamp && Array.isArray(ns.spec?.finalizers) && ns.spec.finalizers.includes(FINALIZER_NAMESPACE);
}

/** The distinct stores of namespaced, stored kinds. */
function namespacedStores(api: ApiIndex): RegistryStore[] {
  const out = new Set<RegistryStore>();
  for (const s of api.served) {
    if (s.def.namespaced && !s.def.virtual && s.def.verbs.includes('delete')) out.add(s.store);
  }
  return [...out];
}

/** Deletes what is left in a namespace; returns how many objects remain. */
export async function deleteNamespaceContent(api: ApiIndex, namespace: string): Promise<number> {
  let remaining = 0;
  for (const store of namespacedStores(api)) {
    const { items } = await store.list(namespace, {});
    for (const item of items) {
      if (item.metadata?.deletionTimestamp) { remaining++; continue; }
      try {
        const { deleted } = await store.delete(namespace, item.metadata.name, { propagationPolicy: 'Background' });
        if (!deleted) remaining++;
      } catch (err) {
        if ((err as { code?: number }).code !== 404) remaining++;
      }
    }
  }
  return remaining;
}

export function startNamespaceController(api: ApiIndex, opts: NamespaceControllerOptions = {}): NamespaceController {
  const nsRes = api.lookup('', 'v1', 'namespaces');
  const retryMs = opts.retryMs ?? 500;
  let stopped = false;
  let watch: WatchStream | undefined;
  const queue = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let working: Promise<void> | undefined;
  let idleWaiters: (() => void)[] = [];

  const notifyIdle = () => {
    if (queue.size || working || timers.size) return;
    const w = idleWaiters;
    idleWaiters = [];
    for (const f of w) f();
  };

  const finalize = async (name: string): Promise<void> => {
    await nsRes!.store.update('', name, (live) => {
      if (!live) throw Object.assign(new Error('gone'), { code: 404 });
      const spec = { ...(live.spec ?? {}) };
      spec.finalizers = (spec.finalizers ?? []).filter((f: string) => f !== FINALIZER_NAMESPACE);
      return { ...live, spec };
    }, { subresource: 'finalize' });
  };

  const process = async (name: string): Promise<void> => {
    let ns: Obj;
    try {
      ns = await nsRes!.store.get('', name);
    } catch {
      return;
    }
    if (!terminating(ns)) return;
    const remaining = await deleteNamespaceContent(api, name);
    if (remaining > 0) {
      if (stopped) return;
      const t = setTimeout(() => { timers.delete(t); enqueue(name); }, retryMs);
      timers.add(t);
      return;
    }
    await finalize(name);
  };

  const pump = () => {
    if (working || stopped) return;
    const next = queue.values().next();
    if (next.done) { notifyIdle(); return; }
    queue.delete(next.value);
    working = process(next.value)
      .catch(() => {
        if (stopped) return;
        const t = setTimeout(() => { timers.delete(t); enqueue(next.value); }, retryMs);
        timers.add(t);
      })
      .finally(() => { working = undefined; pump(); });
  };

  function enqueue(name: string): void {
    if (stopped) return;
    queue.add(name);
    pump();
  }

  const run = async () => {
    while (!stopped && nsRes) {
      try {
        const list = await nsRes.store.list('', {});
        for (const ns of list.items) if (terminating(ns)) enqueue(ns.metadata.name);
        watch = await nsRes.store.watch('', { resourceVersion: list.resourceVersion });
        if (stopped) { watch.stop(); break; }
        for await (const ev of watch) {
          if (stopped) break;
          if ((ev.type === 'ADDED' || ev.type === 'MODIFIED') && terminating(ev.object)) enqueue(ev.object.metadata.name);
        }
      } catch {
        if (!stopped) await new Promise((r) => setTimeout(r, retryMs));
      }
    }
  };
  const loop = run();

  return {
    async stop() {
      stopped = true;
      watch?.stop();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await working;
      await Promise.race([loop, new Promise((r) => setTimeout(r, 1000))]);
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        notifyIdle();
      });
    },
  };
}
