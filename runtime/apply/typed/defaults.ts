// Restores schema defaults for fields an apply pruned: where a struct field
// was present before pruning, is gone after it, and the schema declares a
// default for it, the default comes back (upstream gets the same effect by
// running the type's defaulter on the applied object).
// Boundary: pure; copies only the containers it changes.
import type { TypeRef } from '../../../generated/api-types.ts';
import type { SchemaView } from '../schema/resolve.ts';
import { clone, isObj, type JSONValue, type Obj } from '../value/json.ts';
import { indexList } from './list-index.ts';

export function restoreDefaults(view: SchemaView, ref: TypeRef, before: JSONValue | undefined, after: JSONValue | undefined): JSONValue | undefined {
  if (before === undefined || after === undefined || before === after) return after;
  const form = view.form(view.resolve(ref), after);
  if (form.kind === 'scalar' || form.atomic) return after;
  if (form.kind === 'map') {
    if (!isObj(before) || !isObj(after)) return after;
    let out: Obj | undefined;
    const set = (k: string, v: JSONValue) => {
      out ??= { ...after };
      out[k] = v;
    };
    for (const k of Object.keys(before)) {
      const has = Object.prototype.hasOwnProperty.call(after, k);
      if (!has) {
        const def = view.field(form.map, k)?.default;
        if (def !== undefined) set(k, clone(def));
        continue;
      }
      const v = restoreDefaults(view, view.fieldType(form.map, k), before[k], after[k]);
      if (v !== after[k] && v !== undefined) set(k, v);
    }
    return out ?? after;
  }
  if (!Array.isArray(before) || !Array.isArray(after)) return after;
  let prior;
  try {
    prior = indexList(view, form.list, before);
  } catch {
    return after;
  }
  let changed = false;
  const out = after.map((item) => {
    let pe;
    try {
      pe = view.listItemPE(form.list, item);
    } catch {
      return item;
    }
    const v = restoreDefaults(view, form.list.elementType, prior.items.get(pe.id), item);
    if (v !== item && v !== undefined) {
      changed = true;
      return v;
    }
    return item;
  });
  return changed ? out : after;
}

/**
 * The object a new, empty instance of the type has: struct fields whose schema
 * default is an object (upstream's OpenAPI gives non-pointer structs
 * `default: {}`) are present, recursively. Creates compare against it, so a
 * create does not record such always-present parents as added.
 */
export function zeroObject(view: SchemaView, ref: TypeRef, depth = 0): Obj {
  const atom = view.resolve(ref);
  const out: Obj = {};
  if (!atom.map?.fields || depth > 16) return out;
  for (const f of atom.map.fields) {
    if (!isObj(f.default)) continue;
    out[f.name] = { ...zeroObject(view, f.type, depth + 1), ...clone(f.default) };
  }
  return out;
}
