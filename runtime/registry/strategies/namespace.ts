// Namespace: Active on create with the `kubernetes` finalizer in
// spec.finalizers and the kubernetes.io/metadata.name label; a delete turns
// it Terminating and keeps it while spec.finalizers is non-empty (the
// namespace controller empties it and removes its finalizer through the
// finalize subresource, update only). Main-resource writes keep status and
// spec.finalizers; status writes keep spec; finalize writes keep everything
// but spec.finalizers. default, kube-system and kube-public cannot be deleted.

import type { ResourceDef } from '../../../generated/api-types.ts';
import { errors } from '../../api/errors.ts';
import { FINALIZER_NAMESPACE, NS_DEFAULT, NS_PUBLIC, NS_SYSTEM } from '../../api/k8s-names.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { qualifiedNameErrors } from '../../api/validation.ts';
import type { Strategy, SubresourceStrategy } from '../strategy.ts';
import { statusWithMetadata } from './common/status.ts';

export const LABEL_METADATA_NAME = 'kubernetes.io/metadata.name';
const IMMORTAL = new Set([NS_DEFAULT, NS_SYSTEM, NS_PUBLIC]);
const STANDARD_FINALIZERS = new Set([FINALIZER_NAMESPACE, 'orphan', 'foregroundDeletion']);
const GR = { group: '', resource: 'namespaces' };

/** A finalizer name: a qualified name that is standard or domain-qualified (`example.com/x`). */
export function finalizerNameErrors(path: string, name: string): FieldError[] {
  const errs = qualifiedNameErrors(name).map((m) => fieldErrors.invalid(path, name, m));
  if (errs.length === 0 && !STANDARD_FINALIZERS.has(name) && !name.includes('/')) {
    errs.push(fieldErrors.invalid(path, name, 'name is neither a standard finalizer name nor is it fully qualified'));
  }
  return errs;
}

function specFinalizerErrors(obj: Obj): FieldError[] {
  const f = obj.spec?.finalizers;
  if (!Array.isArray(f)) return [];
  return f.flatMap((name: string) => finalizerNameErrors('spec.finalizers', String(name)));
}

function pendingFinalizers(obj: Obj): boolean {
  return Array.isArray(obj.spec?.finalizers) && obj.spec.finalizers.length > 0;
}

function setNameLabel(obj: Obj): void {
  const md = obj.metadata;
  if (!md?.name) return;
  md.labels = { ...(md.labels ?? {}), [LABEL_METADATA_NAME]: md.name };
}

function phaseErrors(obj: Obj): FieldError[] {
  const phase = obj.status?.phase;
  if (phase === undefined) return [];
  if (!obj.metadata?.deletionTimestamp) {
    if (phase !== 'Active') return [fieldErrors.invalid('status.phase', phase, "may only be 'Active' if `deletionTimestamp` is empty")];
  } else if (phase !== 'Terminating') {
    return [fieldErrors.invalid('status.phase', phase, "may only be 'Terminating' if `deletionTimestamp` is not empty")];
  }
  return [];
}

function statusSub(): SubresourceStrategy {
  const base = statusWithMetadata((obj) => phaseErrors(obj));
  return {
    resetFields: base.resetFields,
    prepareForUpdate(obj, old) {
      base.prepareForUpdate(obj, old);
      setNameLabel(obj);
    },
    validateUpdate: base.validateUpdate,
  };
}

function finalizeSub(): SubresourceStrategy {
  return {
    // nothing is reset from field ownership through finalize
    resetFields: [],
    prepareForUpdate(obj, old) {
      const finalizers = obj.spec?.finalizers;
      for (const k of Object.keys(obj)) delete obj[k];
      Object.assign(obj, structuredClone(old));
      obj.spec = { ...(obj.spec ?? {}) };
      if (finalizers === undefined) delete obj.spec.finalizers;
      else obj.spec.finalizers = finalizers;
    },
    validateUpdate(obj) {
      return specFinalizerErrors(obj);
    },
  };
}

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
    prepareForUpdate(obj, old) {
      const spec = (obj.spec ??= {});
      if (old.spec?.finalizers === undefined) delete spec.finalizers;
      else spec.finalizers = structuredClone(old.spec.finalizers);
      if (Object.keys(spec).length === 0 && old.spec === undefined) delete obj.spec;
      base.prepareForUpdate(obj, old);
    },
    // the name label is upstream's defaulter's (SetDefaults_Namespace)
    defaults(obj) {
      base.defaults?.(obj);
      setNameLabel(obj);
    },
    validate(obj) {
      return [...base.validate(obj), ...specFinalizerErrors(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...specFinalizerErrors(obj)];
    },
    subresources: { status: statusSub(), finalize: finalizeSub() },
    hasPendingFinalizers: pendingFinalizers,
    validateDelete(live) {
      const name: string = live.metadata?.name ?? '';
      if (IMMORTAL.has(name)) throw errors.forbidden(GR, name, 'this namespace may not be deleted');
    },
    prepareForGracefulDelete(obj, alreadyDeleting) {
      const name: string = obj.metadata?.name ?? '';
      if (IMMORTAL.has(name)) throw errors.forbidden(GR, name, 'this namespace may not be deleted');
      if (alreadyDeleting && pendingFinalizers(obj)) {
        throw errors.conflict(GR, name, 'The system is ensuring all content is removed from this namespace.  Upon completion, this namespace will automatically be purged by the system.');
      }
      obj.status = { ...(obj.status ?? {}), phase: 'Terminating' };
    },
  };
}
