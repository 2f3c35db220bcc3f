// ReplicationController (core/v1): the v1 defaulter fills an empty selector
// and empty labels from the template's labels; the spec needs a non-empty
// selector that selects the template's labels, a template, non-negative
// replicas and minReadySeconds, and no activeDeadlineSeconds in the
// template, read-only GCE persistent disks when replicas > 1 (restartPolicy
// Always is the PodSpec rules'); the selector may
// change. Status writes keep the counts non-negative and each no greater
// than the one it is part of. Upstream's paths and texts.

import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { selectorMatches } from '../../../api/label-selector.ts';
import type { Strategy } from '../../strategy.ts';
import { statusWithMetadata } from '../common/status.ts';
import { noActiveDeadline, nonNegative, readOnlyDiskErrors } from './common.ts';

const isMap = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const isEmptyMap = (v: unknown): boolean => !isMap(v) || Object.keys(v).length === 0;

/** SetDefaults_ReplicationController's selector and labels (replicas is the workload defaults'). */
export function defaultReplicationController(obj: Obj): void {
  const spec = obj.spec;
  if (!isMap(spec)) return;
  const labels = spec.template?.metadata?.labels;
  if (!isMap(labels)) return;
  if (isEmptyMap(spec.selector)) spec.selector = { ...labels };
  const md = obj.metadata;
  if (isMap(md) && isEmptyMap(md.labels)) md.labels = { ...labels };
}

export function validateReplicationController(obj: Obj): FieldError[] {
  const spec: Obj = obj.spec ?? {};
  const errs: FieldError[] = [...nonNegative('spec.minReadySeconds', spec.minReadySeconds)];
  const selector = isMap(spec.selector) ? spec.selector : {};
  const emptySelector = Object.keys(selector).length === 0;
  if (emptySelector) errs.push(fieldErrors.required('spec.selector', ''));
  errs.push(...nonNegative('spec.replicas', spec.replicas));
  if (!spec.template || typeof spec.template !== 'object') {
    errs.push(fieldErrors.required('spec.template', ''));
    return errs;
  }
  const labels = spec.template.metadata?.labels ?? {};
  if (!emptySelector && !selectorMatches({ matchLabels: selector }, labels)) {
    errs.push(fieldErrors.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
  }
  errs.push(...readOnlyDiskErrors(spec));
  errs.push(...noActiveDeadline(spec, 'ReplicationController'));
  return errs;
}

const GREATER = 'cannot be greater than status.replicas';

/** ValidateReplicationControllerStatus. */
export function replicationControllerStatusErrors(obj: Obj): FieldError[] {
  const st: Obj = obj.status ?? {};
  const errs: FieldError[] = [];
  for (const f of ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'observedGeneration']) errs.push(...nonNegative(`status.${f}`, st[f]));
  const replicas = typeof st.replicas === 'number' ? st.replicas : 0;
  for (const f of ['fullyLabeledReplicas', 'readyReplicas', 'availableReplicas']) {
    if (typeof st[f] === 'number' && st[f] > replicas) errs.push(fieldErrors.invalid(`status.${f}`, st[f], GREATER));
  }
  if (typeof st.availableReplicas === 'number' && st.availableReplicas > (st.readyReplicas ?? 0)) {
    errs.push(fieldErrors.invalid('status.availableReplicas', st.availableReplicas, 'cannot be greater than readyReplicas'));
  }
  return errs;
}

export function replicationControllerStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    defaults(obj) {
      defaultReplicationController(obj);
      base.defaults?.(obj);
    },
    validate(obj) {
      return [...base.validate(obj), ...validateReplicationController(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...validateReplicationController(obj)];
    },
    subresources: { ...(base.subresources ?? {}), status: statusWithMetadata(replicationControllerStatusErrors) },
  };
}
