// Whether some rules grant everything other rules grant (upstream's Covers):
// each rule is broken down into single-verb, single-group, single-resource
// (and single-name or single-URL) sub-rules, and each sub-rule must be
// covered by one owner rule. The uncovered sub-rules are what reconciliation
// adds to a bootstrap role.

import type { PolicyRule } from './rules.ts';

const ALL = '*';

/** One rule as sub-rules of one verb, group, resource and name (or one verb and URL). */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames) out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name] });
        } else out.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) out.push({ verbs: [verb], nonResourceURLs: [url] });
  return out;
}

const hasAll = (owner: string[] | undefined, wanted: string[] | undefined) => {
  const o = owner ?? [];
  return o.includes(ALL) || (wanted ?? []).every((w) => o.includes(w));
};

function resourcesCovered(owner: string[] | undefined, wanted: string[] | undefined): boolean {
  const o = owner ?? [];
  if (o.includes(ALL)) return true;
  return (wanted ?? []).every((w) => {
    if (o.includes(w)) return true;
    const slash = w.indexOf('/');
    return slash >= 0 && o.includes(`*${w.slice(slash)}`);
  });
}

function urlsCovered(owner: string[] | undefined, wanted: string[] | undefined): boolean {
  const o = owner ?? [];
  return (wanted ?? []).every((w) => o.some((u) => u === ALL || u === w || (u.endsWith(ALL) && w.startsWith(u.slice(0, -1)))));
}

function namesCovered(owner: string[] | undefined, wanted: string[] | undefined): boolean {
  if (!owner?.length) return true;
  return (wanted ?? []).length > 0 && (wanted ?? []).every((w) => owner.includes(w));
}

/** Whether `owner` grants all of `sub`. */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  return (
    hasAll(owner.verbs, sub.verbs) &&
    hasAll(owner.apiGroups, sub.apiGroups) &&
    resourcesCovered(owner.resources, sub.resources) &&
    urlsCovered(owner.nonResourceURLs, sub.nonResourceURLs) &&
    namesCovered(owner.resourceNames, sub.resourceNames)
  );
}

/** The sub-rules of `servant` that no rule of `owner` covers (empty: covered). */
export function uncovered(owner: PolicyRule[], servant: PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const r of servant) for (const sub of breakdownRule(r)) if (!owner.some((o) => ruleCovers(o, sub))) out.push(sub);
  return out;
}
