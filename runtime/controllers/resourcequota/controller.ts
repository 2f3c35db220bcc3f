// kube-controller-manager's resourcequota controller, run in-process
// (`resourcequota` in --controllers, on by default): every ResourceQuota's
// status.hard follows spec.hard and status.used is recalculated from the
// objects it counts (usage.ts) when the quota is created or its spec
// changes, when an object it counts is deleted, when a pod finishes or
// starts terminating or a service changes, and every five minutes (upstream's
// --resource-quota-sync-period). The objects' watches start as quotas name
// their resources. Quotas are synced one at a time; status is written through
// the registry pipeline as the controller's service account, with a
// compare-and-swap on the quota's resourceVersion (a conflict: read again,
// calculate again).

import { errors } from '../../api/errors.ts';
import { groupResourcesOf } from '../../admission/plugins/resource-quota/evaluators.ts';
import type { RegistryStore } from '../../registry/store.ts';
import type { ApiIndex } from '../../registry/served.ts';
import { RESOURCE_QUOTA_CONTROLLER_WRITER } from '../../registry/write-services.ts';
import type { Obj, WatchEvent } from '../../storage/interface.ts';
import { calculateUsage, desiredStatus, needsSync, type ListObjects } from './usage.ts';

/** A running watch of one store (list, then watch; again after it ends). */
export interface WatchHandle {
  stop(): Promise<void>;
}
export type StartWatch = (store: RegistryStore, handlers: { resync(items: Obj[]): void; event(ev: WatchEvent): void }) => WatchHandle;

export interface ResourceQuotaControllerOptions {
  now?: () => number;
  /** Full resync period (ms, default five minutes). */
  resyncMs?: number;
}

const CONFLICT_RETRIES = 3;

/** The served store of a group-resource (its preferred version). */
function storeOf(api: ApiIndex, group: string, resource: string): RegistryStore | undefined {
  let found: RegistryStore | undefined;
  for (const s of api.served) {
    if (s.def.group !== group || s.def.resource !== resource || !s.def.namespaced) continue;
    if (!found || s.def.preferredVersion) found = s.store;
  }
  return found;
}

export function startResourceQuotaController(api: ApiIndex, startWatch: StartWatch, options: ResourceQuotaControllerOptions = {}): WatchHandle | undefined {
  const quotas = api.lookup('', 'v1', 'resourcequotas');
  if (!quotas) return undefined;
  const now = options.now ?? Date.now;
  const writer = { writer: RESOURCE_QUOTA_CONTROLLER_WRITER };
  // what each known quota counts: namespace/name -> group/resource keys
  const counts = new Map<string, Set<string>>();
  const watches = new Map<string, WatchHandle>();
  let stopped = false;

  const listObjects: ListObjects = async (group, resource, namespace) => {
    const store = storeOf(api, group, resource);
    return store ? (await store.list(namespace, {})).items : undefined;
  };

  const sync = async (namespace: string, name: string): Promise<void> => {
    for (let attempt = 0; attempt <= CONFLICT_RETRIES; attempt++) {
      let quota: Obj;
      try {
        quota = await quotas.store.get(namespace, name);
      } catch {
        counts.delete(`${namespace}/${name}`);
        return;
      }
      const status = desiredStatus(quota, await calculateUsage(quota, listObjects, now()));
      if (!status) return;
      try {
        await quotas.store.update(
          namespace,
          name,
          (current) => {
            if (!current) throw errors.notFound({ group: '', resource: 'resourcequotas' }, name);
            return { ...current, metadata: { ...current.metadata, resourceVersion: quota.metadata.resourceVersion }, status };
          },
          { ...writer, subresource: 'status' },
        );
        return;
      } catch (err) {
        if (!(err && typeof err === 'object' && (err as { code?: number }).code === 409)) return;
      }
    }
  };

  // one quota at a time, each queued once until it is synced
  const queued = new Set<string>();
  let running: Promise<void> = Promise.resolve();
  const enqueue = (namespace: string, name: string) => {
    const key = `${namespace}/${name}`;
    if (stopped || queued.has(key)) return;
    queued.add(key);
    running = running
      .then(() => {
        queued.delete(key);
        return sync(namespace, name);
      })
      .catch(() => {});
  };

  /** Every quota of the namespace that counts group/resource. */
  const replenish = (grKey: string, namespace: string | undefined) => {
    if (!namespace) return;
    for (const [key, grs] of counts) {
      const slash = key.indexOf('/');
      if (key.slice(0, slash) === namespace && grs.has(grKey)) enqueue(namespace, key.slice(slash + 1));
    }
  };

  const watchResource = (group: string, resource: string) => {
    const grKey = `${group}/${resource}`;
    if (watches.has(grKey) || (group === '' && resource === 'resourcequotas')) return;
    const store = storeOf(api, group, resource);
    if (!store) return;
    let listed = false;
    watches.set(
      grKey,
      startWatch(store, {
        resync() {
          // a restarted watch may have missed deletions
          if (listed) for (const key of counts.keys()) enqueue(key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1));
          listed = true;
        },
        event(ev) {
          const o = ev.object;
          const ns = o.metadata?.namespace;
          if (ev.type === 'DELETED') replenish(grKey, ns);
          else if (ev.type === 'MODIFIED' && grKey === '/pods' && (o.metadata?.deletionTimestamp || o.status?.phase === 'Succeeded' || o.status?.phase === 'Failed')) replenish(grKey, ns);
          else if (ev.type === 'MODIFIED' && grKey === '/services') replenish(grKey, ns);
        },
      }),
    );
  };

  const track = (quota: Obj) => {
    const ns = quota.metadata?.namespace ?? '';
    const grs = groupResourcesOf(Object.keys(quota.spec?.hard ?? {}));
    counts.set(`${ns}/${quota.metadata?.name}`, new Set(grs.map((g) => `${g.group}/${g.resource}`)));
    for (const g of grs) watchResource(g.group, g.resource);
  };

  const quotaWatch = startWatch(quotas.store, {
    resync(items) {
      for (const q of items) {
        track(q);
        enqueue(q.metadata?.namespace ?? '', q.metadata?.name);
      }
    },
    event(ev) {
      const q = ev.object;
      const ns = q.metadata?.namespace ?? '';
      if (ev.type === 'DELETED') {
        counts.delete(`${ns}/${q.metadata?.name}`);
        return;
      }
      track(q);
      if (ev.type === 'ADDED' || needsSync(q)) enqueue(ns, q.metadata?.name);
    },
  });

  const timer = setInterval(
    () => {
      for (const key of counts.keys()) enqueue(key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1));
    },
    options.resyncMs ?? 5 * 60_000,
  );
  timer.unref?.();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await quotaWatch.stop();
      await Promise.all([...watches.values()].map((w) => w.stop()));
      await running;
    },
  };
}
