// ResourceQuota wiring: the admission plugin's access to quotas (listed from
// the registry store, and a watch that knows which namespaces have any, so
// that writes elsewhere list nothing; status written through the /status
// subresource as the API server itself, with the quota's resourceVersion as
// precondition)
// and the quota controller started over the built-ins' watch loop.

import { errors } from '../api/errors.ts';
import type { QuotaAccess } from '../admission/plugins/resource-quota/plugin.ts';
import { startResourceQuotaController } from '../controllers/resourcequota/controller.ts';
import type { ApiIndex } from '../registry/served.ts';
import { APISERVER_WRITER } from '../registry/write-services.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';

const QUOTAS = { group: '', resource: 'resourcequotas' };

/** The admission plugin's access to quotas, with a watch counting the quotas of each namespace (stop() ends it). */
export function quotaAccess(api: ApiIndex): QuotaAccess & { stop(): Promise<void> } {
  const store = () => api.lookup('', 'v1', 'resourcequotas')?.store;
  // namespace -> names of its quotas; undefined until the first list
  let perNamespace: Map<string, Set<string>> | undefined;
  const s0 = store();
  const watch = s0
    ? startWatchLoop(s0, '', {
        resync(items) {
          const next = new Map<string, Set<string>>();
          for (const q of items) {
            const ns = q.metadata?.namespace ?? '';
            if (!next.has(ns)) next.set(ns, new Set());
            next.get(ns)!.add(q.metadata?.name);
          }
          perNamespace = next;
        },
        event(ev) {
          const ns = ev.object.metadata?.namespace ?? '';
          const name = ev.object.metadata?.name;
          if (!perNamespace) return;
          if (ev.type === 'DELETED') {
            perNamespace.get(ns)?.delete(name);
            if (!perNamespace.get(ns)?.size) perNamespace.delete(ns);
          } else {
            if (!perNamespace.has(ns)) perNamespace.set(ns, new Set());
            perNamespace.get(ns)!.add(name);
          }
        },
      })
    : undefined;
  return {
    mayHaveQuotas: (namespace) => !perNamespace || perNamespace.has(namespace),
    stop: async () => watch?.stop(),
    async list(namespace) {
      const s = store();
      return s ? (await s.list(namespace, {})).items : [];
    },
    async updateStatus(quota) {
      const s = store();
      const name = quota.metadata?.name;
      if (!s) throw errors.notFound(QUOTAS, name);
      const { obj } = await s.update(
        quota.metadata?.namespace ?? '',
        name,
        (current) => {
          if (!current) throw errors.notFound(QUOTAS, name);
          // the resourceVersion read is the precondition: a quota changed meanwhile is a 409
          return { ...current, metadata: { ...current.metadata, resourceVersion: quota.metadata?.resourceVersion }, status: quota.status };
        },
        { writer: APISERVER_WRITER, subresource: 'status' },
      );
      return obj;
    },
  };
}

export function startResourceQuota(api: ApiIndex): WatchLoop | undefined {
  return startResourceQuotaController(api, (store, handlers) => startWatchLoop(store, '', handlers));
}
