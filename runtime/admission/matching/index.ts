// Admission matching shared by webhooks and admission policies, with
// kube-apiserver 1.31's semantics (webhook/predicates and
// policy/generic/matching): whether a request is one a configuration
// covers, by namespaceSelector, objectSelector, rules (webhooks) or
// resourceRules and excludeResourceRules (policies), and matchPolicy
// Equivalent, which lets a rule written for another served version (or an
// equivalent group) match; the request is then sent as that version.
// The parts are used from their files: rules.ts, selectors.ts, equivalents.ts,
// conditions.ts (matchConditions in CEL), cel.ts (the variables of admission
// expressions) and request.ts (the AdmissionRequest for `request` and reviews).

import { errors, type ApiError } from '../../api/errors.ts';
import type { LabelSelectorObject } from '../../api/label-selector.ts';
import type { ApiIndex } from '../../registry/served.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { apiResourceMapper, type ResourceMapper } from './equivalents.ts';
import type { RequestVersions } from './request.ts';
import { ruleMatches, type GroupVersionResource, type NamedRuleWithOperations, type RuleSubject, type RuleWithOperations } from './rules.ts';
import { apiNamespaceSource, matchNamespaceSelector, matchObjectSelector, type NamespaceSource } from './selectors.ts';

/** What the matcher reads: namespaces (for namespaceSelector) and the served resources (for Equivalent). */
export interface MatchServices {
  namespaces: NamespaceSource;
  resources: ResourceMapper;
}

export function apiMatchServices(api: ApiIndex): MatchServices {
  return { namespaces: apiNamespaceSource(api), resources: apiResourceMapper(api) };
}

/** A webhook's matching fields. */
export interface WebhookCriteria {
  rules?: RuleWithOperations[];
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
  matchPolicy?: string;
}

/** A policy's matchConstraints or a binding's matchResources. */
export interface MatchResources {
  namespaceSelector?: LabelSelectorObject;
  objectSelector?: LabelSelectorObject;
  resourceRules?: NamedRuleWithOperations[];
  excludeResourceRules?: NamedRuleWithOperations[];
  matchPolicy?: string;
}

/** No match; `error` when the request cannot be told apart (a namespace not found, an unknown equivalent kind). */
export type MatchOutcome = { matches: false; error?: ApiError } | { matches: true; versions: RequestVersions };

/** The request's own resource and kind, sent as they are (no equivalent involved). */
export function requestVersions(services: MatchServices, a: AdmissionAttributes): RequestVersions {
  const resource = { group: a.group, version: a.version, resource: a.resource };
  const kind = services.resources.kindFor(resource, a.subresource) ?? { group: a.group, version: a.version, kind: a.kind };
  return { resource, kind, requestResource: resource, requestKind: kind };
}

const subjectOf = (a: AdmissionAttributes, resource: GroupVersionResource): RuleSubject => ({ operation: a.operation, resource, subresource: a.subresource, namespace: a.namespace });

/** The equivalents of the request's resource other than itself (matchPolicy Equivalent). */
function otherEquivalents(services: MatchServices, a: AdmissionAttributes): GroupVersionResource[] {
  return services.resources
    .equivalentsFor({ group: a.group, version: a.version, resource: a.resource }, a.subresource)
    .filter((r) => !(r.group === a.group && r.version === a.version && r.resource === a.resource));
}

/** The request sent as an equivalent resource (its kind from the mapper); an error when the mapper knows no kind for it. */
function asEquivalent(services: MatchServices, a: AdmissionAttributes, r: GroupVersionResource): MatchOutcome {
  const own = requestVersions(services, a);
  const kind = services.resources.kindFor(r, a.subresource);
  if (!kind) return { matches: false, error: errors.internal(`unable to convert to ${gvrString(r)}: unknown kind`) };
  return { matches: true, versions: { ...own, resource: r, kind } };
}

const gvrString = (r: GroupVersionResource) => `${r.group}/${r.version}, Resource=${r.resource}`;

/** Which rule a webhook's rules match the request by (upstream's ShouldCallHook, before matchConditions). */
export async function matchWebhook(services: MatchServices, w: WebhookCriteria, a: AdmissionAttributes): Promise<MatchOutcome> {
  const ns = await matchNamespaceSelector(w.namespaceSelector, a, services.namespaces);
  if (!ns.matches && !ns.error) return { matches: false };
  const objMatches = matchObjectSelector(w.objectSelector, a);
  if (!objMatches) return { matches: false };
  const rules = w.rules ?? [];
  const own = subjectOf(a, { group: a.group, version: a.version, resource: a.resource });
  let outcome: MatchOutcome | undefined;
  if (rules.some((r) => ruleMatches(r, own))) outcome = { matches: true, versions: requestVersions(services, a) };
  if (!outcome && w.matchPolicy === 'Equivalent') {
    const eq = otherEquivalents(services, a);
    outer: for (const rule of rules) {
      for (const r of eq) {
        if (ruleMatches(rule, subjectOf(a, r))) {
          outcome = asEquivalent(services, a, r);
          break outer;
        }
      }
    }
  }
  if (!outcome || !outcome.matches) return outcome ?? { matches: false };
  if (ns.error) return { matches: false, error: ns.error };
  return outcome;
}

/** Whether named rules cover the request, and as which resource (upstream's matchesResourceRules). */
function matchResourceRules(services: MatchServices, rules: NamedRuleWithOperations[], policy: string | undefined, a: AdmissionAttributes): MatchOutcome {
  const own = subjectOf(a, { group: a.group, version: a.version, resource: a.resource });
  const named = (rule: NamedRuleWithOperations) => !rule.resourceNames?.length || rule.resourceNames.includes(a.name);
  for (const rule of rules) if (ruleMatches(rule, own) && named(rule)) return { matches: true, versions: requestVersions(services, a) };
  if (policy !== 'Equivalent') return { matches: false };
  const eq = otherEquivalents(services, a);
  for (const rule of rules) {
    for (const r of eq) {
      if (ruleMatches(rule, subjectOf(a, r))) return asEquivalent(services, a, r);
    }
  }
  return { matches: false };
}

/** Whether a policy's matchConstraints or a binding's matchResources cover the request (upstream's generic matching.Matcher). */
export async function matchResources(services: MatchServices, m: MatchResources, a: AdmissionAttributes): Promise<MatchOutcome> {
  const ns = await matchNamespaceSelector(m.namespaceSelector, a, services.namespaces);
  if (!ns.matches && !ns.error) return { matches: false };
  if (!matchObjectSelector(m.objectSelector, a)) return { matches: false };
  const excluded = matchResourceRules(services, m.excludeResourceRules ?? [], m.matchPolicy, a);
  if (excluded.matches) return { matches: false };
  if (excluded.error) return excluded;
  const outcome: MatchOutcome = m.resourceRules?.length ? matchResourceRules(services, m.resourceRules, m.matchPolicy, a) : { matches: true, versions: requestVersions(services, a) };
  if (!outcome.matches) return outcome;
  if (ns.error) return { matches: false, error: ns.error };
  return outcome;
}
