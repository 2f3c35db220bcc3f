// The decisions of RBAC's escalation prevention (upstream's
// pkg/registry/rbac escalation checks and ConfirmNoEscalation): members of
// system:masters may grant anything; otherwise a role may be written by a
// user the authorizer lets `escalate` it, a binding by one it lets `bind`
// the referenced role, and either by a user who already holds every rule
// granted (their RBAC rules in the namespace, cluster-wide ones only for
// cluster-scoped objects). An update that only changes what the garbage
// collector changes (owner references, finalizers) is not checked.

import { GROUP_MASTERS, RBAC_GROUP } from '../../api/k8s-names.ts';
import type { UserInfo } from '../../auth/user.ts';
import { goQuote } from '../../api/go-format.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import type { Obj } from '../../storage/interface.ts';
import { resourceAttributes } from '../attributes.ts';
import type { Authorizer, RuleResolver } from '../authorizer.ts';
import { compactMissing, compactString, covers, goQuoteList } from './covers.ts';
import type { RoleRef } from './index.ts';
import type { PolicyRule } from './rules.ts';

/** What cluster-admin holds: needed to set or change a ClusterRole's aggregationRule. */
export const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

/** Upstream's EscalationAllowed: system:masters (also the server's own writers) may grant anything. */
export function escalationAllowed(user: UserInfo): boolean {
  return user.groups.includes(GROUP_MASTERS);
}

async function allowed(authorizer: Authorizer, ...args: Parameters<typeof resourceAttributes>): Promise<boolean> {
  try {
    return (await authorizer.authorize(resourceAttributes(...args))).decision === 'allow';
  } catch {
    // an authorizer that fails to decide does not authorize (upstream logs the error)
    return false;
  }
}

/** Upstream's RoleEscalationAuthorized: verb `escalate` on the role of the request (its namespace and name, empty on a create). */
export function roleEscalationAuthorized(authorizer: Authorizer, user: UserInfo, target: { resource: string; namespace: string; name: string }): Promise<boolean> {
  return allowed(authorizer, user, 'escalate', { apiGroup: RBAC_GROUP, apiVersion: '*', resource: target.resource, namespace: target.namespace, name: target.name });
}

/** The role a binding grants. */
/** A binding's roleRef as written (any field may be missing until validation). */
export type WrittenRoleRef = Partial<RoleRef>;

/** Upstream's BindingAuthorized: verb `bind` on the referenced role, in the binding's namespace ('' for a ClusterRoleBinding). */
export function bindingAuthorized(authorizer: Authorizer, user: UserInfo, ref: WrittenRoleRef, bindingNamespace: string): Promise<boolean> {
  const resource = ref.kind === 'ClusterRole' ? 'clusterroles' : ref.kind === 'Role' ? 'roles' : undefined;
  if (!resource) return Promise.resolve(false);
  return allowed(authorizer, user, 'bind', { apiGroup: ref.apiGroup ?? '', resource, namespace: bindingNamespace, name: ref.name ?? '' });
}

/** The rules a resolver lists, as PolicyRules. */
async function heldRules(resolver: RuleResolver, user: UserInfo, namespace: string): Promise<{ rules: PolicyRule[]; error?: string }> {
  const got = await resolver.rulesFor(user, namespace);
  const rules: PolicyRule[] = [
    ...got.resourceRules.map((r) => ({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames })),
    ...got.nonResourceRules.map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
  ];
  return { rules, error: got.error };
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Upstream's ConfirmNoEscalation: undefined when the user's rules in
 * `namespace` cover `rules`, else the reason (upstream's text: the user, its
 * groups and the missing rules, compacted, sorted, one a line; the resolver's
 * errors after it).
 */
export async function confirmNoEscalation(resolver: RuleResolver, user: UserInfo, namespace: string, rules: PolicyRule[]): Promise<string | undefined> {
  const held = await heldRules(resolver, user, namespace);
  const { covered, missing } = covers(held.rules, rules);
  if (covered) return undefined;
  const lines = [...new Set(compactMissing(missing).map(compactString))].sort(byteOrder);
  let msg = `user ${goQuote(user.name)} (groups=${goQuoteList(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (held.error) msg += `; resolution errors: [${held.error}]`;
  return msg;
}

/** Upstream's IsOnlyMutatingGCFields: the update changes nothing but owner references, finalizers (and the ownership records of that change). */
export function onlyGCFieldsChanged(obj: Obj, old: Obj): boolean {
  const copy = structuredClone(obj);
  const md = (copy.metadata ??= {});
  const oldMd = old.metadata ?? {};
  for (const f of ['ownerReferences', 'finalizers', 'selfLink', 'managedFields']) {
    if (oldMd[f] === undefined) delete md[f];
    else md[f] = oldMd[f];
  }
  return jsonEqual(copy, old);
}

/** A ClusterRole with a non-empty aggregationRule (setting or changing one needs FULL_AUTHORITY). */
export function hasAggregationRule(obj: Obj | null): boolean {
  const selectors = obj?.aggregationRule?.clusterRoleSelectors;
  return Array.isArray(selectors) && selectors.length > 0;
}

/** The rules of a Role or ClusterRole object. */
export function rulesOf(obj: Obj): PolicyRule[] {
  if (!Array.isArray(obj.rules)) return [];
  return (obj.rules as unknown[]).filter((r): r is PolicyRule => r !== null && typeof r === 'object');
}
