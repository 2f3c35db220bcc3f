// One write measured against the quotas of its namespace, as upstream's
// quota admission checks a request (CheckRequest in
// k8s.io/apiserver/pkg/admission/plugin/resourcequota): the quotas whose
// status.hard names something the evaluator counts and whose scopes match
// the object; the pod's required requests and limits; a quota whose usage
// is not known yet refuses; the object's usage (an update: only what grows)
// added to each matching quota's status.used, refused with upstream's
// `exceeded quota` text when over status.hard. Resources limited by the
// plugin's configuration (limitedResources) are refused with `insufficient
// quota to consume: ...` when the write consumes them and no matching quota
// restricts them, and `insufficient quota to match these scopes: ...` (a
// plain error upstream: 500) when the object is in a limited scope no quota
// selects. Pure: the caller stores the quotas it gets back.

import { ApiError, errors } from '../../../api/errors.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { AdmissionAttributes } from '../../chain.ts';
import type { LimitedResource } from './config.ts';
import { type Evaluator, type ScopeRequirement, quotaMatches, scopeRequirements } from './evaluators.ts';
import { add, exceeding, formatList, isZero, mask, negativeNames, parseList, prettyPrint, subtractNonNegative } from './resources.ts';

/** The name a refusal names: the request's, else the object's name or generateName (upstream's `Unknown` without either). */
function subjectName(attrs: AdmissionAttributes): string {
  if (attrs.name) return attrs.name;
  const md = attrs.object?.metadata;
  return md?.name || md?.generateName || 'Unknown';
}

export function quotaForbidden(attrs: AdmissionAttributes, why: string): ApiError {
  return errors.forbidden({ group: attrs.group, resource: attrs.resource }, subjectName(attrs), why);
}

export interface CheckResult {
  /** The quotas with the write's usage charged (the same objects as given where nothing changed). */
  quotas: Obj[];
  /** Indexes of the quotas whose status.used changed. */
  changed: number[];
}

/** The limited resources that apply to writes of this group/resource. */
export const limitedFor = (limited: LimitedResource[], group: string, resource: string): LimitedResource[] => limited.filter((l) => l.apiGroup === group && l.resource === resource);

/** Go's %v of []ScopedResourceSelectorRequirement: `[{PriorityClass In [high]}]`. */
const goScopes = (scopes: ScopeRequirement[]): string => `[${scopes.map((s) => `{${s.scopeName} ${s.operator} [${(s.values ?? []).join(' ')}]}`).join(' ')}]`;

export function checkRequest(quotas: Obj[], attrs: AdmissionAttributes, ev: Evaluator, now: number, limitedResources: LimitedResource[] = []): CheckResult {
  const obj = attrs.object;
  const unchanged = { quotas, changed: [] };
  if (!obj || !ev.handles(attrs)) return unchanged;
  const limited = limitedFor(limitedResources, attrs.group, attrs.resource);
  // the scopes of the object that a quota must select, and the consumed resources a quota must restrict
  const limitedScopes = limited.flatMap((l) => l.matchScopes.filter((s) => ev.matchesScope(s, obj)));
  const limitedNames = new Set<string>();
  if (limited.length) {
    const usage = ev.usage(obj, now);
    for (const l of limited) for (const [name, v] of usage) if (v.sign() > 0 && l.matchContains.some((c) => name.includes(c))) limitedNames.add(name);
  }
  const restrictedNames = new Set<string>();
  const restrictedScopes: ScopeRequirement[] = [];
  const matching: number[] = [];
  for (let i = 0; i < quotas.length; i++) {
    const q = quotas[i];
    restrictedScopes.push(...scopeRequirements(q).filter((s) => ev.matchesScope(s, obj)));
    if (!quotaMatches(ev, q, obj)) continue;
    const hard = Object.keys(q.status?.hard ?? {});
    const restricted = ev.matchingResources(hard);
    const missing = ev.constraints(restricted, obj);
    const name = q.metadata?.name;
    if (missing) throw quotaForbidden(attrs, `failed quota: ${name}: ${missing}`);
    const used = q.status?.used ?? {};
    if (restricted.some((r) => !(r in used))) throw quotaForbidden(attrs, `status unknown for quota: ${name}, resources: ${[...restricted].sort().join(',')}`);
    matching.push(i);
    for (const r of restricted) restrictedNames.add(r);
  }
  if (!matching.length && !limited.length) return unchanged;
  let delta = ev.usage(obj, now);
  const negative = negativeNames(delta);
  if (negative.length) throw quotaForbidden(attrs, `quota usage is negative for resource(s): ${negative.sort().join(',')}`);
  if (attrs.operation === 'UPDATE' && attrs.oldObject?.metadata?.resourceVersion) delta = subtractNonNegative(delta, ev.usage(attrs.oldObject, now));
  if (isZero(delta)) return unchanged;
  const uncovered = [...limitedNames].filter((n) => !restrictedNames.has(n)).sort();
  if (uncovered.length) throw quotaForbidden(attrs, `insufficient quota to consume: ${uncovered.join(',')}`);
  const uncoveredScopes = limitedScopes.filter((s) => !restrictedScopes.some((r) => r.scopeName === s.scopeName));
  // a plain error upstream, which the API server answers as 500 with no reason
  if (uncoveredScopes.length) throw new ApiError(500, '', `insufficient quota to match these scopes: ${goScopes(uncoveredScopes)}`);
  if (!matching.length) return unchanged;
  const out = [...quotas];
  const changed: number[] = [];
  for (const i of matching) {
    const q = quotas[i];
    const hard = parseList(q.status?.hard);
    const used = parseList(q.status?.used);
    const requested = mask(delta, hard.keys());
    const newUsed = add(used, requested);
    const over = exceeding(mask(newUsed, requested.keys()), hard);
    if (over.length) {
      throw quotaForbidden(
        attrs,
        `exceeded quota: ${q.metadata?.name}, requested: ${prettyPrint(mask(requested, over))}, used: ${prettyPrint(mask(used, over))}, limited: ${prettyPrint(mask(hard, over))}`,
      );
    }
    if (isZero(requested)) continue;
    out[i] = { ...q, status: { ...q.status, used: { ...q.status?.used, ...formatList(newUsed) } } };
    changed.push(i);
  }
  return { quotas: out, changed };
}
