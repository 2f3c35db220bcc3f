// PersistentVolumeClaimResize admission, as kube-apiserver's plugin of that
// name (validating, on updates): a claim's spec.resources.requests.storage
// may grow only when the claim was Bound and its StorageClass (the same
// before and after, named by the beta annotation or spec.storageClassName)
// exists and has allowVolumeExpansion: true; refusals are 403 with
// upstream's texts. Shrinking and unchanged sizes are not this plugin's
// concern (validation rules them).

import { QuantityValue } from '../../cel/libs/quantity-parse.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';
import type { ClusterObjects } from './cluster-objects.ts';
import { claimClass } from './default-storage-class.ts';
import { admissionForbidden } from './forbidden.ts';

export const NOT_BOUND = 'Only bound persistent volume claims can be expanded';
export const NOT_EXPANDABLE = 'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize';

const ZERO = QuantityValue.parse('0');

function storageRequest(pvc: Obj | null): QuantityValue {
  const q = pvc?.spec?.resources?.requests?.storage;
  if (typeof q !== 'string') return ZERO;
  try {
    return QuantityValue.parse(q);
  } catch {
    return ZERO;
  }
}

async function allowResize(classes: ClusterObjects, pvc: Obj, old: Obj): Promise<boolean> {
  const name = claimClass(pvc);
  if (name === '' || name !== claimClass(old)) return false;
  const sc = await classes.get(name);
  return sc?.allowVolumeExpansion === true;
}

const claimUpdate = (attrs: AdmissionAttributes): boolean => attrs.operation === 'UPDATE' && attrs.group === '' && attrs.resource === 'persistentvolumeclaims' && attrs.subresource === '';

export function persistentVolumeClaimResizePlugin(classes: ClusterObjects): AdmissionPlugin {
  return {
    name: 'PersistentVolumeClaimResize',
    handles: claimUpdate,
    async validate(attrs) {
      if (!claimUpdate(attrs)) return;
      const pvc = attrs.object;
      const old = attrs.oldObject;
      if (!pvc || !old) return;
      if (storageRequest(pvc).cmp(storageRequest(old)) <= 0) return;
      if (old.status?.phase !== 'Bound') throw admissionForbidden(attrs, NOT_BOUND);
      if (!(await allowResize(classes, pvc, old))) throw admissionForbidden(attrs, NOT_EXPANDABLE);
    },
  };
}
