// The set of fields a value sets, read through the schema (structured-merge-
// diff's ToFieldSet): scalars and atomic lists/maps are leaves; every list
// item is a member; struct fields are members only when null or an empty
// object; entries of plain maps are always members.
// Boundary: pure; throws ListItemError/DuplicateItemError on invalid lists.
import type { TypeRef } from '../../../generated/api-types.ts';
import { fieldPE, pathToString, peToString, type Path, type PathElement } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { ListItemError, type SchemaView } from '../schema/resolve.ts';
import { isObj, type JSONValue } from '../value/json.ts';

export class DuplicateItemError extends Error {}

export interface ToFieldSetOptions {
  /** Accept list items that share a key (live objects); they are owned as whole items. */
  allowDuplicates?: boolean;
}

export function toFieldSet(view: SchemaView, ref: TypeRef, v: JSONValue, opts: ToFieldSetOptions = {}): FieldSet {
  const root = new FieldSet();
  walk(view, ref, v, root, undefined, !!opts.allowDuplicates, undefined);
  return root;
}

/** The path walked so far, as a linked list (only materialised for error messages). */
interface Trail {
  up: Trail | undefined;
  pe: PathElement;
}

function trailPath(t: Trail | undefined): Path {
  const out: Path = [];
  for (let n = t; n; n = n.up) out.unshift(n.pe);
  return out;
}

/** An error message with the path it happened at, as structured-merge-diff prints it. */
function prefixed(t: Trail | undefined, msg: string): string {
  const p = pathToString(trailPath(t));
  return p ? `${p}: ${msg}` : msg;
}

function walk(view: SchemaView, ref: TypeRef, v: JSONValue, parent: FieldSet, pe: PathElement | undefined, allowDuplicates: boolean, trail: Trail | undefined): void {
  const form = view.form(view.resolve(ref), v);
  if (form.kind === 'scalar' || form.atomic) {
    if (pe) parent.members.set(pe.id, pe);
    return;
  }
  const here = pe ? parent.descend(pe) : parent;
  const t: Trail | undefined = pe ? { up: trail, pe } : trail;
  if (form.kind === 'list') {
    if (!Array.isArray(v)) return;
    let dups: Set<string> | undefined;
    for (let i = 0; i < v.length; i++) {
      const item = v[i];
      let ipe: PathElement;
      try {
        ipe = view.listItemPE(form.list, item);
      } catch (e) {
        if (!(e instanceof ListItemError)) throw e;
        throw new ListItemError(prefixed(t, `element ${i}: ${e.message}`));
      }
      if (here.members.has(ipe.id)) {
        if (!allowDuplicates) throw new DuplicateItemError(prefixed(t, `duplicate entries for key ${peToString(ipe)}`));
        (dups ??= new Set()).add(ipe.id);
        continue;
      }
      walk(view, form.list.elementType, item, here, ipe, allowDuplicates, t);
      here.members.set(ipe.id, ipe);
    }
    if (dups) for (const id of dups) here.children.delete(id);
    return;
  }
  if (!isObj(v)) return;
  for (const key of Object.keys(v)) {
    const val = v[key];
    const fpe = fieldPE(key);
    const declared = view.field(form.map, key);
    walk(view, declared ? declared.type : view.fieldType(form.map, key), val, here, fpe, allowDuplicates, t);
    if (val === null || !declared || (isObj(val) && Object.keys(val).length === 0)) here.members.set(fpe.id, fpe);
  }
}
