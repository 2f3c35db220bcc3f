// Label selectors as Kubernetes defines them, apart from any syntax: the
// requirement model (key, operator, values) with its matching and its string
// form (`app=web,tier in (a,b),!legacy`, requirements sorted by key), the
// rules a requirement must keep (upstream's NewRequirement texts), the
// validation of a LabelSelector object in a resource (ValidateLabelSelector,
// as field errors), and matching or printing a LabelSelector object. The
// `?labelSelector=` string parser is storage's (storage/selectors/labels.ts).

import { type FieldError, fieldErrors } from './field-errors.ts';
import { formatValue } from './go-format.ts';
import { labelValueErrors, qualifiedNameErrors } from './validation.ts';

export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  key: string;
  operator: LabelOperator;
  values: string[];
}

export interface LabelSelector {
  matches(labels: Record<string, string>): boolean;
  empty(): boolean;
  requirements: Requirement[];
  toString(): string;
}

const has = (o: Record<string, string>, k: string) => Object.prototype.hasOwnProperty.call(o, k);

export function requirementMatches(r: Requirement, labels: Record<string, string>): boolean {
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has(labels, r.key) && r.values.includes(labels[r.key]);
    case 'notin':
    case '!=':
      return !has(labels, r.key) || !r.values.includes(labels[r.key]);
    case 'exists':
      return has(labels, r.key);
    case '!':
      return !has(labels, r.key);
    case 'gt':
    case 'lt': {
      if (!has(labels, r.key) || !/^[+-]?[0-9]+$/.test(labels[r.key])) return false;
      const v = BigInt(labels[r.key]);
      const want = BigInt(r.values[0]);
      return r.operator === 'gt' ? v > want : v < want;
    }
  }
}

function requirementString(r: Requirement): string {
  const vals = [...r.values].sort().join(',');
  switch (r.operator) {
    case '!':
      return '!' + r.key;
    case 'exists':
      return r.key;
    case 'in':
      return `${r.key} in (${vals})`;
    case 'notin':
      return `${r.key} notin (${vals})`;
    case 'gt':
      return `${r.key}>${vals}`;
    case 'lt':
      return `${r.key}<${vals}`;
    default:
      return `${r.key}${r.operator}${vals}`;
  }
}

export function makeLabelSelector(reqs: Requirement[]): LabelSelector {
  const sorted = [...reqs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    requirements: sorted,
    matches: (labels) => sorted.every((r) => requirementMatches(r, labels)),
    empty: () => sorted.length === 0,
    toString: () => sorted.map(requirementString).join(','),
  };
}

/** Checks a requirement as upstream's NewRequirement does; returns the error messages (`path` null prints as `<nil>`). */
export function requirementErrors(r: Requirement, path: string | null): string[] {
  const errs: string[] = [];
  const keyErrs = qualifiedNameErrors(r.key);
  if (keyErrs.length) errs.push(fieldErrors.invalid(path === null ? 'key' : `${path}.key`, r.key, keyErrs.join('; ')).toString());
  const valuePath = path === null ? 'values' : `${path}.values`;
  const listText = formatValue(r.values);
  switch (r.operator) {
    case 'in':
    case 'notin':
      if (r.values.length === 0) errs.push(`${valuePath}: Invalid value: ${listText}: for 'in', 'notin' operators, values set can't be empty`);
      break;
    case '=':
    case '==':
    case '!=':
      if (r.values.length !== 1) errs.push(`${valuePath}: Invalid value: ${listText}: exact-match compatibility requires one single value`);
      break;
    case 'exists':
    case '!':
      if (r.values.length !== 0) errs.push(`${valuePath}: Invalid value: ${listText}: values set must be empty for exists and does not exist`);
      break;
    case 'gt':
    case 'lt':
      if (r.values.length !== 1) errs.push(`${valuePath}: Invalid value: ${listText}: for 'Gt', 'Lt' operators, exactly one value is required`);
      r.values.forEach((v, i) => {
        if (!/^[+-]?[0-9]+$/.test(v)) errs.push(fieldErrors.invalid(`${valuePath}[${i}]`, v, "for 'Gt', 'Lt' operators, the value must be an integer").toString());
      });
      break;
  }
  r.values.forEach((v, i) => {
    const ve = labelValueErrors(v);
    if (ve.length) errs.push(fieldErrors.invalid(`${valuePath}[${i}][${r.key}]`, v, ve.join('; ')).toString());
  });
  return errs;
}

/** A LabelSelector object (metav1.LabelSelector) as JSON. */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: { key: string; operator: string; values?: string[] | null }[] | null;
}

const OBJECT_OPERATORS: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/**
 * The requirements of a LabelSelector object, matchLabels first (as `=`),
 * then matchExpressions; `unknown` lists the operators that are none of In,
 * NotIn, Exists, DoesNotExist (those expressions give no requirement).
 */
export function objectRequirements(ls: LabelSelectorObject): { requirements: Requirement[]; unknown: string[] } {
  const requirements: Requirement[] = [];
  const unknown: string[] = [];
  for (const [k, v] of Object.entries(ls.matchLabels ?? {})) requirements.push({ key: k, operator: '=', values: [v] });
  for (const e of ls.matchExpressions ?? []) {
    const op = OBJECT_OPERATORS[e?.operator];
    if (!op) unknown.push(e?.operator);
    else requirements.push({ key: e.key, operator: op, values: [...(e.values ?? [])] });
  }
  return { requirements, unknown };
}

/** A LabelSelector object as the selector string kube-apiserver prints (the scale subresource's status.selector); unknown operators are left out. */
export function labelSelectorString(sel: LabelSelectorObject | undefined | null): string {
  if (!sel) return '';
  return makeLabelSelector(objectRequirements(sel).requirements).toString();
}

/** Whether a label map satisfies a selector object (an empty selector matches everything; a missing one or an unknown operator nothing). */
export function selectorMatches(sel: LabelSelectorObject | undefined | null, labels: Record<string, string> = {}): boolean {
  if (!sel) return false;
  const { requirements, unknown } = objectRequirements(sel);
  return unknown.length === 0 && makeLabelSelector(requirements).matches(labels);
}

export function isEmptySelector(sel: LabelSelectorObject | undefined | null): boolean {
  return !sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0);
}

/** ValidateLabelSelector: keys, values and operators of a selector in a resource, as field errors under `path`. */
export function labelSelectorErrors(path: string, sel: LabelSelectorObject | undefined | null): FieldError[] {
  if (!sel || typeof sel !== 'object') return [];
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) {
    for (const m of qualifiedNameErrors(k)) errs.push(fieldErrors.invalid(`${path}.matchLabels`, k, m));
    if (typeof v === 'string') for (const m of labelValueErrors(v)) errs.push(fieldErrors.invalid(`${path}.matchLabels`, v, m));
  }
  (Array.isArray(sel.matchExpressions) ? sel.matchExpressions : []).forEach((e: NonNullable<LabelSelectorObject['matchExpressions']>[number] | undefined, i: number) => {
    const p = `${path}.matchExpressions[${i}]`;
    for (const m of qualifiedNameErrors(String(e?.key ?? ''))) errs.push(fieldErrors.invalid(`${p}.key`, e?.key ?? '', m));
    const values: unknown[] = Array.isArray(e?.values) ? e.values : [];
    switch (e?.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(fieldErrors.required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(fieldErrors.forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(fieldErrors.invalid(`${p}.operator`, e?.operator ?? '', 'not a valid selector operator'));
    }
    values.forEach((v, j) => {
      if (typeof v === 'string') for (const m of labelValueErrors(v)) errs.push(fieldErrors.invalid(`${p}.values[${j}]`, v, m));
    });
  });
  return errs;
}
