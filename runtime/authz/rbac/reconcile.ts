// Reconciliation of one bootstrap object with what is stored (upstream's
// reconciliation package, in its union mode): a missing object is created;
// an existing one annotated `rbac.authorization.kubernetes.io/autoupdate:
// "false"` is left alone; otherwise expected labels and annotations are
// merged in (stored values win), missing rules (as sub-rules) and missing
// aggregation selectors are appended, missing subjects are appended, and
// nothing a user added is removed. A binding whose roleRef differs must be
// deleted and created again (roleRef is immutable).

import { jsonEqual } from '../../api/json-equal.ts';
import type { Obj } from '../../storage/interface.ts';
import { uncovered } from './covers.ts';
import type { PolicyRule } from './rules.ts';
import type { Subject } from './subjects.ts';
import { AUTOUPDATE_ANNOTATION } from './bootstrap/build.ts';

export type Reconciled = { op: 'none' } | { op: 'create'; object: Obj } | { op: 'update'; object: Obj } | { op: 'recreate'; object: Obj } | { op: 'protected'; missing: number };

function mergeMaps(expected: Record<string, string> | undefined, existing: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!expected && !existing) return undefined;
  return { ...(expected ?? {}), ...(existing ?? {}) };
}

/** Whether merging `expected` into `existing` (stored values winning) changes it: some expected key is absent. Nothing is allocated. */
function mergeAdds(expected: Record<string, string> | undefined, existing: Record<string, string> | undefined): boolean {
  if (!expected) return false;
  if (!existing) return true;
  for (const k in expected) if (!Object.hasOwn(existing, k)) return true;
  return false;
}

/** Labels and annotations merged into a copy of `existing`; whether that changed anything (no copy is made while it does not matter). */
function mergeMetadata(existing: Obj, expected: Obj, copy: boolean): { obj: Obj; changed: boolean } {
  const md = existing.metadata;
  // the common case (a restart with everything in place) is answered without building the merged maps
  const changed = mergeAdds(expected.metadata?.labels, md.labels) || mergeAdds(expected.metadata?.annotations, md.annotations);
  if (!changed && !copy) return { obj: existing, changed };
  const labels = mergeMaps(expected.metadata?.labels, md.labels);
  const annotations = mergeMaps(expected.metadata?.annotations, md.annotations);
  const obj: Obj = structuredClone(existing);
  if (labels) obj.metadata.labels = labels;
  if (annotations) obj.metadata.annotations = annotations;
  return { obj, changed };
}

const isProtected = (o: Obj) => o.metadata?.annotations?.[AUTOUPDATE_ANNOTATION] === 'false';

/** A Role or ClusterRole: `existing` undefined when it is not stored. */
export function reconcileRole(existing: Obj | undefined, expected: Obj): Reconciled {
  if (!existing) return { op: 'create', object: structuredClone(expected) };
  // the same rules as expected (a restart with nothing changed): nothing is missing, no coverage to work out
  const sameRules = jsonEqual(existing.rules ?? [], expected.rules ?? []);
  const missingRules = sameRules ? [] : uncovered((existing.rules ?? []) as PolicyRule[], (expected.rules ?? []) as PolicyRule[]);
  const wantSelectors: Obj[] = expected.aggregationRule?.clusterRoleSelectors ?? [];
  const haveSelectors: Obj[] = existing.aggregationRule?.clusterRoleSelectors ?? [];
  const missingSelectors = wantSelectors.filter((w) => !haveSelectors.some((h) => jsonEqual(h, w)));
  if (isProtected(existing)) return missingRules.length || missingSelectors.length ? { op: 'protected', missing: missingRules.length + missingSelectors.length } : { op: 'none' };
  const { obj, changed } = mergeMetadata(existing, expected, missingRules.length > 0 || missingSelectors.length > 0);
  if (missingSelectors.length) obj.aggregationRule = { ...(obj.aggregationRule ?? {}), clusterRoleSelectors: [...haveSelectors, ...missingSelectors] };
  if (missingRules.length) obj.rules = [...((obj.rules ?? []) as PolicyRule[]), ...missingRules];
  return changed || missingRules.length || missingSelectors.length ? { op: 'update', object: obj } : { op: 'none' };
}

const sameSubject = (a: Subject, b: Subject) => a.kind === b.kind && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '') && (a.apiGroup ?? '') === (b.apiGroup ?? '');

/** A RoleBinding or ClusterRoleBinding. */
export function reconcileBinding(existing: Obj | undefined, expected: Obj): Reconciled {
  if (!existing) return { op: 'create', object: structuredClone(expected) };
  const have: Subject[] = existing.subjects ?? [];
  const missing = ((expected.subjects ?? []) as Subject[]).filter((w) => !have.some((h) => sameSubject(h, w)));
  const roleChanged = !jsonEqual(existing.roleRef, expected.roleRef);
  if (isProtected(existing)) return missing.length || roleChanged ? { op: 'protected', missing: missing.length } : { op: 'none' };
  const { obj, changed } = mergeMetadata(existing, expected, missing.length > 0 || roleChanged);
  if (missing.length) obj.subjects = [...have, ...missing];
  if (roleChanged) {
    obj.roleRef = structuredClone(expected.roleRef);
    return { op: 'recreate', object: obj };
  }
  return changed || missing.length ? { op: 'update', object: obj } : { op: 'none' };
}
