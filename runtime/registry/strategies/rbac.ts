// Role, ClusterRole, RoleBinding, ClusterRoleBinding (rbac.authorization.k8s.io):
// upstream's defaults (a User or Group subject's apiGroup; roleRef.apiGroup
// is required by the schema check before defaults run) and validation: every rule has verbs and either
// groups and resources or non-resource URLs (those only in ClusterRoles),
// an aggregationRule has valid selectors, a roleRef names a Role or
// ClusterRole of the RBAC group (only a ClusterRole from a
// ClusterRoleBinding) and cannot change, subjects are a User, Group or
// ServiceAccount with their apiGroup. Who may write them is the write
// policy's (registry/policy/rbac.ts).

import type { ResourceDef } from '../../../generated/api-types.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { RBAC_GROUP } from '../../api/k8s-names.ts';
import { GoValue, goQuote } from '../../api/go-format.ts';
import { type LabelSelectorObject, labelSelectorErrors } from '../../api/label-selector.ts';
import { validateDNS1123Subdomain, validatePathSegment } from '../../api/validation.ts';
import type { Obj } from '../../storage/interface.ts';
import type { Strategy } from '../strategy.ts';

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function ruleErrors(rule: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (list(rule?.verbs).length === 0) errs.push(fieldErrors.required(`${path}.verbs`, 'verbs must contain at least one value'));
  const urls = list(rule?.nonResourceURLs);
  if (urls.length > 0) {
    if (namespaced) errs.push(fieldErrors.invalid(`${path}.nonResourceURLs`, urls, 'namespaced rules cannot apply to non-resource URLs'));
    if (list(rule?.apiGroups).length || list(rule?.resources).length || list(rule?.resourceNames).length) {
      errs.push(fieldErrors.invalid(`${path}.nonResourceURLs`, urls, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (list(rule?.apiGroups).length === 0) errs.push(fieldErrors.required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  if (list(rule?.resources).length === 0) errs.push(fieldErrors.required(`${path}.resources`, 'resource rules must supply at least one resource'));
  return errs;
}

function roleErrors(obj: Obj, namespaced: boolean): FieldError[] {
  const errs = list(obj.rules).flatMap((r, i) => ruleErrors(r as Obj, namespaced, `rules[${i}]`));
  const agg = obj.aggregationRule;
  if (!namespaced && agg && typeof agg === 'object') {
    const selectors = list(agg.clusterRoleSelectors);
    if (selectors.length === 0) errs.push(fieldErrors.required('aggregationRule.clusterRoleSelectors', 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((s, i) => errs.push(...labelSelectorErrors(`aggregationRule.clusterRoleSelectors[${i}]`, s as LabelSelectorObject)));
  }
  return errs;
}

function subjectErrors(s: Obj, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name: string = s?.name ?? '';
  const apiGroup: string = s?.apiGroup ?? '';
  if (!name) errs.push(fieldErrors.required(`${path}.name`, ''));
  switch (s?.kind) {
    case 'ServiceAccount':
      if (name) for (const m of validateDNS1123Subdomain(name)) errs.push(fieldErrors.invalid(`${path}.name`, name, m));
      if (apiGroup) errs.push(fieldErrors.notSupported(`${path}.apiGroup`, apiGroup, ['']));
      if (!namespaced && !s?.namespace) errs.push(fieldErrors.required(`${path}.namespace`, ''));
      break;
    case 'User':
    case 'Group':
      if (apiGroup !== RBAC_GROUP) errs.push(fieldErrors.notSupported(`${path}.apiGroup`, apiGroup, [RBAC_GROUP]));
      break;
    default:
      errs.push(fieldErrors.notSupported(`${path}.kind`, s?.kind ?? '', ['ServiceAccount', 'User', 'Group']));
  }
  return errs;
}

function bindingErrors(obj: Obj, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref: Obj = obj.roleRef && typeof obj.roleRef === 'object' ? obj.roleRef : {};
  if ((ref.apiGroup ?? '') !== RBAC_GROUP) errs.push(fieldErrors.notSupported('roleRef.apiGroup', ref.apiGroup ?? '', [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(fieldErrors.notSupported('roleRef.kind', ref.kind ?? '', kinds));
  if (!ref.name) errs.push(fieldErrors.required('roleRef.name', ''));
  else for (const m of validatePathSegment(String(ref.name))) errs.push(fieldErrors.invalid('roleRef.name', ref.name, m));
  list(obj.subjects).forEach((s, i) => errs.push(...subjectErrors(s as Obj, namespaced, `subjects[${i}]`)));
  return errs;
}

/** Go's %#v of the internal RoleRef, as upstream's "cannot change roleRef" prints it. */
function goRoleRef(ref: Obj | undefined): GoValue {
  return new GoValue(`rbac.RoleRef{APIGroup:${goQuote(ref?.apiGroup ?? '')}, Kind:${goQuote(ref?.kind ?? '')}, Name:${goQuote(ref?.name ?? '')}}`);
}

function sameRef(a: Obj | undefined, b: Obj | undefined): boolean {
  return (a?.apiGroup ?? '') === (b?.apiGroup ?? '') && (a?.kind ?? '') === (b?.kind ?? '') && (a?.name ?? '') === (b?.name ?? '');
}

export function roleStrategy(def: ResourceDef, base: Strategy): Strategy {
  const namespaced = def.namespaced;
  return {
    ...base,
    validate: (obj) => [...base.validate(obj), ...roleErrors(obj, namespaced)],
  };
}

export function bindingStrategy(def: ResourceDef, base: Strategy): Strategy {
  const namespaced = def.namespaced;
  return {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      for (const s of list(obj.subjects) as Obj[]) {
        if (s && typeof s === 'object' && !s.apiGroup && (s.kind === 'User' || s.kind === 'Group')) s.apiGroup = RBAC_GROUP;
      }
    },
    validate: (obj) => [...base.validate(obj), ...bindingErrors(obj, namespaced)],
    validateUpdate(obj, old) {
      const errs = base.validateUpdate(obj, old);
      if (!sameRef(obj.roleRef, old.roleRef)) errs.push(fieldErrors.invalid('roleRef', goRoleRef(obj.roleRef), 'cannot change roleRef'));
      return errs;
    },
  };
}
