// Namespace: status.phase is Active on create and the `kubernetes` finalizer
// is put in spec.finalizers (removed later through the finalize subresource).

import type { ResourceDef } from '../../../generated/api-types.ts';
import { FINALIZER_NAMESPACE } from '../../k8s-names.ts';
import type { Strategy } from '../strategy.ts';

export function namespaceStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      obj.status = { phase: 'Active' };
      const spec = (obj.spec ??= {});
      const f: string[] = Array.isArray(spec.finalizers) ? spec.finalizers : [];
      if (!f.includes(FINALIZER_NAMESPACE)) f.push(FINALIZER_NAMESPACE);
      spec.finalizers = f;
    },
  };
}
