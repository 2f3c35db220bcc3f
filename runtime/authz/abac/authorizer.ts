// The ABAC authorization mode: a request is allowed when any policy of the
// file matches it (subject, verb, then resource or non-resource path, as
// upstream's PolicyList); otherwise no opinion, "No policy matched.". Read
// requests (get, list, watch) match any policy; others only policies that
// are not readonly. The rules a user has in a namespace are the matching
// policies, listed as upstream's RulesFor does (complete, since `*`
// subjects were turned into system:authenticated when the file was read).

import type { UserInfo } from '../../auth/user.ts';
import type { Attributes } from '../attributes.ts';
import type { AuthorizationMode, NonResourceRuleInfo, ResourceRuleInfo, RulesResult } from '../authorizer.ts';
import { ALLOW } from '../authorizer.ts';
import type { AbacPolicy } from './policy.ts';

const READ_VERBS = new Set(['get', 'list', 'watch']);

/**
 * Upstream's subjectMatches: a policy's user (or `*`) and group (or `*`)
 * must both match when set, and a policy naming neither matches nobody.
 * Our choice, as upstream's: `*` here would match everybody, anonymous
 * included, but the policy file's conversion (policy.ts) has already turned
 * every `*` user or group into the group system:authenticated, so a grant to
 * `*` never reaches system:anonymous / system:unauthenticated.
 */
export function subjectMatches(p: AbacPolicy, user: UserInfo): boolean {
  let matched = false;
  if (p.user) {
    if (p.user === '*') matched = true;
    else if (p.user !== user.name) return false;
    else matched = true;
  }
  if (p.group) {
    if (p.group === '*') matched = true;
    else if (!user.groups.includes(p.group)) return false;
    else matched = true;
  }
  return matched;
}

function verbMatches(p: AbacPolicy, a: Attributes): boolean {
  return READ_VERBS.has(a.verb) || !p.readonly;
}

function resourceMatches(p: AbacPolicy, a: Attributes): boolean {
  if (!a.isResourceRequest) return false;
  return (p.namespace === '*' || p.namespace === a.namespace) && (p.resource === '*' || p.resource === a.resource) && (p.apiGroup === '*' || p.apiGroup === a.apiGroup);
}

function nonResourceMatches(p: AbacPolicy, a: Attributes): boolean {
  if (a.isResourceRequest) return false;
  const np = p.nonResourcePath;
  if (np === '*' || np === a.path) return true;
  // a trailing * matches the paths under its prefix
  return np.endsWith('*') && a.path.startsWith(np.replace(/\*+$/, ''));
}

export function policyMatches(p: AbacPolicy, a: Attributes): boolean {
  return subjectMatches(p, a.user) && verbMatches(p, a) && (resourceMatches(p, a) || nonResourceMatches(p, a));
}

function verbsOf(readonly: boolean): string[] {
  return readonly ? ['get', 'list', 'watch'] : ['*'];
}

export function abacRulesFor(policies: AbacPolicy[], user: UserInfo, namespace: string): RulesResult {
  const resourceRules: ResourceRuleInfo[] = [];
  const nonResourceRules: NonResourceRuleInfo[] = [];
  for (const p of policies) {
    if (!subjectMatches(p, user)) continue;
    if (p.namespace !== '*' && p.namespace !== namespace) continue;
    if (p.resource) resourceRules.push({ verbs: verbsOf(p.readonly), apiGroups: [p.apiGroup], resources: [p.resource] });
    if (p.nonResourcePath) nonResourceRules.push({ verbs: verbsOf(p.readonly), nonResourceURLs: [p.nonResourcePath] });
  }
  return { resourceRules, nonResourceRules, incomplete: false };
}

export function abacMode(policies: AbacPolicy[]): AuthorizationMode {
  return {
    name: 'ABAC',
    authorizer: { authorize: (a) => (policies.some((p) => policyMatches(p, a)) ? ALLOW : { decision: 'noopinion', reason: 'No policy matched.' }) },
    ruleResolver: { rulesFor: (user, namespace) => abacRulesFor(policies, user, namespace) },
  };
}
