// Whether a served version is deprecated, and what a request to it is
// told: the Warning text kube-apiserver composes from a type's life-cycle
// facts (deprecation.WarningMessage: `<group/version> <Kind> is deprecated
// in v1.29+, unavailable in v1.32+; use <group/version> <Kind>`, each
// clause only when known), or a CRD version's own text, and the release it
// is removed in. One rule for built-in and custom resources: the facts
// come from the ResourceDef (api-specs/ or the CRD).

import type { ResourceDef } from '../../generated/api-types.ts';
import { groupVersion } from './keys.ts';
import { SERVER_VERSION } from './k8s-names.ts';
import { addAuditAnnotation, type RequestRecord } from './request-record.ts';

export interface DeprecatedVersion {
  /** The Warning header's text. */
  warning: string;
  /** `<major>.<minor>` it is removed in, when known. */
  removedRelease?: string;
}

const CURRENT = `${SERVER_VERSION.major}.${parseInt(SERVER_VERSION.minor, 10)}`;

function parseRelease(r: string): [number, number] | undefined {
  const m = /^(\d+)\.(\d+)$/.exec(r);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** True when release `a` is at or before `b` (both `<major>.<minor>`). */
function atOrBefore(a: [number, number], b: [number, number]): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] <= b[1]);
}

/** What a request to this version is told, or undefined when the version is not deprecated (as of `current`, default this server's release). */
export function deprecatedVersion(def: ResourceDef, current: string = CURRENT): DeprecatedVersion | undefined {
  const d = def.deprecation;
  if (!d) return undefined;
  if (d.warning !== undefined) return d.removedIn ? { warning: d.warning, removedRelease: d.removedIn } : { warning: d.warning };
  const since = d.deprecatedIn ? parseRelease(d.deprecatedIn) : undefined;
  const now = parseRelease(current);
  if (!since || !now || !atOrBefore(since, now)) return undefined;
  let warning = `${groupVersion(def.group, def.version)} ${def.kind} is deprecated in v${since[0]}.${since[1]}+`;
  const removed = d.removedIn ? parseRelease(d.removedIn) : undefined;
  if (removed) warning += `, unavailable in v${removed[0]}.${removed[1]}+`;
  if (d.replacement) warning += `; use ${groupVersion(d.replacement.group, d.replacement.version)} ${d.replacement.kind}`;
  return removed ? { warning, removedRelease: `${removed[0]}.${removed[1]}` } : { warning };
}

const memo = new WeakMap<ResourceDef, DeprecatedVersion | null>();

/** deprecatedVersion() of this server's release, worked out once per ResourceDef (served defs are never changed in place). */
export function deprecatedVersionOf(def: ResourceDef): DeprecatedVersion | undefined {
  let d = memo.get(def);
  if (d === undefined) {
    d = deprecatedVersion(def) ?? null;
    memo.set(def, d);
  }
  return d ?? undefined;
}

/** The audit annotations of a request to a deprecated version (upstream's endpoints/metrics). */
export const DEPRECATED_ANNOTATION = 'k8s.io/deprecated';
export const REMOVED_RELEASE_ANNOTATION = 'k8s.io/removed-release';

/** Marks the request's record: its deprecated use and the audit annotations `k8s.io/deprecated` and, when known, `k8s.io/removed-release`. */
export function recordDeprecatedUse(record: RequestRecord, dep: DeprecatedVersion): void {
  record.deprecated = dep.removedRelease ? { removedRelease: dep.removedRelease } : {};
  addAuditAnnotation(record, DEPRECATED_ANNOTATION, 'true');
  if (dep.removedRelease) addAuditAnnotation(record, REMOVED_RELEASE_ANNOTATION, dep.removedRelease);
}
