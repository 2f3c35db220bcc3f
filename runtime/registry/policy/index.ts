// Write policies: per-resource checks of whether the writer may store an
// object at all, beyond being authorized for the request (RBAC's escalation
// prevention for roles and bindings). The write pipeline runs a resource's
// policy after mutating admission and before the strategy (see
// RegistryStore.create() and update()), where upstream's RBAC REST storages
// wrap the generic store. Without WritePolicyServices no policy runs.

import type { UserInfo } from '../../auth/user.ts';
import type { Authorizer, RuleResolver } from '../../authz/authorizer.ts';
import type { PolicyRule } from '../../authz/rbac/rules.ts';
import type { GroupResource } from '../../api/errors.ts';
import type { Obj } from '../../storage/interface.ts';
import { RBAC_WRITE_POLICIES } from './rbac.ts';

/** What the policies ask: the server's authorizer, the writer's RBAC rules, and the rules of a referenced role. */
export interface WritePolicyServices {
  /** The authorization chain (may the writer `escalate` or `bind`?). */
  authorizer: Authorizer;
  /** The writer's RBAC rules in a namespace ('' for cluster-wide ones only). */
  ruleResolver: RuleResolver;
  /** The rules of a Role (in `namespace`) or ClusterRole; throws the store's 404 when it does not exist. */
  roleRules(kind: 'Role' | 'ClusterRole', namespace: string, name: string): Promise<PolicyRule[]>;
}

/** One write as a policy sees it: who writes, where (the request's namespace and name; the name is empty on a POST). */
export interface PolicyContext {
  services: WritePolicyServices;
  gr: GroupResource;
  user: UserInfo;
  namespace: string;
  name: string;
}

/** Refuses a write by throwing an ApiError; `old` is null on a create. */
export type WritePolicy = (ctx: PolicyContext, obj: Obj, old: Obj | null) => Promise<void>;

/** The policy of a group and resource, if it has one. */
export function writePolicyFor(gr: GroupResource): WritePolicy | undefined {
  return RBAC_WRITE_POLICIES[`${gr.group}/${gr.resource}`];
}
