// NamespaceLifecycle admission: new namespaced objects need an existing
// namespace (404 otherwise) that is not being deleted (403 with a
// NamespaceTerminating cause). A mutating plugin, first in the chain, as
// upstream: later plugins (ServiceAccount) never see a create into a
// missing or terminating namespace. Deleting the immortal namespaces is
// refused by the namespace strategy (its delete check runs before admission).

import { ApiError, errors } from '../../api/errors.ts';
import type { ApiIndex } from '../../registry/served.ts';
import type { AdmissionPlugin } from '../chain.ts';

const NS_GR = { group: '', resource: 'namespaces' };

export function namespaceLifecyclePlugin(api: ApiIndex): AdmissionPlugin {
  return {
    name: 'NamespaceLifecycle',
    async admit(attrs) {
      // a PUT or apply that creates the object reaches admission as a CREATE too
      if (attrs.operation !== 'CREATE' || !attrs.namespace) return;
      const res = api.lookup(attrs.group, attrs.version, attrs.resource);
      if (!res || !res.def.namespaced) return;
      const nsRes = api.lookup('', 'v1', 'namespaces');
      if (!nsRes) return;
      let ns;
      try {
        ns = await nsRes.store.get('', attrs.namespace);
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) throw errors.notFound(NS_GR, attrs.namespace);
        throw err;
      }
      if (ns.metadata?.deletionTimestamp || ns.status?.phase === 'Terminating') {
        const why = `unable to create new content in namespace ${attrs.namespace} because it is being terminated`;
        const err = errors.forbidden({ group: attrs.group, resource: attrs.resource }, attrs.name, why);
        err.details!.causes = [{ reason: 'NamespaceTerminating', message: why, field: 'metadata.namespace' }];
        throw err;
      }
    },
  };
}
