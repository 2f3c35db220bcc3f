// The status subresource as upstream's status strategies have it: the
// stored object with the request's status, and the request's labels,
// annotations, finalizers and ownerReferences (metadata a status writer may
// change; identity, generation and spec stay as stored). managedFields are
// the field manager's, computed for this write, as in the generic
// statusStrategy. Kind rules add their status checks on top.

import type { Obj } from '../../../storage/interface.ts';
import type { FieldError } from '../../../api/field-errors.ts';
import { validateObjectMetaUpdate } from '../../metadata.ts';
import { STATUS_RESET_FIELDS, type SubresourceStrategy } from '../../strategy.ts';

export const STATUS_WRITABLE_METADATA = ['labels', 'annotations', 'finalizers', 'ownerReferences', 'managedFields'] as const;

export function statusWithMetadata(check: (obj: Obj, old: Obj) => FieldError[] = () => [], opts: { keepOwnerReferences?: boolean } = {}): SubresourceStrategy {
  const fields = STATUS_WRITABLE_METADATA.filter((f) => !(opts.keepOwnerReferences && f === 'ownerReferences'));
  return {
    resetFields: STATUS_RESET_FIELDS,
    prepareForUpdate(obj, old) {
      const status = obj.status;
      const md: Obj = obj.metadata ?? {};
      for (const k of Object.keys(obj)) delete obj[k];
      Object.assign(obj, structuredClone(old));
      if (status === undefined) delete obj.status;
      else obj.status = status;
      for (const f of fields) {
        if (md[f] === undefined) delete obj.metadata[f];
        else obj.metadata[f] = md[f];
      }
    },
    validateUpdate(obj, old) {
      return [...validateObjectMetaUpdate(obj.metadata ?? {}, old.metadata ?? {}), ...check(obj, old)];
    },
  };
}
