// The strategy of apiextensions.k8s.io/v1 CustomResourceDefinitions:
// upstream's PrepareForCreate / PrepareForUpdate (status reset on create
// with the storage version recorded in status.storedVersions; status kept on
// update and the new storage version added to it) and
// ValidateCustomResourceDefinition(Update) from crd.ts, including the
// x-kubernetes-validations rules compiled at write time (the CEL module is
// loaded by the first CRD write, not at start-up), wrapped by lifecycle.ts
// (names' defaults, the first delete's finalizer and Terminating condition).
import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { Strategy } from '../../strategy.ts';
import { validateCRD, validateCRDUpdate } from './crd.ts';
import { loadCRDRules } from './schema.ts';
import { crdLifecycleStrategy } from './lifecycle.ts';

function storageVersion(obj: Obj): string | undefined {
  const versions: unknown = obj.spec?.versions;
  if (!Array.isArray(versions)) return undefined;
  const v = versions.find((x) => x !== null && typeof x === 'object' && (x as { storage?: unknown }).storage === true) as { name?: unknown } | undefined;
  return typeof v?.name === 'string' ? v.name : undefined;
}

export function customResourceDefinitionStrategy(def: ResourceDef, base: Strategy): Strategy {
  return crdLifecycleStrategy(def, {
    ...base,
    load: loadCRDRules,
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      const storage = storageVersion(obj);
      obj.status = { storedVersions: storage ? [storage] : [] };
    },
    prepareForUpdate(obj, old) {
      base.prepareForUpdate(obj, old);
      const status = (old.status && typeof old.status === 'object' ? structuredClone(old.status) : {}) as { storedVersions?: string[] };
      const storage = storageVersion(obj);
      const stored = Array.isArray(status.storedVersions) ? status.storedVersions : [];
      if (storage && !stored.includes(storage)) status.storedVersions = [...stored, storage];
      obj.status = status;
    },
    validate(obj) {
      return [...base.validate(obj).filter((e) => e.field !== 'metadata.name'), ...validateCRD(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...validateCRDUpdate(obj, old)];
    },
  });
}
