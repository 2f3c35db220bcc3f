// NamespaceLifecycle admission: new namespaced objects need an existing
// namespace (404 otherwise) that is not being deleted (403 with a
// NamespaceTerminating cause). A mutating plugin, first in the chain, as
// upstream: later plugins (ServiceAccount) never see a create into a
// missing or terminating namespace. Deleting the immortal namespaces is
// refused by the namespace strategy (its delete check runs before admission).
// Where the namespaces' store hands out their served JSON, a namespace is
// parsed once per stored version, not once per create into it.

import { ApiError, errors } from '../../api/errors.ts';
import type { ApiIndex, ServedResource } from '../../registry/served.ts';
import type { AdmissionPlugin } from '../chain.ts';
import type { Obj } from '../../storage/interface.ts';

const NS_GR = { group: '', resource: 'namespaces' };

/** Namespaces kept at most (by name) with their served JSON and verdict. */
const SEEN_MAX = 4096;

interface Seen {
  json: string;
  terminating: boolean;
}

export function namespaceLifecyclePlugin(api: ApiIndex): AdmissionPlugin {
  const seen = new Map<string, Seen>();
  return {
    name: 'NamespaceLifecycle',
    // a PUT or apply that creates the object reaches admission as a CREATE too
    handles: (attrs) => attrs.operation === 'CREATE' && !!attrs.namespace,
    async admit(attrs) {
      if (attrs.operation !== 'CREATE' || !attrs.namespace) return;
      const res = api.lookup(attrs.group, attrs.version, attrs.resource);
      if (!res || !res.def.namespaced) return;
      const nsRes = api.lookup('', 'v1', 'namespaces');
      if (!nsRes) return;
      let terminating: boolean;
      try {
        terminating = await isTerminating(nsRes, attrs.namespace, seen);
      } catch (err) {
        if (err instanceof ApiError && err.code === 404) throw errors.notFound(NS_GR, attrs.namespace);
        throw err;
      }
      if (terminating) {
        const why = `unable to create new content in namespace ${attrs.namespace} because it is being terminated`;
        const err = errors.forbidden({ group: attrs.group, resource: attrs.resource }, attrs.name, why);
        err.details!.causes = [{ reason: 'NamespaceTerminating', message: why, field: 'metadata.namespace' }];
        throw err;
      }
    },
  };
}

const terminatingObject = (ns: Obj): boolean => !!ns.metadata?.deletionTimestamp || ns.status?.phase === 'Terminating';

/** Whether the namespace is being deleted; the store's errors (404) as they are. */
async function isTerminating(nsRes: ServedResource, name: string, seen: Map<string, Seen>): Promise<boolean> {
  let enc;
  try {
    enc = await nsRes.store.getEncoded('', name);
  } catch (err) {
    seen.delete(name);
    throw err;
  }
  if (!enc) return terminatingObject(await nsRes.store.get('', name));
  const known = seen.get(name);
  if (known && known.json === enc.json) return known.terminating;
  const terminating = terminatingObject(JSON.parse(enc.json) as Obj);
  if (seen.size >= SEEN_MAX) seen.clear();
  seen.set(name, { json: enc.json, terminating });
  return terminating;
}
