// The metadata rules kube-apiserver layers around the ownership engine:
// fields nobody owns (apiVersion, kind, identity and bookkeeping metadata),
// the cap on Update entries (oldest merged into `ancient-changes`), the
// client-side-apply migration (`kubectl` may take fields its last-applied
// annotation still describes; the annotation is kept in sync), and keeping
// old timestamps when a write changes nothing else.
// Boundary: helpers called by field-manager.ts.
import { fieldPE } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import type { SchemaView } from '../schema/resolve.ts';
import type { TypeRef } from '../../../generated/api-types.ts';
import { compare } from '../typed/compare.ts';
import { toFieldSet } from '../typed/to-field-set.ts';
import { clone, goJSON, isObj, type JSONValue, type Obj } from '../value/json.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import { managerIdentifier, type Managed } from './managed-fields.ts';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
export const MAX_UPDATE_MANAGERS = 10;
export const ANCIENT_CHANGES = 'ancient-changes';
export const BEFORE_FIRST_APPLY = 'before-first-apply';

const META = ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'];
export const STRIPPED: FieldSet = FieldSet.of([fieldPE('apiVersion')], [fieldPE('kind')], [fieldPE('metadata')], ...META.map((m) => [fieldPE('metadata'), fieldPE(m)]));

/** Removes the never-owned fields from one manager's set (dropping it when empty). */
export function stripMeta(m: Managed, id: string): void {
  const vs = m.sets.get(id);
  if (!vs) return;
  const s = vs.set.difference(STRIPPED);
  if (s.empty()) m.sets.delete(id);
  else m.sets.set(id, { ...vs, set: s });
}

/** Merges the oldest Update entries into per-version `ancient-changes` entries above the cap. */
export function capUpdateManagers(m: Managed, max = MAX_UPDATE_MANAGERS): void {
  let n = 0;
  for (const vs of m.sets.values()) if (!vs.applied) n++;
  if (n <= max) return;
  const updaters = [...m.sets.entries()].filter(([, vs]) => !vs.applied).map(([id]) => id);
  const secs = (id: string) => {
    const t = m.times.get(id);
    const ms = t ? Date.parse(t) : NaN;
    return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
  };
  updaters.sort((a, b) => secs(a) - secs(b) || (a < b ? -1 : a > b ? 1 : 0));
  let count = updaters.length;
  for (let i = 0; i < updaters.length && count > max; i++) {
    const id = updaters[i];
    const vs = m.sets.get(id)!;
    const bucket = managerIdentifier(ANCIENT_CHANGES, 'Update', vs.apiVersion);
    if (bucket === id) continue;
    const existing = m.sets.get(bucket);
    if (existing) {
      m.sets.set(bucket, { ...existing, set: existing.set.union(vs.set) });
      const t1 = m.times.get(bucket);
      const t2 = m.times.get(id);
      if (t2 && (!t1 || Date.parse(t2) > Date.parse(t1))) m.times.set(bucket, t2);
      count--;
    } else {
      m.sets.set(bucket, { set: vs.set, apiVersion: vs.apiVersion, applied: false });
      m.times.set(bucket, m.times.get(id));
    }
    m.sets.delete(id);
    m.times.delete(id);
  }
}

export function annotations(o: Obj | null | undefined): Obj | undefined {
  const md = o?.metadata;
  if (!isObj(md)) return undefined;
  return isObj(md.annotations) ? md.annotations : undefined;
}

export function lastApplied(o: Obj | null | undefined): string | undefined {
  const v = annotations(o)?.[LAST_APPLIED];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/**
 * The fields the last-applied annotation of `live` describes with the values
 * live still has: conflicts on those are allowed for the `kubectl` applier.
 */
export function allowedFromLastApplied(view: SchemaView, ref: TypeRef, live: Obj, apiVersion: string): FieldSet | undefined {
  const text = lastApplied(live);
  if (!text) return undefined;
  let la: unknown;
  try {
    la = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObj(la) || la.apiVersion !== apiVersion) return undefined;
  try {
    const set = toFieldSet(view, ref, la);
    const cmp = compare(view, ref, la, live);
    return set.difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
  } catch {
    return undefined;
  }
}

/** The annotation text kubectl's client-side apply would store for this configuration. */
export function buildLastApplied(config: Obj): string {
  const copy: Obj = { ...config };
  if (isObj(config.metadata)) {
    const md: Obj = { ...config.metadata };
    if (isObj(md.annotations)) {
      const ann: Obj = { ...md.annotations };
      delete ann[LAST_APPLIED];
      md.annotations = ann;
    }
    copy.metadata = md;
  }
  return goJSON(copy) + '\n';
}

export function setLastApplied(o: Obj, text: string): Obj {
  const md: Obj = isObj(o.metadata) ? { ...o.metadata } : {};
  md.annotations = { ...(isObj(md.annotations) ? md.annotations : {}), [LAST_APPLIED]: text };
  return { ...o, metadata: md };
}

export function managedFieldsOf(o: Obj | null | undefined): JSONValue | undefined {
  const md = o?.metadata;
  return isObj(md) ? md.managedFields : undefined;
}

/** A copy of the object with metadata.managedFields replaced (absent when entries is empty). */
export function withManagedFields(o: Obj, entries: JSONValue[] | undefined): Obj {
  const src = isObj(o.metadata) ? o.metadata : undefined;
  const set = entries !== undefined && entries.length > 0;
  if (!src) return set ? { ...o, metadata: { managedFields: entries } } : o;
  // copied key by key rather than spread and `delete`d: a deleted key leaves the copy a slow dictionary object
  const md: Obj = {};
  let placed = false;
  for (const k in src) {
    if (k !== 'managedFields') md[k] = src[k];
    else if (set) {
      md.managedFields = entries;
      placed = true;
    }
  }
  if (set && !placed) md.managedFields = entries;
  return { ...o, metadata: md };
}

/**
 * When `next` differs from `prev` only in managedFields timestamps, returns
 * `next` carrying prev's managedFields (so a no-op write stays a no-op).
 */
export function keepTimestampsOnNoop(prev: Obj | null, next: Obj): Obj {
  if (!prev) return next;
  const a = managedFieldsOf(prev);
  const b = managedFieldsOf(next);
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return next;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (!isObj(x) || !isObj(y)) return next;
    const { time: _t1, ...xr } = x;
    const { time: _t2, ...yr } = y;
    if (!jsonEqual(xr, yr)) return next;
  }
  if (!jsonEqual(withManagedFields(prev, undefined), withManagedFields(next, undefined))) return next;
  return withManagedFields(next, clone(a));
}
