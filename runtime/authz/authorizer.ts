// The authorizer contract (upstream's authorizer.Authorizer and
// RuleResolver) and how several combine: each mode answers allow, deny or no
// opinion with a reason; modes are asked in order and the first allow or
// deny decides; an error is kept and the next mode asked (the request is then
// refused with a 500 unless a later mode allows, as kube-apiserver). A rule
// resolver lists what a user may do in a namespace (SelfSubjectRulesReview);
// a mode that cannot list its rules says `incomplete`.

import type { UserInfo } from '../auth/user.ts';
import type { Attributes } from './attributes.ts';
import { isPromise, type Maybe } from '../api/maybe.ts';

export type Decision = 'allow' | 'deny' | 'noopinion';

export interface AuthorizationResult {
  decision: Decision;
  /** Why, for the user (appended to a 403's message, the review's status.reason). */
  reason: string;
  /** What went wrong while deciding (a webhook that did not answer); the decision is then no opinion or a failure policy's. */
  error?: string;
}

export interface Authorizer {
  authorize(a: Attributes): AuthorizationResult | Promise<AuthorizationResult>;
}

/** One rule over resources, as SelfSubjectRulesReview lists it. */
export interface ResourceRuleInfo {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
}

export interface NonResourceRuleInfo {
  verbs: string[];
  nonResourceURLs: string[];
}

export interface RulesResult {
  resourceRules: ResourceRuleInfo[];
  nonResourceRules: NonResourceRuleInfo[];
  /** The mode cannot list everything it would allow (a webhook, ABAC's wildcard users, Node). */
  incomplete: boolean;
  /** What went wrong while listing (an unreadable binding); the rules are then partial. */
  error?: string;
}

export interface RuleResolver {
  rulesFor(user: UserInfo, namespace: string): RulesResult | Promise<RulesResult>;
}

/** An authorization mode: the decider and, where it can list them, its rules. */
export interface AuthorizationMode {
  name: string;
  authorizer: Authorizer;
  ruleResolver: RuleResolver;
}

export const NO_OPINION: AuthorizationResult = Object.freeze({ decision: 'noopinion', reason: '' }) as AuthorizationResult;
export const ALLOW: AuthorizationResult = Object.freeze({ decision: 'allow', reason: '' }) as AuthorizationResult;

/** A resolver for modes that cannot list rules. */
export const cannotListRules: RuleResolver = { rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true }) };

/**
 * Asks each authorizer in order; the first allow or deny decides. Reasons and
 * errors of the modes with no opinion are joined. The decision comes at once
 * while every mode asked decides at once (RBAC and Node do, once synced).
 */
export function unionAuthorizer(authorizers: Authorizer[]): Authorizer {
  if (authorizers.length === 1) return authorizers[0];
  const from = (a: Attributes, i: number, reasons: string[], errs: string[]): Maybe<AuthorizationResult> => {
    for (; i < authorizers.length; i++) {
      const r = authorizers[i].authorize(a);
      if (isPromise(r)) {
        const next = i + 1;
        return r.then((v) => (noted(v, reasons, errs) ? v : from(a, next, reasons, errs)));
      }
      if (noted(r, reasons, errs)) return r;
    }
    const out: AuthorizationResult = { decision: 'noopinion', reason: reasons.join('\n') };
    if (errs.length) out.error = errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
    return out;
  };
  return { authorize: (a) => from(a, 0, [], []) };
}

/** Notes a mode's error and reason; true when its decision is final (allow or deny). */
function noted(r: AuthorizationResult, reasons: string[], errs: string[]): boolean {
  if (r.error) errs.push(r.error);
  if (r.decision !== 'noopinion') return true;
  if (r.reason) reasons.push(r.reason);
  return false;
}

/** Concatenates every resolver's rules; incomplete when any is. */
export function unionRuleResolver(resolvers: RuleResolver[]): RuleResolver {
  return {
    async rulesFor(user, namespace) {
      const out: RulesResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
      const errs: string[] = [];
      for (const r of resolvers) {
        const got = await r.rulesFor(user, namespace);
        out.resourceRules.push(...got.resourceRules);
        out.nonResourceRules.push(...got.nonResourceRules);
        if (got.incomplete) out.incomplete = true;
        if (got.error) errs.push(got.error);
      }
      if (errs.length) out.error = errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`;
      return out;
    },
  };
}

const EVERYTHING: RulesResult = Object.freeze({
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
  incomplete: false,
}) as RulesResult;

/**
 * Members of these groups may do anything: upstream asks this first in every
 * chain, whatever the modes. It lists no rules (the modes' resolvers do).
 */
export function privilegedGroups(groups: string[]): Authorizer {
  return { authorize: (a) => (a.user.groups.some((g) => groups.includes(g)) ? ALLOW : NO_OPINION) };
}

export const alwaysAllowMode: AuthorizationMode = {
  name: 'AlwaysAllow',
  authorizer: { authorize: () => ALLOW },
  ruleResolver: { rulesFor: () => structuredClone(EVERYTHING) },
};

export const alwaysDenyMode: AuthorizationMode = {
  name: 'AlwaysDeny',
  // upstream's AlwaysDeny has no opinion (so a later mode may still allow), with this reason
  authorizer: { authorize: () => ({ decision: 'noopinion', reason: 'Everything is forbidden.' }) },
  ruleResolver: { rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }) },
};
