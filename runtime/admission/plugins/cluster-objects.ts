// The cluster-scoped objects an admission plugin consults (PriorityClasses,
// StorageClasses, RuntimeClasses, IngressClasses), read through the
// resource's registry store: with the watch cache on (the default), gets
// and lists are answered from the cache as it stands, as upstream's plugins
// read informer listers (a get that misses is read live: ../lister.ts). A
// resource not served reads as empty; a missing object as undefined.

import type { Obj } from '../../storage/interface.ts';
import type { ApiIndex } from '../../registry/served.ts';
import { cachedGet, cachedList } from '../lister.ts';

/** A set of cluster-scoped objects of one resource. */
export interface ClusterObjects {
  get(name: string): Promise<Obj | undefined>;
  list(): Promise<Obj[]>;
}

export function clusterObjects(api: ApiIndex, group: string, version: string, resource: string): ClusterObjects {
  const store = () => api.lookup(group, version, resource)?.store;
  return {
    async get(name) {
      const s = store();
      return s ? cachedGet(s, '', name) : undefined;
    },
    async list() {
      const s = store();
      return s ? cachedList(s, '') : [];
    },
  };
}

/**
 * The newest of the objects `isDefault` accepts (by creationTimestamp, ties
 * by name ascending), as upstream picks the default StorageClass and
 * IngressClass when several are marked; undefined when none is.
 */
export function newestDefault(items: Obj[], isDefault: (o: Obj) => boolean): Obj | undefined {
  const created = (o: Obj): number => {
    const t = Date.parse(String(o.metadata?.creationTimestamp ?? ''));
    return Number.isNaN(t) ? 0 : t;
  };
  let best: Obj | undefined;
  for (const o of items) {
    if (!isDefault(o)) continue;
    if (!best) best = o;
    else {
      const d = created(o) - created(best);
      if (d > 0 || (d === 0 && String(o.metadata?.name ?? '') < String(best.metadata?.name ?? ''))) best = o;
    }
  }
  return best;
}
