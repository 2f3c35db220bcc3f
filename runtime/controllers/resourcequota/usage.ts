// A quota's usage recalculated from the objects of its namespace, as
// kube-controller-manager's resourcequota controller computes it
// (quota.CalculateUsage): for every group-resource the quota names, the
// objects that fall in the quota's scopes, each one's usage masked to what
// the quota limits, every limited resource present (zero when nothing
// uses it). The status a quota should have: hard = spec.hard, used = the
// previous usage overlaid with the new one, masked to hard.

import { evaluatorFor, groupResourcesOf, scopeRequirements } from '../../admission/plugins/resource-quota/evaluators.ts';
import { type ResourceList, ZERO, add, equal, formatList, mask, parseList } from '../../admission/plugins/resource-quota/resources.ts';
import type { Obj } from '../../storage/interface.ts';

/** The objects of one group-resource in a namespace; undefined when the resource is not served. */
export type ListObjects = (group: string, resource: string, namespace: string) => Promise<Obj[] | undefined>;

export async function calculateUsage(quota: Obj, listObjects: ListObjects, now: number): Promise<ResourceList> {
  const hard = Object.keys(quota.spec?.hard ?? {});
  const scopes = scopeRequirements(quota);
  const namespace = quota.metadata?.namespace ?? '';
  let used: ResourceList = new Map();
  for (const gr of groupResourcesOf(hard)) {
    const ev = evaluatorFor(gr.group, gr.resource);
    const names = ev.matchingResources(hard);
    if (!names.length) continue;
    for (const n of names) if (!used.has(n)) used.set(n, ZERO);
    const items = await listObjects(gr.group, gr.resource, namespace);
    for (const obj of items ?? []) {
      if (!scopes.every((s) => ev.matchesScope(s, obj))) continue;
      used = add(used, mask(ev.usage(obj, now), names));
    }
  }
  return used;
}

/** The status the quota should have given its newly calculated usage; undefined when it has it already. */
export function desiredStatus(quota: Obj, usage: ResourceList): { hard: Record<string, string>; used: Record<string, string> } | undefined {
  const hard = parseList(quota.spec?.hard);
  const used = mask(new Map([...parseList(quota.status?.used), ...usage]), hard.keys());
  const haveHard = parseList(quota.status?.hard);
  const haveUsed = parseList(quota.status?.used);
  if (equal(hard, haveHard) && equal(used, haveUsed)) return undefined;
  return { hard: formatList(hard), used: formatList(used) };
}

/** Whether a quota's status lags behind its spec (hard changed, or a limited resource without usage). */
export function needsSync(quota: Obj): boolean {
  const hard = parseList(quota.spec?.hard);
  if (!equal(hard, parseList(quota.status?.hard))) return true;
  const used = quota.status?.used ?? {};
  return [...hard.keys()].some((k) => !(k in used));
}
