// Local APIServices: one `<version>.<group>` APIService (apiregistration.k8s.io)
// per served group-version, as kube-apiserver registers at start, with
// upstream's group and version priorities, no spec.service, and status
// Available=True (reason Local). Created idempotently at start; automanaged
// ones whose group-version is no longer served (--runtime-config) are
// removed. A watch on APIServices feeds their priorities to discovery
// (Discovery.reorder), recomputed on each change, never per request.

import type { Discovery, DiscoveryPriorities } from '../http/discovery.ts';
import { ApiError } from '../api/errors.ts';
import type { ApiIndex } from '../registry/served.ts';
import type { RegistryStore } from '../registry/store.ts';
import type { Obj } from '../storage/interface.ts';
import { startWatchLoop } from './watch-loop.ts';
import { groupVersion } from '../api/keys.ts';
import { APISERVER_WRITER } from '../registry/write-services.ts';

export const LABEL_AUTOMANAGED = 'kube-aggregator.kubernetes.io/automanaged';

/** Upstream's priorities per `group/version` (group priority, version priority). */
export const API_SERVICE_PRIORITIES: Record<string, [number, number]> = {
  '/v1': [18000, 1],
  'apiregistration.k8s.io/v1': [18000, 15],
  'apps/v1': [17800, 15],
  'events.k8s.io/v1': [17750, 15],
  'events.k8s.io/v1beta1': [17750, 5],
  'authentication.k8s.io/v1': [17700, 15],
  'authentication.k8s.io/v1beta1': [17700, 9],
  'authentication.k8s.io/v1alpha1': [17700, 1],
  'authorization.k8s.io/v1': [17600, 15],
  'autoscaling/v1': [17500, 15],
  'autoscaling/v2': [17500, 30],
  'autoscaling/v2beta1': [17500, 9],
  'autoscaling/v2beta2': [17500, 1],
  'batch/v1': [17400, 15],
  'batch/v1beta1': [17400, 9],
  'certificates.k8s.io/v1': [17300, 15],
  'certificates.k8s.io/v1beta1': [17300, 9],
  'certificates.k8s.io/v1alpha1': [17300, 1],
  'networking.k8s.io/v1': [17200, 15],
  'networking.k8s.io/v1beta1': [17200, 9],
  'networking.k8s.io/v1alpha1': [17200, 1],
  'policy/v1': [17100, 15],
  'rbac.authorization.k8s.io/v1': [17000, 15],
  'storage.k8s.io/v1': [16800, 15],
  'storage.k8s.io/v1beta1': [16800, 9],
  'storage.k8s.io/v1alpha1': [16800, 1],
  'apiextensions.k8s.io/v1': [16700, 15],
  'admissionregistration.k8s.io/v1': [16700, 15],
  'admissionregistration.k8s.io/v1beta1': [16700, 12],
  'admissionregistration.k8s.io/v1alpha1': [16700, 9],
  'scheduling.k8s.io/v1': [16600, 15],
  'coordination.k8s.io/v1': [16500, 15],
  'coordination.k8s.io/v1alpha1': [16500, 9],
  'node.k8s.io/v1': [16300, 15],
  'node.k8s.io/v1beta1': [16300, 9],
  'node.k8s.io/v1alpha1': [16300, 1],
  'discovery.k8s.io/v1': [16200, 15],
  'flowcontrol.apiserver.k8s.io/v1': [16100, 21],
  'flowcontrol.apiserver.k8s.io/v1beta3': [16100, 18],
  'flowcontrol.apiserver.k8s.io/v1beta2': [16100, 15],
  'flowcontrol.apiserver.k8s.io/v1beta1': [16100, 12],
  'internal.apiserver.k8s.io/v1alpha1': [16000, 9],
  'resource.k8s.io/v1alpha3': [15900, 9],
  'storagemigration.k8s.io/v1alpha1': [15800, 9],
};

/** A group-version upstream has no entry for (a generated group added to api-specs): below every built-in group. */
const FALLBACK: [number, number] = [1000, 100];

export function apiServiceName(group: string, version: string): string {
  return `${version}.${group}`;
}

/** The local APIService of a served group-version. */
export function localAPIService(apiVersion: string, group: string, version: string): Obj {
  const [gp, vp] = API_SERVICE_PRIORITIES[`${group}/${version}`] ?? FALLBACK;
  return {
    apiVersion,
    kind: 'APIService',
    metadata: { name: apiServiceName(group, version), labels: { [LABEL_AUTOMANAGED]: 'onstart' } },
    spec: { group, version, groupPriorityMinimum: gp, versionPriority: vp },
  };
}

/** Discovery priorities from APIService objects: a group's is the highest groupPriorityMinimum of its versions. */
export function prioritiesOf(items: Obj[]): DiscoveryPriorities {
  const out: DiscoveryPriorities = { groups: new Map(), versions: new Map() };
  for (const a of items) {
    const g = String(a.spec?.group ?? '');
    const v = String(a.spec?.version ?? '');
    const gp = Number(a.spec?.groupPriorityMinimum ?? 0);
    if (!v) continue;
    out.groups.set(g, Math.max(out.groups.get(g) ?? -Infinity, gp));
    out.versions.set(`${g}/${v}`, Number(a.spec?.versionPriority ?? 0));
  }
  return out;
}

function isAvailable(obj: Obj): boolean {
  return (obj.status?.conditions ?? []).some((c: Obj) => c.type === 'Available' && c.status === 'True');
}

/** Creates a local APIService unless it exists (`live`, when known), and marks it Available (reason Local) unless it is. */
export async function ensureLocalAPIService(store: RegistryStore, obj: Obj, live?: Obj): Promise<void> {
  const name: string = obj.metadata.name;
  if (!live) {
    try {
      live = await store.create('', obj, { writer: APISERVER_WRITER });
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409)) throw err;
      live = await store.get('', name);
    }
  }
  if (live.spec?.service || isAvailable(live)) return;
  await store.update(
    '',
    name,
    (cur) => {
      if (!cur) throw new Error(`APIService ${name} is gone`);
      const available = {
        type: 'Available',
        status: 'True',
        reason: 'Local',
        message: 'Local APIServices are always available',
        lastTransitionTime: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      };
      const others = (cur.status?.conditions ?? []).filter((c: Obj) => c.type !== 'Available');
      return { ...cur, status: { ...(cur.status ?? {}), conditions: [...others, available] } };
    },
    { subresource: 'status', writer: APISERVER_WRITER },
  );
}

export interface APIServiceBuiltins {
  stop(): Promise<void>;
}

/**
 * Creates (or completes) the local APIServices, removes automanaged ones no
 * longer served, orders discovery by the stored APIServices and keeps it
 * ordered while they change. Undefined when APIService is not served.
 */
export async function installLocalAPIServices(api: ApiIndex, discovery: Discovery): Promise<APIServiceBuiltins | undefined> {
  const res = api.byKind('apiregistration.k8s.io', 'APIService');
  if (!res) return undefined;
  const store = res.store;
  const apiVersion = groupVersion(res.storageDef.group, res.storageDef.version);
  const wanted = new Map<string, Obj>();
  for (const [group, versions] of api.groupVersions()) {
    for (const version of versions) {
      const obj = localAPIService(apiVersion, group, version);
      wanted.set(obj.metadata.name, obj);
    }
  }
  const existing = new Map((await store.list('', {})).items.map((o) => [o.metadata.name as string, o]));
  // one name's create and status update in order, the names together (one durable commit carries many)
  await Promise.all([...wanted.values()].map((obj) => ensureLocalAPIService(store, obj, existing.get(obj.metadata.name))));
  // automanaged at start and no longer served (a group-version turned off)
  for (const [name, obj] of existing) {
    if (!wanted.has(name) && obj.metadata?.labels?.[LABEL_AUTOMANAGED] === 'onstart') {
      await store.delete('', name, { writer: APISERVER_WRITER }).catch((err) => {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      });
    }
  }

  const current = new Map<string, Obj>();
  // discovery is rebuilt only when the priorities change (not for a status update)
  let applied = '';
  const apply = () => {
    const priorities = prioritiesOf([...current.values()]);
    const key = JSON.stringify([[...priorities.groups].sort(), [...priorities.versions].sort()]);
    if (key === applied) return;
    applied = key;
    discovery.reorder(priorities);
  };
  const loop = startWatchLoop(store, '', {
    resync(items) {
      current.clear();
      for (const o of items) current.set(o.metadata.name, o);
      apply();
    },
    event(ev) {
      const o = ev.object;
      if (ev.type === 'DELETED') current.delete(o.metadata.name);
      else current.set(o.metadata.name, o);
      apply();
    },
  });
  // discovery is ordered before the server answers its first request
  const first = await store.list('', {});
  for (const o of first.items) current.set(o.metadata.name, o);
  apply();
  return loop;
}
