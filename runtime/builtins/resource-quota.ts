// ResourceQuota wiring: the admission plugin's access to quotas (listed from
// the registry store; status written through the /status subresource as
// the API server itself, with the quota's resourceVersion as precondition)
// and the quota controller started over the built-ins' watch loop.

import { errors } from '../api/errors.ts';
import type { QuotaAccess } from '../admission/plugins/resource-quota/plugin.ts';
import { startResourceQuotaController } from '../controllers/resourcequota/controller.ts';
import type { ApiIndex } from '../registry/served.ts';
import { APISERVER_WRITER } from '../registry/write-services.ts';
import { startWatchLoop, type WatchLoop } from './watch-loop.ts';

const QUOTAS = { group: '', resource: 'resourcequotas' };

export function quotaAccess(api: ApiIndex): QuotaAccess {
  const store = () => api.lookup('', 'v1', 'resourcequotas')?.store;
  return {
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
