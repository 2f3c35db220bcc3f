// PriorityClass (scheduling.k8s.io/v1): preemptionPolicy defaults to
// PreemptLowerPriority; names starting `system-` are reserved for the two
// built-in classes (with their exact values and no global default); a
// user class's value is at most one billion; value and preemptionPolicy
// never change. The single global default is the Priority admission
// plugin's rule (admission/plugins/priority.ts). Upstream's texts.

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import type { Strategy } from '../strategy.ts';
import { immutable } from './common/immutable.ts';

export const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';
/** The largest value a class outside the reserved prefix may have. */
export const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;

/** The built-in classes kube-apiserver creates at start (name, value, description). */
export const SYSTEM_PRIORITY_CLASSES: readonly { name: string; value: number; description: string }[] = [
  { name: 'system-node-critical', value: SYSTEM_CRITICAL_PRIORITY + 1000, description: 'Used for system critical pods that must not be moved from their current node.' },
  { name: 'system-cluster-critical', value: SYSTEM_CRITICAL_PRIORITY, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
];

const PREEMPTION_POLICIES = ['Never', 'PreemptLowerPriority'];

/** Why a `system-` class is not one of the built-in ones, or undefined when it is. */
export function unknownSystemClass(name: string, value: unknown, globalDefault: boolean): string | undefined {
  const known = SYSTEM_PRIORITY_CLASSES.find((c) => c.name === name);
  if (!known) return `${name} is not a known system priority class`;
  if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`;
  if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
  return undefined;
}

export function priorityClassErrors(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const name = String(obj.metadata?.name ?? '');
  if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
    const why = unknownSystemClass(name, obj.value, obj.globalDefault === true);
    if (why) errs.push(fieldErrors.forbidden('metadata.name', `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${why}`));
  } else if (typeof obj.value === 'number' && obj.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
    errs.push(fieldErrors.forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
  }
  if (obj.preemptionPolicy != null && !PREEMPTION_POLICIES.includes(obj.preemptionPolicy)) {
    errs.push(fieldErrors.notSupported('preemptionPolicy', obj.preemptionPolicy, PREEMPTION_POLICIES));
  }
  return errs;
}

export function priorityClassUpdateErrors(obj: Obj, old: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (obj.value !== old.value) errs.push(fieldErrors.forbidden('value', 'may not be changed in an update.'));
  errs.push(...immutable('preemptionPolicy', obj.preemptionPolicy, old.preemptionPolicy));
  return errs;
}

export function priorityClassStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      obj.preemptionPolicy ??= 'PreemptLowerPriority';
    },
    validate(obj) {
      return [...base.validate(obj), ...priorityClassErrors(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...priorityClassUpdateErrors(obj, old)];
    },
  };
}
