// Compares two values of one type (structured-merge-diff's Compare): the
// fields added, removed and modified from lhs to rhs. Leaves (scalars, atomic
// lists/maps, empty values) are compared whole; a map or list that appears or
// disappears is itself added/removed besides its contents. Item order of
// associative lists is not a change.
// Boundary: pure; list items are matched by key, never by position.
import type { TypeRef } from '../../../generated/api-types.ts';
import { fieldPE, type Path, type PathElement } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import type { Form, SchemaView } from '../schema/resolve.ts';
import { isObj, type JSONValue } from '../value/json.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import { indexList, itemOrDups, type ListIndex } from './list-index.ts';

export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

export function compare(view: SchemaView, ref: TypeRef, lhs: JSONValue | undefined, rhs: JSONValue | undefined): Comparison {
  const c: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  walk(view, ref, lhs, rhs, [], c);
  return c;
}

/** The form both sides are walked in; differing forms make a leaf. */
export function jointForm(view: SchemaView, ref: TypeRef, l: JSONValue | undefined, r: JSONValue | undefined): Form {
  const atom = view.resolve(ref);
  const fl = view.form(atom, l);
  if (r === undefined) return fl;
  const fr = view.form(atom, r);
  if (l === undefined || fl.kind === fr.kind) return fr;
  return { kind: 'scalar' };
}

export function isEmptyValue(v: JSONValue | undefined): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.keys(v).length === 0;
  return false;
}

function leaf(l: JSONValue | undefined, r: JSONValue | undefined, path: Path, c: Comparison): void {
  if (l === undefined) c.added.insert(path);
  else if (r === undefined) c.removed.insert(path);
  else if (!jsonEqual(l, r)) c.modified.insert(path);
}

function walk(view: SchemaView, ref: TypeRef, l: JSONValue | undefined, r: JSONValue | undefined, path: Path, c: Comparison): void {
  const form = jointForm(view, ref, l, r);
  if (form.kind === 'scalar' || form.atomic || (isEmptyValue(l) && isEmptyValue(r))) {
    leaf(l, r, path, c);
    return;
  }
  if (form.kind === 'map') {
    const lm = isObj(l) ? l : undefined;
    const rm = isObj(r) ? r : undefined;
    if (lm) {
      for (const k of Object.keys(lm)) {
        walk(view, view.fieldType(form.map, k), lm[k], rm && Object.prototype.hasOwnProperty.call(rm, k) ? rm[k] : undefined, [...path, fieldPE(k)], c);
      }
    }
    if (rm) {
      for (const k of Object.keys(rm)) {
        if (lm && Object.prototype.hasOwnProperty.call(lm, k)) continue;
        walk(view, view.fieldType(form.map, k), undefined, rm[k], [...path, fieldPE(k)], c);
      }
    }
  } else {
    const li = indexList(view, form.list, l);
    const ri = indexList(view, form.list, r);
    for (const pe of li.order) visitItem(view, form.list.elementType, li, ri, pe, path, c);
    for (const pe of ri.order) if (!li.items.has(pe.id)) visitItem(view, form.list.elementType, li, ri, pe, path, c);
  }
  if (path.length > 0) {
    if (l === undefined) c.added.insert(path);
    else if (r === undefined) c.removed.insert(path);
  }
}

function visitItem(view: SchemaView, et: TypeRef, li: ListIndex, ri: ListIndex, pe: PathElement, path: Path, c: Comparison): void {
  const a = itemOrDups(li, pe.id);
  const b = itemOrDups(ri, pe.id);
  const p = [...path, pe];
  // Items sharing a key are compared whole.
  if (a.dup || b.dup) leaf(a.value, b.value, p, c);
  else walk(view, et, a.value, b.value, p, c);
}
