// Validation of admission rules and match resources as kube-apiserver 1.31's
// admissionregistration validation reports them (validateRule,
// validateRuleWithOperations, validateNamedRuleWithOperations,
// validateMatchResources): operations, groups, versions, resources with
// their wildcard forms, scope, resource names, match policy and selectors.
// Shared by the webhook configurations and the admission policies.

import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { labelSelectorErrors } from '../../../api/label-selector.ts';
import { validatePathSegment } from '../../../api/validation.ts';
import { GoValue, goQuote } from '../../../api/go-format.ts';
import type { Obj } from '../../../storage/interface.ts';

const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
const SCOPES = ['*', 'Cluster', 'Namespaced'];
const MATCH_POLICIES = ['Equivalent', 'Exact'];

/** Go's %#v of a slice of one of the internal admissionregistration string types (`[]admissionregistration.OperationType{"CREATE", "*"}`). */
export function goTypedSlice(type: string, items: unknown[]): GoValue {
  return new GoValue(`[]admissionregistration.${type}{${items.map((x) => goQuote(String(x))).join(', ')}}`);
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const hasWildcard = (v: unknown[]) => v.some((x) => x === '*');

function resourcesErrors(resources: unknown[], field: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(fieldErrors.required(field));
  const wildSub = new Set<string>(); // x/*
  const wildRes = new Set<string>(); // */x
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSub = false;
  resources.forEach((r, i) => {
    const rs = typeof r === 'string' ? r : '';
    if (rs === '') {
      errs.push(fieldErrors.required(`${field}[${i}]`));
      return;
    }
    if (rs === '*/*') doubleWildcard = true;
    if (rs === '*') singleWildcard = true;
    const slash = rs.indexOf('/');
    if (slash < 0) {
      withoutSub = rs !== '*';
      return;
    }
    const res = rs.slice(0, slash);
    const sub = rs.slice(slash + 1);
    if (wildSub.has(res)) errs.push(fieldErrors.invalid(`${field}[${i}]`, rs, `if '${res}/*' is present, must not specify ${rs}`));
    if (wildRes.has(sub)) errs.push(fieldErrors.invalid(`${field}[${i}]`, rs, `if '*/${sub}' is present, must not specify ${rs}`));
    if (sub === '*') wildSub.add(res);
    if (res === '*') wildRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errs.push(fieldErrors.invalid(field, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSub) errs.push(fieldErrors.invalid(field, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

/** validateRuleWithOperations (subresources allowed) of the rule at `field`. */
export function ruleWithOperationsErrors(rule: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = list(rule.operations);
  if (ops.length === 0) errs.push(fieldErrors.required(`${field}.operations`));
  if (ops.length > 1 && hasWildcard(ops)) errs.push(fieldErrors.invalid(`${field}.operations`, goTypedSlice('OperationType', ops), "if '*' is present, must not specify other operations"));
  ops.forEach((op, i) => {
    if (typeof op !== 'string' || !OPERATIONS.includes(op)) errs.push(fieldErrors.notSupported(`${field}.operations[${i}]`, op, OPERATIONS));
  });
  const groups = list(rule.apiGroups);
  if (groups.length === 0) errs.push(fieldErrors.required(`${field}.apiGroups`));
  if (groups.length > 1 && hasWildcard(groups)) errs.push(fieldErrors.invalid(`${field}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = list(rule.apiVersions);
  if (versions.length === 0) errs.push(fieldErrors.required(`${field}.apiVersions`));
  if (versions.length > 1 && hasWildcard(versions)) errs.push(fieldErrors.invalid(`${field}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '' || v == null) errs.push(fieldErrors.required(`${field}.apiVersions[${i}]`));
  });
  errs.push(...resourcesErrors(list(rule.resources), `${field}.resources`));
  if (rule.scope != null && !SCOPES.includes(rule.scope)) errs.push(fieldErrors.notSupported(`${field}.scope`, rule.scope, SCOPES));
  return errs;
}

function namedRuleErrors(rule: Obj, field: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  list(rule.resourceNames).forEach((n, i) => {
    const name = String(n);
    for (const m of validatePathSegment(name)) errs.push(fieldErrors.invalid(`${field}.resourceNames[${i}]`, name, m));
    if (seen.has(name)) errs.push(fieldErrors.duplicate(`${field}.resourceNames[${i}]`, name));
    seen.add(name);
  });
  return [...errs, ...ruleWithOperationsErrors(rule, field)];
}

/** validateMatchResources of the MatchResources at `field` (defaults applied first: matchPolicy and both selectors are required). */
export function matchResourcesErrors(m: Obj | undefined, field: string): FieldError[] {
  if (!m || typeof m !== 'object') return [];
  const errs: FieldError[] = [];
  if (m.matchPolicy == null) errs.push(fieldErrors.required(`${field}.matchPolicy`));
  else if (!MATCH_POLICIES.includes(m.matchPolicy)) errs.push(fieldErrors.notSupported(`${field}.matchPolicy`, m.matchPolicy, MATCH_POLICIES));
  for (const sel of ['namespaceSelector', 'objectSelector']) {
    if (m[sel] == null) errs.push(fieldErrors.required(`${field}.${sel}`));
    else errs.push(...labelSelectorErrors(`${field}.${sel}`, m[sel]));
  }
  list(m.resourceRules).forEach((r, i) => errs.push(...namedRuleErrors((r ?? {}) as Obj, `${field}.resourceRules[${i}]`)));
  list(m.excludeResourceRules).forEach((r, i) => errs.push(...namedRuleErrors((r ?? {}) as Obj, `${field}.excludeResourceRules[${i}]`)));
  return errs;
}

/** SetDefaults_MatchResources and SetDefaults_Rule: matchPolicy Equivalent, empty selectors, scope `*`. */
export function defaultMatchResources(m: Obj | undefined): void {
  if (!m || typeof m !== 'object') return;
  m.matchPolicy ??= 'Equivalent';
  m.namespaceSelector ??= {};
  m.objectSelector ??= {};
  for (const key of ['resourceRules', 'excludeResourceRules']) for (const r of list(m[key])) if (r && typeof r === 'object') (r as Obj).scope ??= '*';
}
