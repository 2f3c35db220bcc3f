// StorageObjectInUseProtection admission, as kube-apiserver's plugin of
// that name: a PersistentVolumeClaim created gets the
// kubernetes.io/pvc-protection finalizer and a PersistentVolume the
// kubernetes.io/pv-protection one (unless already there), which the
// protection controllers remove once nothing uses the object.

import type { AdmissionPlugin } from '../chain.ts';
import { isObj, listField, objectField } from './fields.ts';

export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';

const FINALIZER_OF: Record<string, string> = { persistentvolumeclaims: PVC_PROTECTION_FINALIZER, persistentvolumes: PV_PROTECTION_FINALIZER };

export function storageObjectInUseProtectionPlugin(): AdmissionPlugin {
  return {
    name: 'StorageObjectInUseProtection',
    admit(attrs) {
      if (attrs.operation !== 'CREATE' || attrs.group !== '' || attrs.subresource !== '') return;
      const finalizer = FINALIZER_OF[attrs.resource];
      const obj = attrs.object;
      const md = finalizer && isObj(obj) ? objectField(obj, 'metadata') : undefined;
      const finalizers = md && listField(md, 'finalizers');
      if (!md || !finalizers) return;
      if (!finalizers.includes(finalizer)) md.finalizers = [...finalizers, finalizer];
    },
  };
}
