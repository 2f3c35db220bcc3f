// Admission rules as kube-apiserver 1.31 matches them (upstream's
// webhook/predicates/rules Matcher): a rule names operations, API groups,
// versions, resources (with `*`, `*/*`, `pods/status`, `*/scale` forms) and
// a scope; a request matches when every part does. Shared by webhooks and
// admission policies.

import type { Operation } from '../../registry/write-services.ts';

/** admissionregistration.k8s.io/v1 RuleWithOperations. */
export interface RuleWithOperations {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

/** A policy's rule: a RuleWithOperations limited to some object names (empty: any). */
export interface NamedRuleWithOperations extends RuleWithOperations {
  resourceNames?: string[];
}

export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** What a rule is compared with: the request's operation, resource (or an equivalent's), subresource and namespace. */
export interface RuleSubject {
  operation: Operation;
  resource: GroupVersionResource;
  subresource: string;
  namespace: string;
}

const star = (list: string[] | undefined, v: string) => (list ?? []).some((x) => x === '*' || x === v);

/** `pods/status` → [pods, status]; `pods` → [pods, '']. */
export function splitResource(r: string): [string, string] {
  const i = r.indexOf('/');
  return i < 0 ? [r, ''] : [r.slice(0, i), r.slice(i + 1)];
}

function resourceMatches(resources: string[] | undefined, resource: string, subresource: string): boolean {
  for (const r of resources ?? []) {
    const [res, sub] = splitResource(r);
    if ((res === '*' || res === resource) && (sub === '*' || sub === subresource)) return true;
  }
  return false;
}

const isNamespaceResource = (r: GroupVersionResource) => r.group === '' && r.version === 'v1' && r.resource === 'namespaces';

function scopeMatches(scope: string | undefined, s: RuleSubject): boolean {
  switch (scope) {
    case 'Namespaced':
      // a Namespace is cluster-scoped, whatever namespace its request names
      return !isNamespaceResource(s.resource) && s.namespace !== '';
    case 'Cluster':
      return isNamespaceResource(s.resource) || s.namespace === '';
    default:
      return true;
  }
}

/** Whether a rule covers the subject (upstream's rules.Matcher.Matches). */
export function ruleMatches(rule: RuleWithOperations, s: RuleSubject): boolean {
  return (
    scopeMatches(rule.scope, s) &&
    star(rule.operations, s.operation) &&
    star(rule.apiGroups, s.resource.group) &&
    star(rule.apiVersions, s.resource.version) &&
    resourceMatches(rule.resources, s.resource.resource, s.subresource)
  );
}
