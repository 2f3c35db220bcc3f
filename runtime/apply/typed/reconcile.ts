// Brings a manager's field set in line with the current schema when a field's
// topology changed since the set was written (the server-side apply rule on
// changing a field between atomic and granular): a granular set below a now
// atomic list/map collapses to ownership of the whole value; ownership of a
// whole value that is now granular expands to the fields the live object has
// there. Deduced (schemaless) types are never reconciled.
// Boundary: returns a new set, or undefined when nothing changes.
import type { TypeRef } from '../../../generated/api-types.ts';
import type { Path, PathElement } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { DEDUCED_REF, type SchemaView } from '../schema/resolve.ts';

interface Acc { toRemove: Path[]; toAdd: Path[] }

export function reconcileFieldSet(
  view: SchemaView, ref: TypeRef, set: FieldSet, liveSet: () => FieldSet,
): FieldSet | undefined {
  const acc: Acc = { toRemove: [], toAdd: [] };
  walk(view, ref, set, false, [], acc);
  if (acc.toRemove.length === 0 && acc.toAdd.length === 0) return undefined;
  let out = set;
  if (acc.toRemove.length > 0) out = out.recursiveDifference(FieldSet.of(...acc.toRemove));
  const add = new FieldSet();
  for (const p of acc.toAdd) {
    if (p.length === 0) continue;
    add.insert(p);
  }
  // Atomic -> granular: the live object's fields below the path become owned too.
  const grown = acc.toAdd.filter((p) => (p as Path & { granular?: boolean }).granular);
  let extra = new FieldSet();
  if (grown.length > 0) {
    const ls = liveSet();
    for (const p of grown) {
      let node: FieldSet | undefined = ls;
      for (const pe of p) node = node?.children.get(pe.id)?.set;
      if (!node) continue;
      const wrapped = new FieldSet();
      let target = wrapped;
      for (const pe of p) target = target.descend(pe);
      for (const [id, pe] of node.members) target.members.set(id, pe);
      for (const [id, c] of node.children) target.children.set(id, c);
      extra = extra.union(wrapped);
    }
  }
  return out.union(add).union(extra);
}

function walk(view: SchemaView, ref: TypeRef, set: FieldSet | undefined, isAtomic: boolean, path: Path, acc: Acc): void {
  const atom = view.resolve(ref);
  if (atom.map && !atom.scalar && !atom.list) {
    const atomicNow = atom.map.elementRelationship === 'atomic';
    if (!isAtomic && atomicNow) {
      if (set && set.size() > 0) { acc.toRemove.push(path); acc.toAdd.push(path); }
      return;
    }
    if (isAtomic && !atomicNow) acc.toAdd.push(Object.assign([...path], { granular: true }));
    if (set) visit(view, set, path, acc, (pe) => (pe.kind === 'field' ? view.fieldType(atom.map!, pe.name) : DEDUCED_REF));
    return;
  }
  if (atom.list && !atom.scalar && !atom.map) {
    const atomicNow = atom.list.elementRelationship === 'atomic';
    if (!isAtomic && atomicNow) {
      if (path.length > 0 && set) { acc.toRemove.push(path); acc.toAdd.push(path); }
      return;
    }
    if (isAtomic && !atomicNow) acc.toAdd.push(Object.assign([...path], { granular: true }));
    if (set) visit(view, set, path, acc, () => atom.list!.elementType);
  }
  // Scalars and multi-form (deduced) atoms are left alone.
}

function visit(view: SchemaView, set: FieldSet, path: Path, acc: Acc, typeOf: (pe: PathElement) => TypeRef): void {
  for (const [id, c] of set.children) {
    if (set.members.has(id)) continue;
    walk(view, typeOf(c.pe), c.set, false, [...path, c.pe], acc);
  }
  for (const [id, pe] of set.members) {
    const c = set.children.get(id);
    const hasChildren = !!c && !c.set.empty();
    walk(view, typeOf(pe), c?.set, !hasChildren, [...path, pe], acc);
  }
}
