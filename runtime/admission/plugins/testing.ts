// Test helpers for the admission plugins' unit tests: request attributes
// for an object, a fixed set of cluster-scoped objects, and the ApiError a
// refused call throws.

import { ApiError } from '../../api/errors.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes } from '../chain.ts';
import type { ClusterObjects } from './cluster-objects.ts';

/** Attributes of a write of `object` to group/resource (a CREATE in namespace `ns` unless `over` says otherwise). */
export function attrsFor(group: string, resource: string, object: Obj | null, over: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return {
    operation: 'CREATE',
    group,
    version: 'v1',
    kind: '',
    resource,
    subresource: '',
    namespace: 'ns',
    name: typeof object?.metadata?.name === 'string' ? object.metadata.name : '',
    object,
    oldObject: null,
    dryRun: false,
    user: { name: 'u', groups: [] },
    ...over,
  };
}

/** The ApiError `p` rejects with; fails when it resolves. */
export async function refusal(p: void | Promise<void>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('not refused');
}

/** A fixed set of cluster-scoped objects. */
export function staticClusterObjects(items: Obj[]): ClusterObjects {
  return {
    async get(name) {
      return items.find((o) => o.metadata?.name === name);
    },
    async list() {
      return items;
    },
  };
}
