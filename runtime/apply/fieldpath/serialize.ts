// The FieldsV1 encoding of a field set (metadata.managedFields[].fieldsV1):
// a JSON object whose keys are path elements (`f:name`, `k:{"name":"x"}`,
// `v:"a"`, `i:0`), each mapping to the object of what lies below it, `{}` for
// a leaf, and `".": {}` marking an element that is itself a member while also
// having children. Keys are written in the path-element order upstream uses.
// Boundary: encoding only.
import type { Obj } from '../value/json.ts';
import { isObj } from '../value/json.ts';
import { comparePE, parsePE, type PathElement } from './element.ts';
import { FieldSet } from './set.ts';

export function setToFieldsV1(set: FieldSet): Obj {
  return emit(set, false);
}

function emit(set: FieldSet, includeSelf: boolean): Obj {
  const out: Obj = {};
  const entries: { pe: PathElement; member: boolean; child?: FieldSet }[] = [];
  for (const [id, pe] of set.members) {
    const c = set.children.get(id);
    entries.push({ pe, member: true, child: c && !c.set.empty() ? c.set : undefined });
  }
  for (const [id, c] of set.children) {
    if (set.members.has(id) || c.set.empty()) continue;
    entries.push({ pe: c.pe, member: false, child: c.set });
  }
  entries.sort((a, b) => comparePE(a.pe, b.pe));
  if (includeSelf && entries.length > 0) out['.'] = {};
  for (const e of entries) out[e.pe.id] = e.child ? emit(e.child, e.member) : {};
  return out;
}

/** Decodes a fieldsV1 object; throws with a message on malformed input. */
export function fieldsV1ToSet(v: unknown): FieldSet {
  if (!isObj(v)) throw new Error('fieldsV1 must be a JSON object');
  const set = new FieldSet();
  read(v, set);
  return set;
}

function read(obj: Obj, into: FieldSet): void {
  for (const [k, child] of Object.entries(obj)) {
    if (k === '.') continue;
    if (!isObj(child)) throw new Error(`fieldsV1 entry ${JSON.stringify(k)} must be an object`);
    const pe = parsePE(k);
    const keys = Object.keys(child);
    if (keys.length === 0) {
      into.members.set(pe.id, pe);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(child, '.')) into.members.set(pe.id, pe);
    const sub = into.descend(pe);
    read(child, sub);
  }
}
