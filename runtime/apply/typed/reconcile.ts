// Brings a manager's field set in line with the current schema when a field
// changed from granular (map/set list, granular map or struct) to atomic since
// the set was written: ownership of anything below the now atomic value
// collapses to ownership of the whole value. The opposite change is not
// reconciled (as upstream): whoever owned the whole atomic value keeps owning
// just that field, none of what is now below it. Deduced (schemaless) types
// are never reconciled.
// Boundary: returns a new set, or undefined when nothing changes.
import type { TypeRef } from '../../../generated/api-types.ts';
import type { Path, PathElement } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { DEDUCED_REF, type SchemaView } from '../schema/resolve.ts';

export function reconcileFieldSet(view: SchemaView, ref: TypeRef, set: FieldSet): FieldSet | undefined {
  const collapse: Path[] = [];
  walk(view, ref, set, [], collapse);
  if (collapse.length === 0) return undefined;
  const at = FieldSet.of(...collapse);
  return set.recursiveDifference(at).union(at);
}

function walk(view: SchemaView, ref: TypeRef, set: FieldSet, path: Path, collapse: Path[]): void {
  const atom = view.resolve(ref);
  // Multi-form atoms are the deduced types: never reconciled.
  if (atom.scalar || (atom.map && atom.list)) return;
  if (atom.map) {
    if (path.length > 0 && atom.map.elementRelationship === 'atomic') {
      if (!set.empty()) collapse.push(path);
      return;
    }
    const map = atom.map;
    visit(set, (pe, child) => walk(view, pe.kind === 'field' ? view.fieldType(map, pe.name) : DEDUCED_REF, child, [...path, pe], collapse));
    return;
  }
  if (atom.list) {
    if (atom.list.elementRelationship === 'atomic') {
      if (!set.empty()) collapse.push(path);
      return;
    }
    const et = atom.list.elementType;
    visit(set, (pe, child) => walk(view, et, child, [...path, pe], collapse));
  }
}

/** Visits the children that have something below them (a bare member owns no children to collapse). */
function visit(set: FieldSet, fn: (pe: PathElement, child: FieldSet) => void): void {
  for (const c of set.children.values()) if (!c.set.empty()) fn(c.pe, c.set);
}
