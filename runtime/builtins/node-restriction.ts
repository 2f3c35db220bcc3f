// The live reads NodeRestriction admission needs (a Pod by namespace and
// name, a Node by name), from the registry; a missing object is undefined.

import { ApiError } from '../api/errors.ts';
import type { NodeRestrictionSources } from '../admission/plugins/node-restriction.ts';
import type { ApiIndex } from '../registry/served.ts';
import type { Obj } from '../storage/interface.ts';

function reader(api: ApiIndex, group: string, kind: string): (namespace: string, name: string) => Promise<Obj | undefined> {
  return async (namespace, name) => {
    const res = api.byKind(group, kind);
    if (!res) return undefined;
    try {
      return await res.store.get(namespace, name);
    } catch (err) {
      if (err instanceof ApiError && err.code === 404) return undefined;
      throw err;
    }
  };
}

export function nodeRestrictionSources(api: ApiIndex): NodeRestrictionSources {
  const node = reader(api, '', 'Node');
  return { pod: reader(api, '', 'Pod'), node: (name) => node('', name) };
}
