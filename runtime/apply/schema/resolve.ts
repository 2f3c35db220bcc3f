// Reads the merge schema (generated/api-types.ts MergeSchema): resolves type
// references to atoms (with the reserved untyped types and per-field
// relationship overrides), picks the form of a value (scalar, list, map) the
// way structured-merge-diff deduces it, looks up struct fields, and computes
// the path element of a list item from the list's keys.
// Boundary: read-only view of the schema; no merge logic.
import { UNTYPED_ATOMIC, UNTYPED_DEDUCED, type Atom, type FieldDef, type ListDef, type MapDef, type MergeSchema, type TypeRef } from '../../../generated/api-types.ts';
import { isObj, type JSONValue } from '../value/json.ts';
import { keyPE, valuePE, type PathElement } from '../fieldpath/element.ts';

const ATOMIC_REF: TypeRef = { named: UNTYPED_ATOMIC };
export const DEDUCED_REF: TypeRef = { named: UNTYPED_DEDUCED };

const UNTYPED_ATOMIC_ATOM: Atom = {
  scalar: 'untyped',
  list: { elementType: ATOMIC_REF, elementRelationship: 'atomic' },
  map: { elementType: ATOMIC_REF, elementRelationship: 'atomic' },
};
const UNTYPED_DEDUCED_ATOM: Atom = {
  scalar: 'untyped',
  list: { elementType: ATOMIC_REF, elementRelationship: 'atomic' },
  map: { elementType: DEDUCED_REF, elementRelationship: 'separable' },
};

export type Form = { kind: 'map'; map: MapDef; atomic: boolean } | { kind: 'list'; list: ListDef; atomic: boolean } | { kind: 'scalar' };

const SCALAR: Form = { kind: 'scalar' };

export class SchemaView {
  private readonly fieldIndex = new WeakMap<MapDef, Map<string, FieldDef>>();
  private readonly overridden = new WeakMap<Atom, Map<string, Atom>>();

  constructor(readonly schema: MergeSchema) {}

  hasType(name: string): boolean {
    return name === UNTYPED_ATOMIC || name === UNTYPED_DEDUCED || Object.prototype.hasOwnProperty.call(this.schema.types, name);
  }

  /** The atom a reference denotes; unknown names resolve to the deduced type. */
  resolve(ref: TypeRef): Atom {
    let atom: Atom;
    if (ref.inline) atom = ref.inline;
    else if (ref.named === UNTYPED_ATOMIC) atom = UNTYPED_ATOMIC_ATOM;
    else if (ref.named !== undefined && ref.named !== UNTYPED_DEDUCED && this.schema.types[ref.named]) atom = this.schema.types[ref.named];
    else atom = UNTYPED_DEDUCED_ATOM;
    const er = ref.elementRelationship;
    if (!er) return atom;
    let byEr = this.overridden.get(atom);
    if (!byEr) {
      byEr = new Map();
      this.overridden.set(atom, byEr);
    }
    let out = byEr.get(er);
    if (!out) {
      out = { ...atom };
      if (atom.map) out.map = { ...atom.map, elementRelationship: er === 'associative' ? atom.map.elementRelationship : er };
      if (atom.list) out.list = { ...atom.list, elementRelationship: er === 'separable' ? atom.list.elementRelationship : er };
      byEr.set(er, out);
    }
    return out;
  }

  /** How a value of this type is walked. Mismatched values are leaves. */
  form(atom: Atom, v: JSONValue | undefined): Form {
    if (v === undefined || v === null) {
      if (atom.map) return { kind: 'map', map: atom.map, atomic: atom.map.elementRelationship === 'atomic' };
      if (atom.scalar) return SCALAR;
      if (atom.list) return { kind: 'list', list: atom.list, atomic: atom.list.elementRelationship === 'atomic' };
      return SCALAR;
    }
    if (Array.isArray(v)) {
      return atom.list ? { kind: 'list', list: atom.list, atomic: atom.list.elementRelationship === 'atomic' } : SCALAR;
    }
    if (typeof v === 'object') {
      return atom.map ? { kind: 'map', map: atom.map, atomic: atom.map.elementRelationship === 'atomic' } : SCALAR;
    }
    return SCALAR;
  }

  field(map: MapDef, name: string): FieldDef | undefined {
    if (!map.fields) return undefined;
    let idx = this.fieldIndex.get(map);
    if (!idx) {
      idx = new Map(map.fields.map((f) => [f.name, f]));
      this.fieldIndex.set(map, idx);
    }
    return idx.get(name);
  }

  /** Type of a map's entry: the struct field's type, else the element type, else deduced. */
  fieldType(map: MapDef, name: string): TypeRef {
    return this.field(map, name)?.type ?? map.elementType ?? DEDUCED_REF;
  }

  /** True when name is a declared struct field of the type ref (used for named-field membership). */
  isNamedField(ref: TypeRef, name: string): boolean {
    const atom = this.resolve(ref);
    return !!atom.map && this.field(atom.map, name) !== undefined;
  }

  /** Item path elements by item object, with the raw key values they were computed from. */
  private readonly itemPEs = new WeakMap<ListDef, WeakMap<object, { pe: PathElement; raw: unknown[] }>>();

  /** Path element of a list item of an associative list; throws ListItemError when it has none. */
  listItemPE(list: ListDef, item: JSONValue): PathElement {
    const keys = list.keys;
    if (!keys || keys.length === 0 || !isObj(item)) return this.computeItemPE(list, item);
    let byItem = this.itemPEs.get(list);
    if (!byItem) {
      byItem = new WeakMap();
      this.itemPEs.set(list, byItem);
    }
    const hit = byItem.get(item);
    // Reuse only while the key fields still hold the same (scalar) values.
    if (hit && keys.every((k, i) => item[k] === hit.raw[i] && (typeof item[k] !== 'object' || item[k] === null))) return hit.pe;
    const pe = this.computeItemPE(list, item);
    byItem.set(item, { pe, raw: keys.map((k) => item[k]) });
    return pe;
  }

  private computeItemPE(list: ListDef, item: JSONValue): PathElement {
    const keys = list.keys ?? [];
    if (keys.length > 0) {
      if (item === null) throw new ListItemError('associative list with keys may not have a null element');
      if (!isObj(item)) throw new ListItemError('associative list with keys may not have non-map elements');
      const fields: [string, JSONValue][] = [];
      for (const k of keys) {
        if (Object.prototype.hasOwnProperty.call(item, k)) {
          fields.push([k, item[k]]);
          continue;
        }
        const def = this.keyDefault(list, k);
        if (def === undefined) {
          throw new ListItemError(`associative list with keys has an element that omits key field ${JSON.stringify(k)} (and doesn't have default value)`);
        }
        fields.push([k, def]);
      }
      return keyPE(fields);
    }
    if (item === null) throw new ListItemError("associative list without keys has an element that's an explicit null");
    if (Array.isArray(item)) throw new ListItemError('not supported: associative list with lists as elements');
    if (typeof item === 'object') throw new ListItemError("associative list without keys has an element that's a map type");
    return valuePE(item);
  }

  private keyDefault(list: ListDef, key: string): JSONValue | undefined {
    const atom = this.resolve(list.elementType);
    return atom.map ? this.field(atom.map, key)?.default : undefined;
  }
}

export class ListItemError extends Error {}

const views = new WeakMap<MergeSchema, SchemaView>();

/** The shared view of a schema (its lookup caches are reused by every FieldManager on it). */
export function viewOf(schema: MergeSchema): SchemaView {
  let v = views.get(schema);
  if (!v) {
    v = new SchemaView(schema);
    views.set(schema, v);
  }
  return v;
}
