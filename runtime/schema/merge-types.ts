// OpenAPI schema -> structured-merge-diff schema atoms (list/map
// relationships, keys, patch strategies, defaults), shared by codegen (which
// emits generated/merge-schema.ts) and the runtime (the merge schema of a
// CustomResourceDefinition it serves). The rules of docs/spec-format.md:
// list-type map/set/atomic, patch-strategy merge as an implied list-type map
// keyed by the merge key (built-in schemas only), map-type atomic/granular,
// int-or-string untyped, preserve-unknown-fields a map of deduced values;
// CRD schemas ignore patch strategies (unstructured: lists atomic).
import type { Atom, FieldDef, JSONValue, TypeRef } from '../../generated/api-types.ts';
import { isIntOrString, isObject, isScalarSchema, properties, refName, schemaType, sortKeysDeep, type OpenAPISchema, type SchemaLookup } from './util.ts';

const UNTYPED_ATOMIC = '__untyped_atomic_';
const UNTYPED_DEDUCED = '__untyped_deduced_';

/** How a schema is read: as a built-in type or a CRD's (unstructured), and how its references resolve. */
export interface MergeCtx {
  custom: boolean;
  lookup: SchemaLookup;
  /** Below an atomic list or map: inline lists and maps are atomic too. */
  atomic?: boolean;
}

const deduced: TypeRef = { named: UNTYPED_DEDUCED };

function typeRef(node: OpenAPISchema, ctx: MergeCtx): TypeRef {
  const n = refName(node);
  if (n !== undefined) {
    const ref: TypeRef = { named: n };
    const mt = node['x-kubernetes-map-type'];
    if (mt === 'atomic') ref.elementRelationship = 'atomic';
    else if (mt === 'granular') ref.elementRelationship = 'separable';
    return ref;
  }
  if (node['x-kubernetes-preserve-unknown-fields'] === true && node.type === undefined && !isObject(node.properties)) return deduced;
  if (node.type === undefined && !isObject(node.properties) && node.additionalProperties === undefined && !isIntOrString(node) && node.items === undefined) {
    return { named: UNTYPED_ATOMIC };
  }
  return { inline: atom(node, ctx) };
}

/** A list without list type that patch strategy merge makes associative (built-in schemas only). */
function impliedAssociative(node: OpenAPISchema, items: OpenAPISchema, ctx: MergeCtx): boolean {
  if (ctx.custom) return false;
  if (
    !String(node['x-kubernetes-patch-strategy'] ?? '')
      .split(',')
      .includes('merge')
  )
    return false;
  return isScalarSchema(items, ctx.lookup) || typeof node['x-kubernetes-patch-merge-key'] === 'string';
}

export function atom(node: OpenAPISchema, ctx: MergeCtx): Atom {
  if (isIntOrString(node)) return { scalar: 'untyped' };
  const t = schemaType(node);
  if (t === 'string') return { scalar: 'string' };
  if (t === 'integer' || t === 'number') return { scalar: 'numeric' };
  if (t === 'boolean') return { scalar: 'boolean' };
  if (t === 'array') {
    const items = isObject(node.items) ? node.items : {};
    const lt = node['x-kubernetes-list-type'];
    const explicitAtomic = ctx.atomic === true || lt === 'atomic' || (lt === undefined && !impliedAssociative(node, items, ctx));
    const elementType = typeRef(items, explicitAtomic ? { ...ctx, atomic: true } : ctx);
    if (ctx.atomic) return { list: { elementType, elementRelationship: 'atomic' } };
    if (lt === 'map') {
      const keys = Array.isArray(node['x-kubernetes-list-map-keys']) ? (node['x-kubernetes-list-map-keys'] as string[]) : [String(node['x-kubernetes-patch-merge-key'])];
      return { list: { elementType, elementRelationship: 'associative', keys: [...keys] } };
    }
    if (lt === 'set') return { list: { elementType, elementRelationship: 'associative' } };
    if (lt === 'atomic') return { list: { elementType, elementRelationship: 'atomic' } };
    const strategy = String(node['x-kubernetes-patch-strategy'] ?? '');
    if (!ctx.custom && strategy.split(',').includes('merge')) {
      const mergeKey = node['x-kubernetes-patch-merge-key'];
      if (isScalarSchema(items, ctx.lookup)) return { list: { elementType, elementRelationship: 'associative' } };
      if (typeof mergeKey === 'string') return { list: { elementType, elementRelationship: 'associative', keys: [mergeKey] } };
    }
    return { list: { elementType, elementRelationship: 'atomic' } };
  }
  // Objects (declared or implied by properties / additionalProperties).
  const mapAtomic = ctx.atomic === true || node['x-kubernetes-map-type'] === 'atomic';
  if (mapAtomic) ctx = { ...ctx, atomic: true };
  const props = properties(node);
  const names = Object.keys(props).sort();
  const map: Atom['map'] = {};
  if (names.length > 0) {
    map.fields = names.map((name) => {
      const p = props[name];
      const f: FieldDef = { name, type: typeRef(p, ctx) };
      if (!ctx.custom && typeof p['x-kubernetes-patch-strategy'] === 'string') f.patchStrategy = p['x-kubernetes-patch-strategy'];
      if (!ctx.custom && typeof p['x-kubernetes-patch-merge-key'] === 'string') f.patchMergeKey = p['x-kubernetes-patch-merge-key'];
      if (p.default !== undefined) f.default = sortKeysDeep(p.default) as JSONValue;
      return f;
    });
  }
  const ap = node.additionalProperties;
  if (isObject(ap)) map.elementType = typeRef(ap, ctx);
  else if (ap === true || node['x-kubernetes-preserve-unknown-fields'] === true || (names.length === 0 && ap === undefined)) map.elementType = deduced;
  map.elementRelationship = mapAtomic ? 'atomic' : 'separable';
  return { map };
}

/** The two reserved types every merge schema holds, as structured-merge-diff defines them. */
export function reservedTypes(): Record<string, Atom> {
  return {
    [UNTYPED_ATOMIC]: {
      scalar: 'untyped',
      list: { elementType: { named: UNTYPED_ATOMIC }, elementRelationship: 'atomic' },
      map: { elementType: { named: UNTYPED_ATOMIC }, elementRelationship: 'atomic' },
    },
    [UNTYPED_DEDUCED]: {
      scalar: 'untyped',
      list: { elementType: { named: UNTYPED_ATOMIC }, elementRelationship: 'atomic' },
      map: { elementType: { named: UNTYPED_DEDUCED }, elementRelationship: 'separable' },
    },
  };
}

/** The atom of a named type: a reference becomes a map of it, anything else its own atom. */
export function namedAtom(schema: OpenAPISchema, ctx: MergeCtx): Atom {
  const ref = refName(schema);
  if (ref !== undefined) return { map: { elementType: { named: ref }, elementRelationship: 'separable' } };
  return atom(schema, ctx);
}
