// Whether one set of RBAC rules covers another, as upstream's Covers
// (pkg/registry/rbac/validation): every rule to grant is broken down into
// single (group, resource, verb, resourceName) or (non-resource URL, verb)
// tuples, and each tuple must be covered by one owner rule: verbs, groups and
// resources by `*` or by holding them (a `resource/subresource` also by
// `*/subresource`), resource names by an owner rule without names or with
// them, non-resource URLs exactly or by a prefix ending in `*`. The tuples
// no owner rule covers are the missing rules; compactMissing() and
// compactString() give them as the escalation message prints them.

import { goQuote } from '../../api/go-format.ts';
import type { PolicyRule } from './rules.ts';

const ALL = '*';

/** The rule as single tuples: one group, resource, verb and at most one resource name; or one non-resource URL and verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        const names = rule.resourceNames ?? [];
        if (names.length) for (const name of names) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

function hasAll(set: string[], wanted: string[]): boolean {
  const owned = new Set(set);
  return wanted.every((w) => owned.has(w));
}

function resourcesCover(owner: string[], wanted: string[]): boolean {
  if (owner.includes(ALL) || hasAll(owner, wanted)) return true;
  for (const path of wanted) {
    if (owner.includes(path)) continue;
    const slash = path.indexOf('/');
    // a plain resource must be held by name (or `*`); a subresource also by `*/subresource`
    if (slash < 0 || !owner.includes(`*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

function urlCovers(owner: string, path: string): boolean {
  if (owner === path) return true;
  // a trailing run of `*` makes the owner a prefix
  return owner.endsWith(ALL) && path.startsWith(owner.replace(/\*+$/, ''));
}

function urlsCover(owner: string[], wanted: string[]): boolean {
  return wanted.every((path) => owner.some((o) => urlCovers(o, path)));
}

/** Whether `owner` (any rule) covers `sub` (a broken-down tuple). */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = owner.verbs ?? [];
  const groups = owner.apiGroups ?? [];
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const verbOK = verbs.includes(ALL) || hasAll(verbs, sub.verbs ?? []);
  const groupOK = groups.includes(ALL) || hasAll(groups, sub.apiGroups ?? []);
  const resourceOK = resourcesCover(owner.resources ?? [], sub.resources ?? []);
  const urlOK = urlsCover(owner.nonResourceURLs ?? [], sub.nonResourceURLs ?? []);
  const nameOK = subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return verbOK && groupOK && resourceOK && nameOK && urlOK;
}

/** Whether `owner` covers every permission of `servant`, and the broken-down tuples it does not cover. */
export function covers(owner: PolicyRule[], servant: PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing: PolicyRule[] = [];
  for (const rule of servant) {
    for (const sub of breakdownRule(rule)) {
      if (!owner.some((o) => ruleCovers(o, sub))) missing.push(sub);
    }
  }
  return { covered: missing.length === 0, missing };
}

/** One group and resource (and at most one resource name) with verbs only: the rules compactMissing() merges. */
function simpleKey(rule: PolicyRule): string | undefined {
  const names = rule.resourceNames ?? [];
  if (names.length > 1 || (rule.nonResourceURLs ?? []).length > 0) return undefined;
  if ((rule.apiGroups ?? []).length !== 1 || (rule.resources ?? []).length !== 1) return undefined;
  return JSON.stringify([rule.apiGroups![0], rule.resources![0], names.length > 0, names[0] ?? '']);
}

/**
 * Upstream's CompactRules: rules naming one group and one resource (and at
 * most one resource name) that differ only by verb become one rule with all
 * their verbs; other rules stay as they are.
 */
export function compactMissing(rules: PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = simpleKey(rule);
    if (key === undefined) {
      out.push(rule);
      continue;
    }
    const seen = simple.get(key);
    if (seen) seen.verbs = [...seen.verbs, ...(rule.verbs ?? [])];
    else simple.set(key, structuredClone(rule));
  }
  return [...out, ...simple.values()];
}

/** Go's %q of a list of strings: `["a" "b"]`. */
export function goQuoteList(items: string[]): string {
  return `[${items.map(goQuote).join(' ')}]`;
}

/** Upstream's CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["create"]}`, leaving out empty fields. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, v: string[] | undefined) => {
    if (v?.length) parts.push(`${label}:${goQuoteList(v)}`);
  };
  add('APIGroups', rule.apiGroups);
  add('Resources', rule.resources);
  add('NonResourceURLs', rule.nonResourceURLs);
  add('ResourceNames', rule.resourceNames);
  add('Verbs', rule.verbs);
  return `{${parts.join(', ')}}`;
}

/** The sub-rules of `servant` no owner rule covers: what reconciliation adds to a bootstrap role. */
export function uncovered(owner: PolicyRule[], servant: PolicyRule[]): PolicyRule[] {
  return covers(owner, servant).missing;
}
