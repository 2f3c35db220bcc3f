// Schema-aware set helpers: making declared struct fields members of a set
// whenever something below them is (structured-merge-diff's
// EnsureNamedFieldsAreMembers), so that pruning can drop a struct field whose
// last owned child went away.
// Boundary: pure set transformation.
import type { TypeRef } from '../../../generated/api-types.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { DEDUCED_REF, type SchemaView } from '../schema/resolve.ts';

export function ensureNamedFieldsAreMembers(view: SchemaView, ref: TypeRef, set: FieldSet): FieldSet {
  const atom = view.resolve(ref);
  const out = new FieldSet();
  for (const [id, pe] of set.members) out.members.set(id, pe);
  for (const [id, c] of set.children) {
    let childRef: TypeRef = DEDUCED_REF;
    if (c.pe.kind === 'field') {
      if (atom.map) {
        if (view.field(atom.map, c.pe.name)) out.members.set(id, c.pe);
        childRef = view.fieldType(atom.map, c.pe.name);
      }
    } else if (atom.list) {
      childRef = atom.list.elementType;
    }
    out.children.set(id, { pe: c.pe, set: ensureNamedFieldsAreMembers(view, childRef, c.set) });
  }
  return out;
}
