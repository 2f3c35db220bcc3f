// metadata.managedFields as data: decoding entries into field sets keyed by
// manager identifier, encoding them back in upstream's shape and order, and
// the identifier rules (one entry per manager + operation + subresource, and
// per apiVersion for Update entries).
// Boundary: encoding and validation of entries only; ownership rules live in
// merge/updater.ts.
import { formatRFC3339 } from '../../api/rfc3339.ts';
import { fieldsV1ToSet, setToFieldsV1 } from '../fieldpath/serialize.ts';
import type { ManagedSets } from '../merge/updater.ts';
import { isObj, type JSONValue, type Obj } from '../value/json.ts';

export type Operation = 'Apply' | 'Update';

export interface Managed {
  sets: ManagedSets;
  /** RFC 3339 time of each manager's last change. */
  times: Map<string, string | undefined>;
}

export function emptyManaged(): Managed {
  return { sets: new Map(), times: new Map() };
}

export function cloneManaged(m: Managed): Managed {
  return { sets: new Map(m.sets), times: new Map(m.times) };
}

/** Identifiers worked out before, by their parts (a server sees few managers); emptied when it grows past IDENTIFIERS_KEPT. */
const identifiers = new Map<string, string>();
const IDENTIFIERS_KEPT = 1024;

/** The identifier upstream keys managers by: JSON of the entry without fields and time (and without apiVersion for Apply). */
export function managerIdentifier(manager: string, operation: Operation, apiVersion: string, subresource = ''): string {
  const key = `${manager}\u0000${operation}\u0000${apiVersion}\u0000${subresource}`;
  let id = identifiers.get(key);
  if (id !== undefined) return id;
  const e: Record<string, string> = { manager: manager === '' ? 'unknown' : manager, operation };
  if (operation === 'Update' && apiVersion) e.apiVersion = apiVersion;
  if (subresource) e.subresource = subresource;
  id = JSON.stringify(e);
  if (identifiers.size >= IDENTIFIERS_KEPT) identifiers.clear();
  identifiers.set(key, id);
  return id;
}

export class ManagedFieldsError extends Error {}

/** Decodes metadata.managedFields; throws ManagedFieldsError on an invalid entry. Absent or null: empty. */
export function decodeManagedFields(entries: JSONValue | undefined): Managed {
  const out = emptyManaged();
  if (entries === undefined || entries === null) return out;
  if (!Array.isArray(entries)) throw new ManagedFieldsError('managedFields must be a list');
  entries.forEach((e, i) => {
    if (!isObj(e)) throw new ManagedFieldsError(`managed fields entry ${i} must be an object`);
    const op = e.operation;
    if (op !== 'Apply' && op !== 'Update') throw new ManagedFieldsError('operation must be `Apply` or `Update`');
    if (typeof e.apiVersion !== 'string' || e.apiVersion.length < 1) throw new ManagedFieldsError('apiVersion must not be empty');
    if (e.fieldsType === undefined || e.fieldsType === '') throw new ManagedFieldsError(`missing fieldsType in managed fields entry ${i}`);
    if (e.fieldsType !== 'FieldsV1') throw new ManagedFieldsError(`invalid fieldsType ${JSON.stringify(e.fieldsType)} in managed fields entry ${i}`);
    let set;
    try {
      set = fieldsV1ToSet(e.fieldsV1 ?? {});
    } catch (err) {
      throw new ManagedFieldsError(`error decoding versioned set from ${JSON.stringify(e.fieldsV1)}: ${(err as Error).message}`);
    }
    const manager = typeof e.manager === 'string' ? e.manager : '';
    const sub = typeof e.subresource === 'string' ? e.subresource : '';
    const id = managerIdentifier(manager, op, e.apiVersion, sub);
    out.sets.set(id, { set, apiVersion: e.apiVersion, applied: op === 'Apply' });
    out.times.set(id, typeof e.time === 'string' ? e.time : undefined);
  });
  return out;
}

/** True for the reset request: exactly one entry that is empty. */
export function isResetManagedFields(entries: JSONValue | undefined): boolean {
  return Array.isArray(entries) && entries.length === 1 && isObj(entries[0]) && Object.keys(entries[0]).length === 0;
}

function seconds(t: string | undefined): number {
  if (!t) return 0;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

const str = (v: JSONValue | undefined): string => (typeof v === 'string' ? v : '');

/** Encodes to entries sorted as upstream: operation, time, manager, apiVersion, subresource. */
export function encodeManagedFields(m: Managed): Obj[] {
  const rows: Obj[] = [];
  for (const [id, vs] of m.sets) {
    if (vs.set.empty()) continue;
    const info = JSON.parse(id) as { manager: string; operation: Operation; subresource?: string };
    const e: Obj = { manager: info.manager, operation: vs.applied ? 'Apply' : info.operation, apiVersion: vs.apiVersion };
    const t = m.times.get(id);
    if (t) e.time = t;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = setToFieldsV1(vs.set);
    if (info.subresource) e.subresource = info.subresource;
    rows.push(e);
  }
  rows.sort((p, q) => {
    if (p.operation !== q.operation) return str(p.operation) < str(q.operation) ? -1 : 1;
    const ps = seconds(p.time as string | undefined);
    const qs = seconds(q.time as string | undefined);
    if (ps !== qs) return ps < qs ? -1 : 1;
    for (const k of ['manager', 'apiVersion', 'subresource']) {
      const a = str(p[k]);
      const b = str(q[k]);
      if (a !== b) return a < b ? -1 : 1;
    }
    return 0;
  });
  return rows;
}

/** RFC 3339 with second precision, UTC. */
export function formatTime(d: Date): string {
  return formatRFC3339(d.getTime());
}
