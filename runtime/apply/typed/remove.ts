// Removes the fields of a set from a value, through the schema (structured-
// merge-diff's RemoveItems): a member path drops that field or list item
// whole; paths below it descend. Atomic values are never cut into. A map or
// list whose entries are all removed stays, empty (it goes only when its own
// path is in the set).
// Boundary: pure; unchanged subtrees are shared with the input.
import type { TypeRef } from '../../../generated/api-types.ts';
import { fieldPE } from '../fieldpath/element.ts';
import type { FieldSet } from '../fieldpath/set.ts';
import type { SchemaView } from '../schema/resolve.ts';
import { isObj, type JSONValue, type Obj } from '../value/json.ts';

export function removeItems(view: SchemaView, ref: TypeRef, v: JSONValue, toRemove: FieldSet): JSONValue | undefined {
  if (toRemove.empty()) return v;
  const form = view.form(view.resolve(ref), v);
  if (form.kind === 'scalar' || form.atomic) return v;
  if (form.kind === 'list') {
    if (!Array.isArray(v) || v.length === 0) return v;
    const out: JSONValue[] = [];
    for (const item of v) {
      const pe = view.listItemPE(form.list, item);
      if (toRemove.members.has(pe.id)) continue;
      const sub = toRemove.withPrefix(pe);
      if (sub.empty()) {
        out.push(item);
        continue;
      }
      const r = removeItems(view, form.list.elementType, item, sub);
      if (r !== undefined) out.push(r);
    }
    return out;
  }
  if (!isObj(v) || Object.keys(v).length === 0) return v;
  const out: Obj = {};
  for (const k of Object.keys(v)) {
    const pe = fieldPE(k);
    if (toRemove.members.has(pe.id)) continue;
    const sub = toRemove.withPrefix(pe);
    if (sub.empty()) {
      out[k] = v[k];
      continue;
    }
    const r = removeItems(view, view.fieldType(form.map, k), v[k], sub);
    if (r !== undefined) out[k] = r;
  }
  return out;
}
