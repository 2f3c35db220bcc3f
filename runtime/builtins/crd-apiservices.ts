// The APIServices of the group-versions CustomResourceDefinitions serve, as
// kube-apiserver's crd-registration controller keeps them: `<version>.<group>`
// with groupPriorityMinimum 1000 and versionPriority 100 (CRDs below every
// built-in group; their versions ordered by the kube-like version order),
// labelled kube-aggregator.kubernetes.io/automanaged=true, created when a
// group-version is first served and deleted when no CRD serves it any more.
// Their priorities reach discovery through the APIService watch of
// apiservices.ts.

import { ApiError } from '../api/errors.ts';
import { groupVersion } from '../api/keys.ts';
import type { ApiIndex } from '../registry/served.ts';
import { APISERVER_WRITER } from '../registry/write-services.ts';
import { apiServiceName, ensureLocalAPIService, LABEL_AUTOMANAGED } from './apiservices.ts';

/** Upstream's priorities of a CRD's APIService. */
const CRD_GROUP_PRIORITY = 1000;
const CRD_VERSION_PRIORITY = 100;

export interface CrdAPIServices {
  /** Resolves once the APIServices match what is served now. */
  synced(): Promise<void>;
  stop(): void;
}

/**
 * Keeps the CRD APIServices in step with the served index; `runtimeServed`
 * names the group-versions served by CRDs created through the API (those of
 * generated CRD manifests have local APIServices from the start).
 */
export function startCrdAPIServices(api: ApiIndex, runtimeServed: () => Set<string>): CrdAPIServices | undefined {
  const res = api.byKind('apiregistration.k8s.io', 'APIService');
  if (!res) return undefined;
  const store = res.store;
  const apiVersion = groupVersion(res.storageDef.group, res.storageDef.version);
  let chain: Promise<void> = Promise.resolve();
  const sync = async () => {
    const wanted = new Map<string, { group: string; version: string }>();
    for (const gv of runtimeServed()) {
      const [group, version] = gv.split('/');
      wanted.set(apiServiceName(group, version), { group, version });
    }
    const { items } = await store.list('', {});
    const existing = new Map(items.map((o) => [o.metadata.name as string, o]));
    for (const [name, { group, version }] of wanted) {
      if (existing.has(name)) continue;
      await ensureLocalAPIService(store, {
        apiVersion,
        kind: 'APIService',
        metadata: { name, labels: { [LABEL_AUTOMANAGED]: 'true' } },
        spec: { group, version, groupPriorityMinimum: CRD_GROUP_PRIORITY, versionPriority: CRD_VERSION_PRIORITY },
      });
    }
    for (const [name, obj] of existing) {
      if (wanted.has(name) || obj.metadata?.labels?.[LABEL_AUTOMANAGED] !== 'true') continue;
      await store.delete('', name, { writer: APISERVER_WRITER }).catch((err) => {
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      });
    }
  };
  const kick = () => {
    chain = chain.then(sync).catch(() => {});
  };
  const unsubscribe = api.onChange(kick);
  kick();
  return {
    synced: async () => {
      let last: Promise<void> | undefined;
      while (last !== chain) {
        last = chain;
        await last;
      }
    },
    stop: unsubscribe,
  };
}
