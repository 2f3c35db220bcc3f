// autoscaling/v2 HorizontalPodAutoscaler spec.behavior, as upstream
// validates it (with its texts): each of scaleUp and scaleDown, when set,
// has a stabilization window of 0 to 3600 seconds, a selectPolicy of Max,
// Min or Disabled and at least one policy; a policy's type is Pods or
// Percent, its value above zero and its period 1 to 1800 seconds. Absent
// fields read as Go's zero values (a policy without value has value 0).

import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import type { Obj } from '../../../storage/interface.ts';
import { isObj, str } from './metrics.ts';

/** The longest stabilization window (seconds). */
export const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
/** The longest period of a scaling policy (seconds). */
export const MAX_PERIOD_SECONDS = 1800;

const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];

const int = (v: unknown): number => (typeof v === 'number' ? v : 0);

function policyErrors(path: string, p: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(p.type);
  if (!POLICY_TYPES.includes(type)) errs.push(fieldErrors.notSupported(`${path}.type`, type, POLICY_TYPES));
  const value = int(p.value);
  if (value <= 0) errs.push(fieldErrors.invalid(`${path}.value`, value, 'must be greater than zero'));
  const period = int(p.periodSeconds);
  if (period <= 0) errs.push(fieldErrors.invalid(`${path}.periodSeconds`, period, 'must be greater than zero'));
  if (period > MAX_PERIOD_SECONDS) errs.push(fieldErrors.invalid(`${path}.periodSeconds`, period, `must be less than or equal to ${MAX_PERIOD_SECONDS}`));
  return errs;
}

function scalingRulesErrors(path: string, rules: unknown): FieldError[] {
  if (!isObj(rules)) return [];
  const errs: FieldError[] = [];
  const window = rules.stabilizationWindowSeconds;
  if (typeof window === 'number' && window < 0) errs.push(fieldErrors.invalid(`${path}.stabilizationWindowSeconds`, window, 'must be greater than or equal to zero'));
  if (typeof window === 'number' && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(fieldErrors.invalid(`${path}.stabilizationWindowSeconds`, window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  const select = rules.selectPolicy;
  if (select !== undefined && select !== null && !SELECT_POLICIES.includes(str(select))) errs.push(fieldErrors.notSupported(`${path}.selectPolicy`, select, SELECT_POLICIES));
  const policies: unknown[] = Array.isArray(rules.policies) ? rules.policies : [];
  if (policies.length === 0) errs.push(fieldErrors.required(`${path}.policies`, 'must specify at least one Policy'));
  policies.forEach((p, i) => errs.push(...policyErrors(`${path}.policies[${i}]`, isObj(p) ? p : {})));
  return errs;
}

/** spec.behavior (nothing when absent). */
export function behaviorErrors(behavior: unknown): FieldError[] {
  if (!isObj(behavior)) return [];
  return [...scalingRulesErrors('spec.behavior.scaleUp', behavior.scaleUp), ...scalingRulesErrors('spec.behavior.scaleDown', behavior.scaleDown)];
}
