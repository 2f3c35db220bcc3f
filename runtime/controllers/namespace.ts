// The namespace controller: for every namespace being deleted that still has
// the `kubernetes` finalizer, deletes every namespaced object in it (through
// the registry stores, so each kind's own delete rules apply), waits while
// some remain (their finalizers pending), then removes its finalizer through
// the finalize subresource; the store deletes the namespace once
// spec.finalizers and metadata.finalizers are empty. While content remains
// it reports upstream's deletion conditions through /status. Event-driven
// from a watch on namespaces, with a bounded retry delay for remaining content.

import { FINALIZER_NAMESPACE } from '../api/k8s-names.ts';
import type { RegistryStore } from '../registry/store.ts';
import type { ApiIndex } from '../registry/served.ts';
import type { Obj, WatchStream } from '../storage/interface.ts';
import { NAMESPACE_CONTROLLER_WRITER } from '../registry/write-services.ts';

export interface NamespaceController {
  stop(): Promise<void>;
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

/** What is left in a namespace after a deletion pass. */
export interface RemainingContent {
  total: number;
  /** Objects left per `resource.group`. */
  byResource: Map<string, number>;
  /** Objects held per finalizer name. */
  byFinalizer: Map<string, number>;
  /** Deletes that failed for another reason than the object being gone. */
  failures: number;
}

function bump(m: Map<string, number>, k: string): void {
  m.set(k, (m.get(k) ?? 0) + 1);
}

/** Deletes what is left in a namespace; reports what remains. */
export async function deleteNamespaceContent(api: ApiIndex, namespace: string): Promise<RemainingContent> {
  const out: RemainingContent = { total: 0, byResource: new Map(), byFinalizer: new Map(), failures: 0 };
  for (const store of namespacedStores(api)) {
    const { items } = await store.list(namespace, {});
    const gr = `${store.def.resource}.${store.def.group}`;
    for (const item of items) {
      let left: Obj | undefined = item;
      if (!item.metadata?.deletionTimestamp) {
        try {
          const { obj, deleted } = await store.delete(namespace, item.metadata.name, { propagationPolicy: 'Background', writer: NAMESPACE_CONTROLLER_WRITER });
          left = deleted ? undefined : obj;
        } catch (err) {
          if ((err as { code?: number }).code === 404) left = undefined;
          else out.failures++;
        }
      }
      if (!left) continue;
      out.total++;
      bump(out.byResource, gr);
      for (const f of left.metadata?.finalizers ?? []) bump(out.byFinalizer, f);
    }
  }
  return out;
}

const nowRFC3339 = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The deletion conditions upstream's namespace controller reports, for what remains. */
export function deletionConditions(left: RemainingContent): Obj[] {
  const list = (m: Map<string, number>, fmt: (k: string, n: number) => string) =>
    [...m.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => fmt(k, n))
      .join(', ');
  return [
    { type: 'NamespaceDeletionDiscoveryFailure', status: 'False', reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
    { type: 'NamespaceDeletionGroupVersionParsingFailure', status: 'False', reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
    left.failures
      ? { type: 'NamespaceDeletionContentFailure', status: 'True', reason: 'ContentDeletionFailed', message: `Failed to delete ${left.failures} resource instances` }
      : { type: 'NamespaceDeletionContentFailure', status: 'False', reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
    left.total
      ? {
          type: 'NamespaceContentRemaining',
          status: 'True',
          reason: 'SomeResourcesRemain',
          message: `Some resources are remaining: ${list(left.byResource, (k, n) => `${k} has ${n} resource instances`)}`,
        }
      : { type: 'NamespaceContentRemaining', status: 'False', reason: 'ContentRemoved', message: 'All content successfully removed' },
    left.byFinalizer.size
      ? {
          type: 'NamespaceFinalizersRemaining',
          status: 'True',
          reason: 'SomeFinalizersRemain',
          message: `Some content in the namespace has finalizers remaining: ${list(left.byFinalizer, (k, n) => `${k} in ${n} resource instances`)}`,
        }
      : { type: 'NamespaceFinalizersRemaining', status: 'False', reason: 'ContentHasNoFinalizers', message: 'All content-preserving finalizers finished' },
  ];
}

/** Merges conditions, keeping lastTransitionTime where type and status are unchanged. */
export function mergeConditions(old: Obj[] = [], next: Obj[]): Obj[] {
  const now = nowRFC3339();
  const byType = new Map(old.map((c) => [c.type, c]));
  return next.map((c) => {
    const prev = byType.get(c.type);
    return { ...c, lastTransitionTime: prev && prev.status === c.status ? prev.lastTransitionTime : now };
  });
}

export function startNamespaceController(api: ApiIndex, opts: NamespaceControllerOptions = {}): NamespaceController {
  const nsRes = api.lookup('', 'v1', 'namespaces');
  const retryMs = opts.retryMs ?? 500;
  let stopped = false;
  let watch: WatchStream | undefined;
  const queue = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let working: Promise<void> | undefined;

  const finalize = async (name: string): Promise<void> => {
    await nsRes!.store.update(
      '',
      name,
      (live) => {
        if (!live) throw Object.assign(new Error('gone'), { code: 404 });
        const spec = { ...(live.spec ?? {}) };
        spec.finalizers = (spec.finalizers ?? []).filter((f: string) => f !== FINALIZER_NAMESPACE);
        return { ...live, spec };
      },
      { subresource: 'finalize', writer: NAMESPACE_CONTROLLER_WRITER },
    );
  };

  const reportConditions = async (name: string, left: RemainingContent): Promise<void> => {
    const wanted = deletionConditions(left);
    await nsRes!.store.update(
      '',
      name,
      (live) => {
        if (!live) throw Object.assign(new Error('gone'), { code: 404 });
        const old: Obj[] = live.status?.conditions ?? [];
        const strip = (l: Obj[]) => l.map(({ lastTransitionTime: _t, ...c }) => c);
        if (JSON.stringify(strip(old)) === JSON.stringify(wanted)) return live;
        return { ...live, status: { ...(live.status ?? {}), conditions: mergeConditions(old, wanted) } };
      },
      { subresource: 'status', writer: NAMESPACE_CONTROLLER_WRITER },
    );
  };

  const process = async (name: string): Promise<void> => {
    let ns: Obj;
    try {
      ns = await nsRes!.store.get('', name);
    } catch {
      return;
    }
    if (!terminating(ns)) return;
    const left = await deleteNamespaceContent(api, name);
    await reportConditions(name, left);
    if (left.total > 0) {
      if (stopped) return;
      const t = setTimeout(() => {
        timers.delete(t);
        enqueue(name);
      }, retryMs);
      timers.add(t);
      return;
    }
    await finalize(name);
  };

  const pump = () => {
    if (working || stopped) return;
    const next = queue.values().next();
    if (next.done) return;
    queue.delete(next.value);
    working = process(next.value)
      .catch(() => {
        if (stopped) return;
        const t = setTimeout(() => {
          timers.delete(t);
          enqueue(next.value);
        }, retryMs);
        timers.add(t);
      })
      .finally(() => {
        working = undefined;
        pump();
      });
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
        if (stopped) {
          watch.stop();
          break;
        }
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
  };
}
