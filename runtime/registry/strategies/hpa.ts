// autoscaling/v2 HorizontalPodAutoscaler metric targets: each target names
// its type (Utilization, Value or AverageValue); value and averageValue are
// positive quantities and averageUtilization at least 1.

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { QuantityValue } from '../../cel/libs/quantity-parse.ts';
import type { Strategy } from '../strategy.ts';

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

export function hpaStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...validateMetricTargets(obj)];
    },
  };
}
