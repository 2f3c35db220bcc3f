// autoscaling/v2 HorizontalPodAutoscaler metrics, as upstream validates
// spec.metrics (with its texts): each metric names its source type (Object,
// Pods, Resource, ContainerResource or External) and sets that source and
// no other; only the first source set is checked. A source names its metric
// (a path segment name), its described object (kind and name, path segment
// names) or resource (a container's: a container resource name and a
// DNS-1123 label container), and a target whose type is Utilization, Value
// or AverageValue with positive values, holding the values the source needs.
// With minReplicas 0 (scale to zero) one Object or External metric is
// required. Absent fields read as Go's zero values, as upstream decodes
// them. Label selectors of metrics are not checked (upstream does not).

import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { quantityGoValue } from '../../../api/go-quantity.ts';
import { validateDNS1123Label, validatePathSegment } from '../../../api/validation.ts';
import { QuantityValue } from '../../../cel/libs/quantity-parse.ts';
import type { Obj } from '../../../storage/interface.ts';
import { containerResourceNameErrors } from '../common/resource-names.ts';

/** The metric source types, in upstream's sorted order (its "supported values"). */
const SOURCE_TYPES = ['ContainerResource', 'External', 'Object', 'Pods', 'Resource'];

/** Each source type's field, in the order upstream looks for them. */
const SOURCE_FIELDS: [type: string, field: string][] = [
  ['Object', 'object'],
  ['External', 'external'],
  ['Pods', 'pods'],
  ['Resource', 'resource'],
  ['ContainerResource', 'containerResource'],
];

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const set = (v: unknown) => v !== undefined && v !== null;

function positive(q: unknown): boolean {
  try {
    return QuantityValue.parse(String(q)).unscaled > 0n;
  } catch {
    return true; // not a quantity: the schema check reports it
  }
}

/** A CrossVersionObjectReference (scaleTargetRef, an Object metric's describedObject): kind and name, both path segment names. */
export function objectReferenceErrors(path: string, ref: unknown): FieldError[] {
  const r = isObj(ref) ? ref : {};
  const errs: FieldError[] = [];
  for (const f of ['kind', 'name']) {
    const v = str(r[f]);
    if (!v) errs.push(fieldErrors.required(`${path}.${f}`, ''));
    else for (const m of validatePathSegment(v)) errs.push(fieldErrors.invalid(`${path}.${f}`, v, m));
  }
  return errs;
}

export function metricTargetErrors(path: string, t: Obj | undefined): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(t?.type);
  if (!type) errs.push(fieldErrors.required(`${path}.type`, 'must specify a metric target type'));
  if (type !== 'Utilization' && type !== 'Value' && type !== 'AverageValue') errs.push(fieldErrors.invalid(`${path}.type`, type, 'must be either Utilization, Value, or AverageValue'));
  // a quantity prints as Go prints the Quantity struct (go-quantity.ts)
  if (set(t?.value) && !positive(t!.value)) errs.push(fieldErrors.invalid(`${path}.value`, quantityGoValue(String(t!.value)), 'must be positive'));
  if (set(t?.averageValue) && !positive(t!.averageValue)) errs.push(fieldErrors.invalid(`${path}.averageValue`, quantityGoValue(String(t!.averageValue)), 'must be positive'));
  if (typeof t?.averageUtilization === 'number' && t.averageUtilization < 1) errs.push(fieldErrors.invalid(`${path}.averageUtilization`, t.averageUtilization, 'must be greater than 0'));
  return errs;
}

function metricIdentifierErrors(path: string, id: unknown): FieldError[] {
  const name = str(isObj(id) ? id.name : undefined);
  if (!name) return [fieldErrors.required(`${path}.name`, 'must specify a metric name')];
  return validatePathSegment(name).map((m) => fieldErrors.invalid(`${path}.name`, name, m));
}

const targetOf = (src: Obj): Obj => (isObj(src.target) ? src.target : {});

/** Resource and ContainerResource: a utilization or a raw average value, not both. */
function utilizationOrValueErrors(path: string, t: Obj): FieldError[] {
  if (!set(t.averageUtilization) && !set(t.averageValue)) return [fieldErrors.required(`${path}.target.averageUtilization`, 'must set either a target raw value or a target utilization')];
  if (set(t.averageUtilization) && set(t.averageValue)) return [fieldErrors.forbidden(`${path}.target.averageValue`, 'may not set both a target raw value and a target utilization')];
  return [];
}

const SOURCE_RULES: Record<string, (path: string, src: Obj) => FieldError[]> = {
  object(path, src) {
    const t = targetOf(src);
    const errs = [...objectReferenceErrors(`${path}.describedObject`, src.describedObject), ...metricIdentifierErrors(`${path}.metric`, src.metric), ...metricTargetErrors(`${path}.target`, t)];
    if (!set(t.value) && !set(t.averageValue)) errs.push(fieldErrors.required(`${path}.target.averageValue`, 'must set either a target value or averageValue'));
    return errs;
  },
  external(path, src) {
    const t = targetOf(src);
    const errs = [...metricIdentifierErrors(`${path}.metric`, src.metric), ...metricTargetErrors(`${path}.target`, t)];
    if (!set(t.value) && !set(t.averageValue)) errs.push(fieldErrors.required(`${path}.target.averageValue`, 'must set either a target value for metric or a per-pod target'));
    if (set(t.value) && set(t.averageValue)) errs.push(fieldErrors.forbidden(`${path}.target.value`, 'may not set both a target value for metric and a per-pod target'));
    return errs;
  },
  pods(path, src) {
    const t = targetOf(src);
    const errs = [...metricIdentifierErrors(`${path}.metric`, src.metric), ...metricTargetErrors(`${path}.target`, t)];
    if (!set(t.averageValue)) errs.push(fieldErrors.required(`${path}.target.averageValue`, 'must specify a positive target averageValue'));
    return errs;
  },
  resource(path, src) {
    const t = targetOf(src);
    const errs: FieldError[] = [];
    if (!str(src.name)) errs.push(fieldErrors.required(`${path}.name`, 'must specify a resource name'));
    errs.push(...metricTargetErrors(`${path}.target`, t), ...utilizationOrValueErrors(path, t));
    return errs;
  },
  containerResource(path, src) {
    const t = targetOf(src);
    const errs: FieldError[] = [];
    const name = str(src.name);
    if (!name) errs.push(fieldErrors.required(`${path}.name`, 'must specify a resource name'));
    else errs.push(...containerResourceNameErrors(`${path}.name`, name));
    const container = str(src.container);
    if (!container) errs.push(fieldErrors.required(`${path}.container`, 'must specify a container'));
    else errs.push(...validateDNS1123Label(container).map((m) => fieldErrors.invalid(`${path}.container`, container, m)));
    errs.push(...metricTargetErrors(`${path}.target`, t), ...utilizationOrValueErrors(path, t));
    return errs;
  },
};

/** One spec.metrics item. */
export function metricSpecErrors(path: string, m: unknown): FieldError[] {
  const spec = isObj(m) ? m : {};
  const type = str(spec.type);
  const errs: FieldError[] = [];
  if (!type) errs.push(fieldErrors.required(`${path}.type`, 'must specify a metric source type'));
  const known = SOURCE_TYPES.includes(type);
  if (!known) errs.push(fieldErrors.notSupported(`${path}.type`, type, SOURCE_TYPES));
  const present = SOURCE_FIELDS.map(([, f]) => f).filter((f) => isObj(spec[f]));
  // only the first source set is checked
  if (present.length) errs.push(...SOURCE_RULES[present[0]](`${path}.${present[0]}`, spec[present[0]]));
  const expected = SOURCE_FIELDS.find(([t]) => t === type)?.[1];
  if (expected && !present.includes(expected)) errs.push(fieldErrors.required(`${path}.${expected}`, 'must populate information for the given metric source'));
  // upstream reports an unknown type a second time here
  if (!known) errs.push(fieldErrors.notSupported(`${path}.type`, type, SOURCE_TYPES));
  if (present.length !== 1) for (const f of present) if (f !== expected) errs.push(fieldErrors.forbidden(`${path}.${f}`, 'must populate the given metric source only'));
  return errs;
}

/** spec.metrics; `minReplicas` the spec's (0: scale to zero needs an Object or External metric). */
export function metricsErrors(metrics: unknown, minReplicas: unknown): FieldError[] {
  const list: unknown[] = Array.isArray(metrics) ? metrics : [];
  const errs = list.flatMap((m, i) => metricSpecErrors(`spec.metrics[${i}]`, m));
  const scalesOnObjects = list.some((m) => isObj(m) && (m.type === 'Object' || m.type === 'External'));
  if (minReplicas === 0 && !scalesOnObjects) errs.push(fieldErrors.forbidden('spec.metrics', 'must specify at least one Object or External metric to support scaling to zero replicas'));
  return errs;
}
