// PersistentVolume (partial rules): defaults (reclaim policy Retain,
// volumeMode Filesystem, status.phase Pending on create), capacity with a
// storage quantity, access modes, exactly one volume source, local volumes
// with node affinity, node affinity with at least one required term,
// reclaim policy and volumeMode values, storage class
// name; on update volumeMode and the volume source are fixed.

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { validateDNS1123Subdomain } from '../../api/validation.ts';
import { type Strategy } from '../strategy.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import { immutable } from './common/immutable.ts';

const PV_SOURCES = [
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'hostPath',
  'glusterfs',
  'nfs',
  'rbd',
  'iscsi',
  'cinder',
  'cephfs',
  'fc',
  'flocker',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'quobyte',
  'azureDisk',
  'photonPersistentDisk',
  'portworxVolume',
  'scaleIO',
  'local',
  'storageos',
  'csi',
];
const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const RECLAIM = ['Delete', 'Recycle', 'Retain'];
const VOLUME_MODES = ['Block', 'Filesystem'];

function sourceOf(spec: Obj): Obj {
  const out: Obj = {};
  for (const s of PV_SOURCES) if (spec[s] !== undefined) out[s] = spec[s];
  return out;
}

export function validatePersistentVolume(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec: Obj = obj.spec ?? {};
  if (!spec.capacity || Object.keys(spec.capacity).length === 0) errs.push(fieldErrors.required('spec.capacity', ''));
  else if (spec.capacity.storage === undefined) errs.push(fieldErrors.required('spec.capacity[storage]', ''));
  const modes: string[] = spec.accessModes ?? [];
  if (modes.length === 0) errs.push(fieldErrors.required('spec.accessModes', ''));
  for (const m of modes) if (!ACCESS_MODES.includes(m)) errs.push(fieldErrors.notSupported('spec.accessModes', m, ACCESS_MODES));
  if (modes.includes('ReadWriteOncePod') && modes.length > 1) {
    errs.push(fieldErrors.forbidden('spec.accessModes', 'may not use ReadWriteOncePod with other access modes'));
  }
  const present = PV_SOURCES.filter((s) => spec[s] !== undefined);
  if (present.length === 0) errs.push(fieldErrors.required('spec', 'must specify a volume type'));
  for (const extra of present.slice(1)) errs.push(fieldErrors.forbidden(`spec.${extra}`, 'may not specify more than 1 volume type'));
  if (spec.hostPath && !spec.hostPath.path) errs.push(fieldErrors.required('spec.hostPath.path', ''));
  if (spec.local) {
    if (!spec.local.path) errs.push(fieldErrors.required('spec.local.path', ''));
    if (!spec.nodeAffinity) errs.push(fieldErrors.required('spec.nodeAffinity', 'Local volume requires node affinity'));
  }
  if (spec.nodeAffinity && typeof spec.nodeAffinity === 'object') {
    const req = spec.nodeAffinity.required;
    if (!req) errs.push(fieldErrors.required('spec.nodeAffinity.required', 'must specify required node constraints'));
    else if (!Array.isArray(req.nodeSelectorTerms) || req.nodeSelectorTerms.length === 0) {
      errs.push(fieldErrors.required('spec.nodeAffinity.required.nodeSelectorTerms', 'must have at least one node selector term'));
    }
  }
  if (spec.csi && !spec.csi.driver) errs.push(fieldErrors.required('spec.csi.driver', ''));
  if (spec.csi && !spec.csi.volumeHandle) errs.push(fieldErrors.required('spec.csi.volumeHandle', ''));
  if (spec.persistentVolumeReclaimPolicy && !RECLAIM.includes(spec.persistentVolumeReclaimPolicy)) {
    errs.push(fieldErrors.notSupported('spec.persistentVolumeReclaimPolicy', spec.persistentVolumeReclaimPolicy, RECLAIM));
  }
  if (spec.persistentVolumeReclaimPolicy === 'Recycle' && spec.hostPath?.path === '/') {
    errs.push(fieldErrors.forbidden('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  if (spec.volumeMode && !VOLUME_MODES.includes(spec.volumeMode)) errs.push(fieldErrors.notSupported('spec.volumeMode', spec.volumeMode, VOLUME_MODES));
  if (spec.storageClassName) for (const m of validateDNS1123Subdomain(spec.storageClassName)) errs.push(fieldErrors.invalid('spec.storageClassName', spec.storageClassName, m));
  return errs;
}

export function persistentVolumeStrategy(_def: ResourceDef, base: Strategy): Strategy {
  const defaults = (obj: Obj) => {
    const spec = (obj.spec ??= {});
    spec.persistentVolumeReclaimPolicy ??= 'Retain';
    spec.volumeMode ??= 'Filesystem';
  };
  return {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      defaults(obj);
    },
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      obj.status = { phase: 'Pending' };
    },
    validate(obj) {
      return [...base.validate(obj), ...validatePersistentVolume(obj)];
    },
    validateUpdate(obj, old) {
      const errs = [...base.validateUpdate(obj, old), ...immutable('spec.volumeMode', obj.spec?.volumeMode, old.spec?.volumeMode)];
      if (!jsonEqual(sourceOf(obj.spec ?? {}), sourceOf(old.spec ?? {}))) {
        errs.push(fieldErrors.forbidden('spec.persistentvolumesource', 'spec.persistentvolumesource is immutable after creation'));
      }
      if (old.spec?.nodeAffinity && !jsonEqual(obj.spec?.nodeAffinity, old.spec.nodeAffinity)) {
        errs.push(fieldErrors.invalid('spec.nodeAffinity', obj.spec?.nodeAffinity ?? null, 'field is immutable'));
      }
      return errs;
    },
  };
}
