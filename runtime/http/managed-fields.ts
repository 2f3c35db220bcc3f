// The seam between the write handlers and server-side apply's field
// manager (runtime/apply): every create, update and non-apply patch records
// ownership as an Update; apply patches go through apply().

import type { MergeSchema } from '../../generated/api-types.ts';
import { ApplyConflictError, FieldManager } from '../apply/index.ts';
import type { ServedResource } from '../server/api-index.ts';
import { ApiError } from './status.ts';
import type { Obj } from '../storage/interface.ts';

export interface ManagedFieldsHook {
  /** Records the writer's ownership on `obj` (operation Update); returns the object to store. */
  update(res: ServedResource, live: Obj | null, obj: Obj, manager: string, subresource?: string): Obj;
  /** Merges an apply configuration into `live`; throws a 409 ApiError on conflicts unless force. */
  apply(res: ServedResource, live: Obj | null, config: Obj, manager: string, force: boolean, subresource?: string): Obj;
}

/** The field-manager hook backed by server-side apply (runtime/apply), one FieldManager per resource version. */
export function createManagedFieldsHook(schema: MergeSchema): ManagedFieldsHook {
  const managers = new Map<string, FieldManager>();
  const managerFor = (res: ServedResource): FieldManager => {
    const d = res.def;
    const key = `${d.group}/${d.version}/${d.resource}`;
    let fm = managers.get(key);
    if (!fm) {
      fm = new FieldManager({ schema, typeName: d.schema, apiVersion: d.group ? `${d.group}/${d.version}` : d.version, unstructured: d.custom });
      managers.set(key, fm);
    }
    return fm;
  };
  return {
    update(res, live, obj, manager, subresource) {
      return managerFor(res).update(live, obj, manager, { subresource });
    },
    apply(res, live, config, manager, force, subresource) {
      try {
        return managerFor(res).apply(live, config, manager, { force, subresource });
      } catch (err) {
        if (err instanceof ApplyConflictError) {
          throw new ApiError(409, 'Conflict', err.message, {
            name: live?.metadata?.name ?? config.metadata?.name, group: res.def.group || undefined, kind: res.def.resource, causes: err.causes,
          });
        }
        throw err;
      }
    },
  };
}
