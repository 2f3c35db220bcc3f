// RBAC's escalation prevention as write policies, in the order of upstream's
// policy-based storages (pkg/registry/rbac/*/policybased):
// - Role, ClusterRole: system:masters pass; so does a writer allowed to
//   `escalate` the role; an update changing only owner references or
//   finalizers passes; otherwise the writer's rules (in the request's
//   namespace, cluster-wide for a ClusterRole) must cover the role's rules,
//   and setting or changing a ClusterRole's aggregationRule needs what
//   cluster-admin holds.
// - RoleBinding, ClusterRoleBinding: system:masters pass; an update changing
//   only owner references or finalizers passes; a writer allowed to `bind`
//   the referenced role passes; otherwise the referenced role must exist
//   (its 404 otherwise) and the writer's rules must cover it.
// A refusal is a 403 naming the object, with upstream's message.

import { errors } from '../../api/errors.ts';
import {
  FULL_AUTHORITY,
  type WrittenRoleRef,
  bindingAuthorized,
  confirmNoEscalation,
  escalationAllowed,
  hasAggregationRule,
  onlyGCFieldsChanged,
  roleEscalationAuthorized,
  rulesOf,
} from '../../authz/rbac/escalation.ts';
import { RBAC_GROUP } from '../../api/k8s-names.ts';
import type { Obj } from '../../storage/interface.ts';
import type { ApiIndex } from '../served.ts';
import type { PolicyContext, WritePolicy, WritePolicyServices } from './index.ts';

function roleGuard(clusterScoped: boolean): WritePolicy {
  return async (ctx: PolicyContext, obj: Obj, old: Obj | null) => {
    const { user, services } = ctx;
    if (escalationAllowed(user)) return;
    if (await roleEscalationAuthorized(services.authorizer, user, { resource: ctx.gr.resource, namespace: ctx.namespace, name: ctx.name })) return;
    if (old && onlyGCFieldsChanged(obj, old)) return;
    const name: string = obj.metadata?.name ?? '';
    const why = await confirmNoEscalation(services.ruleResolver, user, ctx.namespace, rulesOf(obj));
    if (why) throw errors.forbidden(ctx.gr, name, why);
    // an aggregationRule can gather anything (and keep a role from being tightened): only cluster-admin may set or change one
    if (clusterScoped && (hasAggregationRule(obj) || hasAggregationRule(old))) {
      if (await confirmNoEscalation(services.ruleResolver, user, ctx.namespace, FULL_AUTHORITY)) {
        throw errors.forbidden(ctx.gr, name, 'must have cluster-admin privileges to use the aggregationRule');
      }
    }
  };
}

function bindingGuard(clusterScoped: boolean): WritePolicy {
  return async (ctx: PolicyContext, obj: Obj, old: Obj | null) => {
    const { user, services } = ctx;
    if (escalationAllowed(user)) return;
    if (old && onlyGCFieldsChanged(obj, old)) return;
    const ref: WrittenRoleRef = obj.roleRef && typeof obj.roleRef === 'object' ? obj.roleRef : {};
    const namespace = clusterScoped ? '' : ctx.namespace;
    if (await bindingAuthorized(services.authorizer, user, ref, namespace)) return;
    // a reference validation refuses (no name, a kind bindings cannot have here) is left to it: a 422, not a look-up
    const kind = ref.kind;
    if (!ref.name || (kind !== 'ClusterRole' && (kind !== 'Role' || clusterScoped))) return;
    const rules = await services.roleRules(kind, namespace, ref.name);
    const why = await confirmNoEscalation(services.ruleResolver, user, ctx.namespace, rules);
    if (why) throw errors.forbidden(ctx.gr, obj.metadata?.name ?? '', why);
  };
}

/** By `group/resource`. */
export const RBAC_WRITE_POLICIES: Record<string, WritePolicy> = {
  [`${RBAC_GROUP}/roles`]: roleGuard(false),
  [`${RBAC_GROUP}/clusterroles`]: roleGuard(true),
  [`${RBAC_GROUP}/rolebindings`]: bindingGuard(false),
  [`${RBAC_GROUP}/clusterrolebindings`]: bindingGuard(true),
};

/** WritePolicyServices.roleRules over the served RBAC stores (the store's 404 for a missing role). */
export function roleRulesReader(api: ApiIndex): WritePolicyServices['roleRules'] {
  return async (kind, namespace, name) => {
    const resource = kind === 'Role' ? 'roles' : 'clusterroles';
    const res = api.lookup(RBAC_GROUP, 'v1', resource);
    if (!res) throw errors.notFound({ group: RBAC_GROUP, resource }, name);
    return rulesOf(await res.store.get(kind === 'Role' ? namespace : '', name));
  };
}
