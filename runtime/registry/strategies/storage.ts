// storage.k8s.io kinds: CSIDriver (name rules, defaults, immutable
// attachRequired and volumeLifecycleModes only: fsGroupPolicy and
// podInfoOnMount are mutable since 1.29 (the reference swagger says so), as ValidateCSIDriverUpdate has it;
// token requests),
// CSINode (drivers with unique names, nodeID required and immutable),
// CSIStorageCapacity (storageClassName required; it and nodeTopology
// immutable) and VolumeAttachment (attacher, nodeName, exactly one source,
// spec immutable, status only through its subresource).

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { qualifiedNameErrors } from '../../api/validation.ts';
import { validateDNS1123Subdomain } from '../../api/validation.ts';
import type { Strategy } from '../strategy.ts';
import { immutable } from './common/immutable.ts';
import { labelSelectorErrors } from '../../api/label-selector.ts';

const CSI_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const CSI_NAME_MSG = "a CSI driver name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Ephemeral', 'Persistent'];
const MAX_NODE_ID = 192;

/** A CSI driver name: at most 63 characters of the CSI name syntax. */
export function csiDriverNameErrors(path: string, name: unknown): FieldError[] {
  if (!name) return [fieldErrors.required(path, '')];
  const v = String(name);
  const errs: FieldError[] = [];
  if (v.length > 63) errs.push(fieldErrors.tooLong(path, 63));
  if (!CSI_NAME.test(v)) errs.push(fieldErrors.invalid(path, v, CSI_NAME_MSG));
  return errs;
}

function defaultCSIDriver(obj: Obj): void {
  const spec = (obj.spec ??= {});
  spec.attachRequired ??= true;
  spec.podInfoOnMount ??= false;
  spec.storageCapacity ??= false;
  spec.fsGroupPolicy ??= 'ReadWriteOnceWithFSType';
  spec.requiresRepublish ??= false;
  spec.seLinuxMount ??= false;
  if (!Array.isArray(spec.volumeLifecycleModes) || spec.volumeLifecycleModes.length === 0) spec.volumeLifecycleModes = ['Persistent'];
}

function validateCSIDriver(obj: Obj): FieldError[] {
  const errs = csiDriverNameErrors('metadata.name', obj.metadata?.name);
  const spec: Obj = obj.spec ?? {};
  for (const f of ['attachRequired', 'podInfoOnMount', 'requiresRepublish', 'storageCapacity']) {
    if (spec[f] === undefined) errs.push(fieldErrors.required(`spec.${f}`, ''));
  }
  if (spec.fsGroupPolicy !== undefined && !FS_GROUP_POLICIES.includes(spec.fsGroupPolicy)) {
    errs.push(fieldErrors.notSupported('spec.fsGroupPolicy', spec.fsGroupPolicy, FS_GROUP_POLICIES));
  }
  (spec.volumeLifecycleModes ?? []).forEach((m: string, i: number) => {
    if (!LIFECYCLE_MODES.includes(m)) errs.push(fieldErrors.notSupported(`spec.volumeLifecycleModes[${i}]`, m, LIFECYCLE_MODES));
  });
  const audiences = new Set<string>();
  (spec.tokenRequests ?? []).forEach((t: Obj, i: number) => {
    const p = `spec.tokenRequests[${i}]`;
    const aud = t?.audience ?? '';
    if (audiences.has(aud)) errs.push(fieldErrors.duplicate(`${p}.audience`, aud));
    audiences.add(aud);
    const exp = t?.expirationSeconds;
    if (typeof exp === 'number' && exp < 600) errs.push(fieldErrors.invalid(`${p}.expirationSeconds`, exp, 'may not specify a duration less than 10 minutes'));
    if (typeof exp === 'number' && exp > 2 ** 32) errs.push(fieldErrors.invalid(`${p}.expirationSeconds`, exp, 'may not specify a duration larger than 2^32 seconds'));
  });
  return errs;
}

export function csiDriverStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      defaultCSIDriver(obj);
    },
    validate(obj) {
      return validateCSIDriver(obj);
    },
    validateUpdate(obj, old) {
      const s = obj.spec ?? {};
      const o = old.spec ?? {};
      return [
        ...base.validateUpdate(obj, old),
        // upstream names the path `attachedRequired` here
        ...immutable('spec.attachedRequired', s.attachRequired, o.attachRequired),
        ...immutable('spec.volumeLifecycleModes', s.volumeLifecycleModes, o.volumeLifecycleModes),
      ];
    },
  };
}

function validateCSINode(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const drivers = obj.spec?.drivers;
  if (!Array.isArray(drivers)) return [fieldErrors.required('spec.drivers', '')];
  const names = new Set<string>();
  drivers.forEach((d: Obj, i: number) => {
    const p = `spec.drivers[${i}]`;
    errs.push(...csiDriverNameErrors(`${p}.name`, d?.name));
    if (d?.name) {
      if (names.has(d.name)) errs.push(fieldErrors.duplicate(`${p}.name`, d.name));
      names.add(d.name);
    }
    if (!d?.nodeID) errs.push(fieldErrors.required(`${p}.nodeID`, ''));
    else if (String(d.nodeID).length > MAX_NODE_ID) errs.push(fieldErrors.tooLong(`${p}.nodeID`, MAX_NODE_ID));
    (d?.topologyKeys ?? []).forEach((k: string, j: number) => {
      for (const m of qualifiedNameErrors(String(k))) errs.push(fieldErrors.invalid(`${p}.topologyKeys[${j}]`, k, m));
    });
    const count = d?.allocatable?.count;
    if (typeof count === 'number' && count < 0) errs.push(fieldErrors.invalid(`${p}.allocatable.count`, count, 'must be greater than or equal to 0'));
  });
  return errs;
}

export function csiNodeStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...validateCSINode(obj)];
    },
    validateUpdate(obj, old) {
      const errs = base.validateUpdate(obj, old);
      const oldByName = new Map<string, Obj>((old.spec?.drivers ?? []).map((d: Obj) => [d.name, d]));
      (obj.spec?.drivers ?? []).forEach((d: Obj, i: number) => {
        const o = oldByName.get(d?.name);
        if (!o) return;
        errs.push(...immutable(`spec.drivers[${i}].nodeID`, d.nodeID, o.nodeID));
        errs.push(...immutable(`spec.drivers[${i}].topologyKeys`, d.topologyKeys ?? [], o.topologyKeys ?? []));
      });
      return errs;
    },
  };
}

function quantityNonNegative(path: string, q: unknown): FieldError[] {
  if (typeof q === 'string' && q.trim().startsWith('-')) return [fieldErrors.invalid(path, q, 'must be greater than or equal to 0')];
  if (typeof q === 'number' && q < 0) return [fieldErrors.invalid(path, q, 'must be greater than or equal to 0')];
  return [];
}

export function csiStorageCapacityStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      const errs = base.validate(obj);
      if (!obj.storageClassName) errs.push(fieldErrors.required('storageClassName', ''));
      else for (const m of validateDNS1123Subdomain(obj.storageClassName)) errs.push(fieldErrors.invalid('storageClassName', obj.storageClassName, m));
      errs.push(...labelSelectorErrors('nodeTopology', obj.nodeTopology));
      errs.push(...quantityNonNegative('capacity', obj.capacity));
      errs.push(...quantityNonNegative('maximumVolumeSize', obj.maximumVolumeSize));
      return errs;
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...immutable('storageClassName', obj.storageClassName, old.storageClassName), ...immutable('nodeTopology', obj.nodeTopology, old.nodeTopology)];
    },
  };
}

function validateVolumeAttachment(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec: Obj = obj.spec ?? {};
  errs.push(...csiDriverNameErrors('spec.attacher', spec.attacher));
  if (!spec.nodeName) errs.push(fieldErrors.required('spec.nodeName', ''));
  else for (const m of validateDNS1123Subdomain(spec.nodeName)) errs.push(fieldErrors.invalid('spec.nodeName', spec.nodeName, m));
  const src: Obj = spec.source ?? {};
  const hasPV = !!src.persistentVolumeName;
  const hasInline = src.inlineVolumeSpec !== undefined;
  const msg = 'must specify exactly one of inlineVolumeSpec and persistentVolumeName';
  if (!hasPV && !hasInline) errs.push(fieldErrors.required('spec.source', msg));
  else if (hasPV && hasInline) errs.push(fieldErrors.forbidden('spec.source', msg));
  if (hasPV) for (const m of validateDNS1123Subdomain(src.persistentVolumeName)) errs.push(fieldErrors.invalid('spec.source.persistentVolumeName', src.persistentVolumeName, m));
  return errs;
}

export function volumeAttachmentStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...validateVolumeAttachment(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...immutable('spec', obj.spec, old.spec)];
    },
  };
}
