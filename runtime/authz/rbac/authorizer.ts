// The RBAC mode (upstream's RBACAuthorizer over its DefaultRuleResolver):
// the rules of the ClusterRoleBindings naming the user (or a group of
// theirs), then of the RoleBindings in the request's namespace, are asked in
// turn; the first rule that allows decides, with the binding in the reason.
// Nothing allows: no opinion, and bindings whose role cannot be resolved are
// named in the reason (`RBAC: ...`) without failing the request. The rule
// resolver lists the same rules for SelfSubjectRulesReview.

import type { Attributes } from '../attributes.ts';
import type { AuthorizationMode, AuthorizationResult, NonResourceRuleInfo, ResourceRuleInfo, RulesResult } from '../authorizer.ts';
import type { UserInfo } from '../../auth/user.ts';
import { goQuote } from '../../api/go-format.ts';
import type { Binding, RbacIndex } from './index.ts';
import { type PolicyRule, ruleAllows } from './rules.ts';
import { describeSubject, firstApplying } from './subjects.ts';

/** Upstream's aggregate error text: one message as is, several (distinct) in brackets. */
export function aggregateErrors(errs: string[]): string {
  const uniq = [...new Set(errs)];
  return uniq.length === 1 ? uniq[0] : `[${uniq.join(', ')}]`;
}

/** How an allowing binding is named (upstream's binding describers). */
export function describeBinding(b: Binding, user: UserInfo): string {
  const i = firstApplying(user, b.subjects, b.namespace);
  const subject = i >= 0 ? describeSubject(b.subjects[i], b.namespace) : '';
  if (!b.namespace) return `ClusterRoleBinding ${goQuote(b.name)} of ${b.roleRef.kind} ${goQuote(b.roleRef.name)} to ${subject}`;
  return `RoleBinding ${goQuote(`${b.name}/${b.namespace}`)} of ${b.roleRef.kind} ${goQuote(b.roleRef.name)} to ${subject}`;
}

/**
 * Visits the rules that apply to `user` in `namespace` ('' : cluster-wide
 * only), ClusterRoleBindings first; `visit` returns true to stop. Errors
 * (unresolvable roles) are collected.
 */
function visitRules(index: RbacIndex, user: UserInfo, namespace: string, visit: (b: Binding, rule: PolicyRule) => boolean, errs: string[]): boolean {
  for (const ns of namespace ? ['', namespace] : ['']) {
    for (const b of index.bindingsFor(user, ns)) {
      // the index files by subject; the binding decides which of its subjects applies
      if (firstApplying(user, b.subjects, b.namespace) < 0) continue;
      const rules = index.roleRules(b.roleRef, b.namespace);
      if (rules instanceof Error) {
        errs.push(rules.message);
        continue;
      }
      for (const r of rules) if (visit(b, r)) return true;
    }
  }
  return false;
}

export function decide(index: RbacIndex, a: Attributes): AuthorizationResult {
  const errs: string[] = [];
  let by: Binding | undefined;
  visitRules(
    index,
    a.user,
    a.namespace,
    (b, rule) => {
      if (!ruleAllows(a, rule)) return false;
      by = b;
      return true;
    },
    errs,
  );
  if (by) return { decision: 'allow', reason: `RBAC: allowed by ${describeBinding(by, a.user)}` };
  return { decision: 'noopinion', reason: errs.length ? `RBAC: ${aggregateErrors(errs)}` : '' };
}

/** The rules of `user` in `namespace`, as SelfSubjectRulesReview lists them. */
export function rulesFor(index: RbacIndex, user: UserInfo, namespace: string): RulesResult {
  const errs: string[] = [];
  const resourceRules: ResourceRuleInfo[] = [];
  const nonResourceRules: NonResourceRuleInfo[] = [];
  visitRules(
    index,
    user,
    namespace,
    (_b, rule) => {
      if (rule.resources?.length) {
        const r: ResourceRuleInfo = { verbs: rule.verbs ?? [], apiGroups: rule.apiGroups ?? [], resources: rule.resources };
        if (rule.resourceNames?.length) r.resourceNames = rule.resourceNames;
        resourceRules.push(r);
      }
      if (rule.nonResourceURLs?.length) nonResourceRules.push({ verbs: rule.verbs ?? [], nonResourceURLs: rule.nonResourceURLs });
      return false;
    },
    errs,
  );
  const out: RulesResult = { resourceRules, nonResourceRules, incomplete: false };
  if (errs.length) out.error = aggregateErrors(errs);
  return out;
}

/** The RBAC mode over `index`; until the index is synced, answers wait for it. */
export function rbacMode(index: RbacIndex): AuthorizationMode {
  return {
    name: 'RBAC',
    authorizer: {
      authorize: (a) => (index.isSynced ? decide(index, a) : index.synced.then(() => decide(index, a))),
    },
    ruleResolver: {
      rulesFor: (user, namespace) => (index.isSynced ? rulesFor(index, user, namespace) : index.synced.then(() => rulesFor(index, user, namespace))),
    },
  };
}
