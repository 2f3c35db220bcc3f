// Small builders for the bootstrap policy: rules written as space-separated
// verbs, resources and names (kept sorted, as upstream's rule builder keeps
// them), and Roles, ClusterRoles and bindings carrying the bootstrap label
// and the autoupdate annotation.

import { RBAC_GROUP } from '../../../api/k8s-names.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { PolicyRule } from '../rules.ts';
import type { Subject } from '../subjects.ts';

export const RBAC_API_VERSION = `${RBAC_GROUP}/v1`;
export const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';

export const CORE = [''];
export const READ = 'get list watch';
export const WRITE = 'create delete deletecollection patch update';
export const READ_WRITE = `${READ} ${WRITE}`;

const words = (s: string) => [...new Set(s.split(/\s+/).filter(Boolean))].sort();

/** A rule over resources; `names` limits it to those resourceNames. */
export function rule(verbs: string, apiGroups: string[], resources: string, names?: string): PolicyRule {
  const r: PolicyRule = { verbs: words(verbs), apiGroups: [...apiGroups], resources: words(resources) };
  if (names) r.resourceNames = words(names);
  return r;
}

/** A rule over non-resource URLs. */
export function urls(verbs: string, paths: string): PolicyRule {
  return { verbs: words(verbs), nonResourceURLs: words(paths) };
}

/** Events written by a controller (core and events.k8s.io). */
export const EVENTS_WRITE = rule('create patch update', ['', 'events.k8s.io'], 'events');

export const user = (name: string): Subject => ({ kind: 'User', apiGroup: RBAC_GROUP, name });
export const group = (name: string): Subject => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });
export const serviceAccount = (namespace: string, name: string): Subject => ({ kind: 'ServiceAccount', name, namespace });

function metadata(name: string, namespace: string | undefined, labels: Record<string, string> = {}): Obj {
  const m: Obj = { name, labels: { [BOOTSTRAPPING_LABEL]: 'rbac-defaults', ...labels }, annotations: { [AUTOUPDATE_ANNOTATION]: 'true' } };
  if (namespace) m.namespace = namespace;
  return m;
}

export function clusterRole(name: string, rules: PolicyRule[], opts: { labels?: Record<string, string>; aggregateFrom?: string } = {}): Obj {
  const o: Obj = { apiVersion: RBAC_API_VERSION, kind: 'ClusterRole', metadata: metadata(name, undefined, opts.labels), rules };
  if (opts.aggregateFrom) o.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [opts.aggregateFrom]: 'true' } }] };
  return o;
}

export function clusterRoleBinding(name: string, roleName: string, subjects: Subject[]): Obj {
  const b: Obj = { apiVersion: RBAC_API_VERSION, kind: 'ClusterRoleBinding', metadata: metadata(name, undefined), roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: roleName } };
  // a binding without subjects (system:node) has no subjects field, as upstream's
  if (subjects.length) b.subjects = subjects;
  return b;
}

export function role(namespace: string, name: string, rules: PolicyRule[]): Obj {
  return { apiVersion: RBAC_API_VERSION, kind: 'Role', metadata: metadata(name, namespace), rules };
}

export function roleBinding(namespace: string, name: string, roleName: string, subjects: Subject[]): Obj {
  return { apiVersion: RBAC_API_VERSION, kind: 'RoleBinding', metadata: metadata(name, namespace), roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: roleName }, subjects };
}
