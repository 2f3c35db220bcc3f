// DefaultStorageClass admission, as kube-apiserver's plugin of that name: a
// PersistentVolumeClaim created without a class (no spec.storageClassName
// and no volume.beta.kubernetes.io/storage-class annotation) gets the
// default StorageClass's name: the class annotated
// storageclass.kubernetes.io/is-default-class (or its beta form) "true";
// with several, the newest (1.26 on). With none, the claim is unchanged.

import type { AdmissionAttributes, AdmissionPlugin } from '../chain.ts';
import type { Obj } from '../../storage/interface.ts';
import { type ClusterObjects, newestDefault } from './cluster-objects.ts';
import { isObj, objectField } from './fields.ts';

export const STORAGE_CLASS_BETA_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';
const IS_DEFAULT = 'storageclass.kubernetes.io/is-default-class';
const BETA_IS_DEFAULT = 'storageclass.beta.kubernetes.io/is-default-class';

/** Upstream's GetPersistentVolumeClaimClass: the beta annotation, else spec.storageClassName, else ''. */
const claimCreate = (attrs: AdmissionAttributes): boolean => attrs.operation === 'CREATE' && attrs.group === '' && attrs.resource === 'persistentvolumeclaims' && attrs.subresource === '';

export function claimClass(pvc: Obj | null | undefined): string {
  const ann = pvc?.metadata?.annotations;
  if (isObj(ann) && STORAGE_CLASS_BETA_ANNOTATION in ann) return String(ann[STORAGE_CLASS_BETA_ANNOTATION]);
  return typeof pvc?.spec?.storageClassName === 'string' ? pvc.spec.storageClassName : '';
}

function hasClass(pvc: Obj): boolean {
  const ann = pvc.metadata?.annotations;
  if (isObj(ann) && STORAGE_CLASS_BETA_ANNOTATION in ann) return true;
  return pvc.spec?.storageClassName != null;
}

const isDefaultClass = (sc: Obj): boolean => sc.metadata?.annotations?.[IS_DEFAULT] === 'true' || sc.metadata?.annotations?.[BETA_IS_DEFAULT] === 'true';

export function defaultStorageClassPlugin(classes: ClusterObjects): AdmissionPlugin {
  return {
    name: 'DefaultStorageClass',
    handles: claimCreate,
    async admit(attrs) {
      if (!claimCreate(attrs)) return;
      const pvc = attrs.object;
      if (!isObj(pvc) || hasClass(pvc)) return;
      const spec = objectField(pvc, 'spec');
      if (!spec) return;
      const def = newestDefault(await classes.list(), isDefaultClass);
      if (def) spec.storageClassName = def.metadata?.name;
    },
  };
}
