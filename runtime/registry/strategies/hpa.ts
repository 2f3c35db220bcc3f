// autoscaling/v2 HorizontalPodAutoscaler metric targets: each target names
// its type (Utilization, Value or AverageValue); value and averageValue are
// positive quantities and averageUtilization at least 1. Defaults, as the
// v2 Go defaulter sets them: minReplicas 1, one metric (CPU at 80%
// average utilization) when none is given, and a behavior's missing scale-up
// or scale-down rules (and their missing fields) filled with the
// controller's defaults. An object in autoscaling/v1 gets its version's
// defaults declared with its conversion (api-specs/autoscaling_v1.json) and
// none of these. The rules read the object in the storage version's shape,
// as upstream validates the internal object: a v1 object's metrics include
// those its autoscaling.alpha.kubernetes.io/metrics annotation carries, and
// their errors have v2's field paths (spec.metrics[i]...).

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { QuantityValue } from '../../cel/libs/quantity-parse.ts';
import type { Strategy } from '../strategy.ts';
import type { StrategyContext } from './context.ts';

const SOURCES: Record<string, string> = { Object: 'object', Pods: 'pods', Resource: 'resource', ContainerResource: 'containerResource', External: 'external' };

function positive(q: unknown): boolean {
  try {
    return QuantityValue.parse(String(q)).unscaled > 0n;
  } catch {
    return true; // not a quantity: the schema check reports it
  }
}

export function metricTargetErrors(path: string, t: Obj | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const type = t?.type ?? '';
  if (!type) errs.push(fieldErrors.required(`${path}.type`, 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errs.push(fieldErrors.invalid(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  if (t?.value !== undefined && !positive(t.value)) errs.push(fieldErrors.invalid(`${path}.value`, t.value, 'must be positive'));
  if (t?.averageValue !== undefined && !positive(t.averageValue)) errs.push(fieldErrors.invalid(`${path}.averageValue`, t.averageValue, 'must be positive'));
  if (typeof t?.averageUtilization === 'number' && t.averageUtilization < 1) errs.push(fieldErrors.invalid(`${path}.averageUtilization`, t.averageUtilization, 'must be greater than 0'));
  return errs;
}

export function validateMetricTargets(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const metrics: Obj[] = Array.isArray(obj.spec?.metrics) ? obj.spec.metrics : [];
  metrics.forEach((m, i) => {
    const field = SOURCES[m?.type];
    const source = field ? m[field] : undefined;
    if (source && typeof source === 'object') errs.push(...metricTargetErrors(`spec.metrics[${i}].${field}.target`, source.target));
  });
  return errs;
}

/** The CPU utilization a HorizontalPodAutoscaler without metrics targets (upstream's DefaultCPUUtilization). */
export const DEFAULT_CPU_UTILIZATION = 80;

const SCALE_UP: Obj = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};
const SCALE_DOWN: Obj = { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Scaling rules with every absent field (or the whole rules) from the defaults. */
function scalingRules(rules: unknown, defaults: Obj): Obj {
  if (!isObj(rules)) return structuredClone(defaults);
  for (const k of ['stabilizationWindowSeconds', 'selectPolicy', 'policies']) if (rules[k] === undefined || rules[k] === null) rules[k] = structuredClone(defaults[k]);
  return rules;
}

/** The autoscaling/v2 defaults (in place). */
export function defaultHpaV2(obj: Obj): void {
  const spec = obj.spec;
  if (!isObj(spec)) return;
  if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  if (isObj(spec.behavior)) {
    spec.behavior.scaleUp = scalingRules(spec.behavior.scaleUp, SCALE_UP);
    spec.behavior.scaleDown = scalingRules(spec.behavior.scaleDown, SCALE_DOWN);
  }
}

const versionOf = (obj: Obj, def: ResourceDef) => (typeof obj.apiVersion === 'string' && obj.apiVersion.includes('/') ? obj.apiVersion.slice(obj.apiVersion.lastIndexOf('/') + 1) : def.version);

export function hpaStrategy(def: ResourceDef, base: Strategy, ctx?: StrategyContext): Strategy {
  const stored = (obj: Obj) => (ctx?.toStorage ? ctx.toStorage(obj) : obj);
  return {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      if (versionOf(obj, def) === 'v2') defaultHpaV2(obj);
    },
    validate(obj) {
      return [...base.validate(obj), ...validateMetricTargets(stored(obj))];
    },
  };
}
