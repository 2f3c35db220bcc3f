// The set of fields a value sets, read through the schema (structured-merge-
// diff's ToFieldSet): scalars and atomic lists/maps are leaves; every list
// item is a member; struct fields are members only when null or an empty
// object; entries of plain maps are always members.
// Boundary: pure; throws ListItemError/DuplicateItemError on invalid lists.
import type { TypeRef } from '../../../generated/api-types.ts';
import { fieldPE, pathToString, type Path, type PathElement } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import type { SchemaView } from '../schema/resolve.ts';
import { isObj, type JSONValue } from '../value/json.ts';

export class DuplicateItemError extends Error {}

export interface ToFieldSetOptions {
  /** Accept list items that share a key (live objects); they are owned as whole items. */
  allowDuplicates?: boolean;
}

export function toFieldSet(view: SchemaView, ref: TypeRef, v: JSONValue, opts: ToFieldSetOptions = {}): FieldSet {
  const root = new FieldSet();
  walk(view, ref, v, root, undefined, opts, []);
  return root;
}

function walk(
  view: SchemaView, ref: TypeRef, v: JSONValue, parent: FieldSet, pe: PathElement | undefined,
  opts: ToFieldSetOptions, path: Path,
): void {
  const markSelf = () => { if (pe) parent.members.set(pe.id, pe); };
  const sub = () => (pe ? parent.descend(pe) : parent);
  const form = view.form(view.resolve(ref), v);
  if (form.kind === 'scalar') { markSelf(); return; }
  if (form.atomic) { markSelf(); return; }
  if (form.kind === 'list') {
    if (!Array.isArray(v)) return;
    const seen = new Set<string>();
    const dups = new Set<string>();
    for (const item of v) {
      const ipe = view.listItemPE(form.list, item);
      if (seen.has(ipe.id)) {
        if (!opts.allowDuplicates) {
          throw new DuplicateItemError(`${pathToString([...path, ipe])}: duplicate entries for key ${ipe.id.slice(2)}`);
        }
        dups.add(ipe.id);
        continue;
      }
      seen.add(ipe.id);
      const s = sub();
      walk(view, form.list.elementType, item, s, ipe, opts, path.length < 64 ? [...path, ipe] : path);
      s.members.set(ipe.id, ipe);
    }
    if (dups.size > 0) {
      const s = sub();
      for (const id of dups) s.children.delete(id);
    }
    return;
  }
  if (!isObj(v)) return;
  for (const key of Object.keys(v)) {
    const val = v[key];
    const fpe = fieldPE(key);
    const declared = view.field(form.map, key);
    const s = sub();
    walk(view, declared?.type ?? view.fieldType(form.map, key), val, s, fpe, opts, [...path, fpe]);
    if (val === null || (isObj(val) && Object.keys(val).length === 0) || !declared) s.members.set(fpe.id, fpe);
  }
}
