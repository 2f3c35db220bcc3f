// Navigates the merge schema (generated/merge-schema.ts, MergeSchema in
// api-types.ts) for strategic merge patch: from a type and a JSON field name
// to the field's patch strategy, merge key and the schema of its value or of
// its list elements. Boundary: read-only lookups; knows nothing of patches.
import { UNTYPED_ATOMIC, UNTYPED_DEDUCED } from '../../generated/api-types.ts';
import type { Atom, FieldDef, MergeSchema, TypeRef } from '../../generated/api-types.ts';
import { internal } from './errors.ts';

/** A position in the schema: the atom of the value at hand, or unknown (no metadata). */
export interface SchemaNode {
  schema: MergeSchema;
  atom: Atom | undefined;
  /** Name of the type, for error texts. */
  name: string;
}

/** What strategic merge needs to know about one field. */
export interface FieldMeta {
  /** `merge`, `replace` or '' (none), with retainKeys split off. */
  strategy: string;
  retainKeys: boolean;
  mergeKey: string;
  /** Schema of the field's value (for a list: of the list itself). */
  node: SchemaNode;
}

export function rootNode(schema: MergeSchema, typeName: string): SchemaNode {
  return { schema, atom: schema.types[typeName], name: shortName(typeName) };
}

function shortName(typeName: string): string {
  const i = typeName.lastIndexOf('.');
  return i >= 0 ? typeName.slice(i + 1) : typeName;
}

export function resolveRef(schema: MergeSchema, ref: TypeRef | undefined): SchemaNode {
  if (!ref) return { schema, atom: undefined, name: '' };
  if (ref.inline) return { schema, atom: ref.inline, name: '' };
  if (ref.named && ref.named !== UNTYPED_ATOMIC && ref.named !== UNTYPED_DEDUCED) {
    return { schema, atom: schema.types[ref.named], name: shortName(ref.named) };
  }
  return { schema, atom: undefined, name: '' };
}

/**
 * Splits x-kubernetes-patch-strategy (`merge`, `retainKeys`, `merge,retainKeys`)
 * into the retainKeys flag and the other strategy, with upstream's error for
 * anything else.
 */
export function splitStrategy(raw: string | undefined): { retainKeys: boolean; strategy: string } {
  if (!raw) return { retainKeys: false, strategy: '' };
  const parts = raw.split(',');
  if (parts.length === 1) {
    return parts[0] === 'retainKeys' ? { retainKeys: true, strategy: '' } : { retainKeys: false, strategy: parts[0] };
  }
  if (parts.length === 2) {
    if (parts[0] === 'retainKeys') return { retainKeys: true, strategy: parts[1] };
    if (parts[1] === 'retainKeys') return { retainKeys: true, strategy: parts[0] };
  }
  throw internal(`unexpected patch strategy: [${parts.join(' ')}]`);
}

/**
 * Metadata of field `key` of the map at `node`. Unknown types and fields have
 * no metadata (no strategy: maps merge, lists are replaced), which is how the
 * server treats values it has no schema for.
 */
export function lookupField(node: SchemaNode, key: string): FieldMeta {
  const map = node.atom?.map;
  if (!map) return { strategy: '', retainKeys: false, mergeKey: '', node: { schema: node.schema, atom: undefined, name: '' } };
  const field: FieldDef | undefined = map.fields?.find((f) => f.name === key);
  if (field) {
    const { retainKeys, strategy } = splitStrategy(field.patchStrategy);
    return { strategy, retainKeys, mergeKey: field.patchMergeKey ?? '', node: resolveRef(node.schema, field.type) };
  }
  return { strategy: '', retainKeys: false, mergeKey: '', node: resolveRef(node.schema, map.elementType) };
}

/** Schema of the elements of the list at `node`. */
export function listElement(node: SchemaNode): SchemaNode {
  const list = node.atom?.list;
  if (!list) return { schema: node.schema, atom: undefined, name: '' };
  return resolveRef(node.schema, list.elementType);
}
