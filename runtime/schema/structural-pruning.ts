// Structural pruning of custom resources, as the apiextensions server prunes
// an object it decodes from storage: every field the version's structural
// schema does not describe is dropped, at any depth (properties,
// additionalProperties, array items), except under
// x-kubernetes-preserve-unknown-fields, where unknown fields stay and the
// fields the schema does describe are still pruned. The root and every
// x-kubernetes-embedded-resource keep apiVersion and kind (when strings) and
// metadata; an embedded resource's metadata is coerced as upstream's storage
// decode does with dropInvalidMetadata (object-meta.ts: fields unknown to
// ObjectMeta or of the wrong type dropped, the rest as Go encodes them; a
// non-string apiVersion or kind dropped). Compiled once per
// served version from its openAPIV3Schema; `canPrune` is false for a schema
// under which no stored object can lose a field (its root preserves unknown
// fields and nothing below narrows that), so readers can skip the walk;
// `fingerprint` tells versions whose schemas are the same apart from others.
import { createHash } from 'node:crypto';
import { decodeObjectMeta } from './object-meta.ts';
import { isObject, rawRef, type OpenAPISchema } from './util.ts';

interface Node {
  preserve: boolean;
  embedded: boolean;
  properties?: Map<string, Node>;
  additional?: Node;
  items?: Node;
}

type Json = Record<string, unknown>;

export interface StructuralPruning {
  /** Whether any object can lose a field to this schema. */
  readonly canPrune: boolean;
  /** A digest of the schema: versions with the same one prune (and drop nulls) alike. */
  readonly fingerprint: string;
  /** Drops the fields the schema does not describe, in place; true when obj changed. */
  apply(obj: Json): boolean;
}

function compileNode(s: OpenAPISchema, found: { prunes: boolean }): Node {
  const n: Node = { preserve: s['x-kubernetes-preserve-unknown-fields'] === true, embedded: s['x-kubernetes-embedded-resource'] === true };
  if (isObject(s.properties)) {
    n.properties = new Map();
    for (const [k, p] of Object.entries(s.properties)) if (isObject(p) && rawRef(p) === undefined) n.properties.set(k, compileNode(p, found));
  }
  if (isObject(s.additionalProperties)) n.additional = compileNode(s.additionalProperties, found);
  if (isObject(s.items)) n.items = compileNode(s.items, found);
  // a node that takes maps can drop their unknown keys unless it keeps them all
  const objectLike = s.type === 'object' || n.properties !== undefined || n.embedded;
  if (objectLike && !n.preserve && n.additional === undefined) found.prunes = true;
  if (n.embedded) found.prunes = true;
  return n;
}

/**
 * Upstream's metadata coercion of an embedded resource read from storage
 * (dropInvalidMetadata): decoded into ObjectMeta field by field, a field of
 * the wrong type or unknown to ObjectMeta dropped, the rest as Go encodes it;
 * a non-string apiVersion or kind dropped. True when o changed.
 */
function coerceEmbedded(o: Json): boolean {
  let changed = false;
  for (const k of ['apiVersion', 'kind']) {
    if (k in o && typeof o[k] !== 'string') {
      delete o[k];
      changed = true;
    }
  }
  const md = o.metadata;
  if (md === undefined || md === null || typeof md !== 'object' || Array.isArray(md)) return changed;
  const { meta } = decodeObjectMeta(md, true);
  if (meta && JSON.stringify(meta) !== JSON.stringify(md)) {
    o.metadata = meta;
    changed = true;
  }
  return changed;
}

/** The fields of an embedded resource (and the root) that the schema need not describe. */
function keptResourceField(o: Json, k: string): boolean {
  if (k === 'apiVersion' || k === 'kind') return typeof o[k] === 'string';
  return k === 'metadata';
}

function prune(x: unknown, s: Node | undefined, root: boolean): boolean {
  if (s?.preserve) return pruneKnown(x, s, root);
  if (x === null || typeof x !== 'object') return false;
  let changed = false;
  if (Array.isArray(x)) {
    for (const v of x) if (prune(v, s?.items, false)) changed = true;
    return changed;
  }
  const o = x as Json;
  if (s === undefined) {
    const had = Object.keys(o);
    for (const k of had) delete o[k];
    return had.length > 0;
  }
  const resource = root || s.embedded;
  if (s.embedded && !root && coerceEmbedded(o)) changed = true;
  for (const k of Object.keys(o)) {
    if (resource && keptResourceField(o, k)) continue;
    const p = s.properties?.get(k) ?? s.additional;
    if (p) {
      if (prune(o[k], p, false)) changed = true;
    } else {
      delete o[k];
      changed = true;
    }
  }
  return changed;
}

/** Upstream's skipPrune: under x-kubernetes-preserve-unknown-fields, only the fields the schema describes are pruned. */
function pruneKnown(x: unknown, s: Node, root: boolean): boolean {
  if (x === null || typeof x !== 'object') return false;
  let changed = false;
  if (Array.isArray(x)) {
    if (!s.items) return false;
    for (const v of x) if (pruneKnown(v, s.items, false)) changed = true;
    return changed;
  }
  const o = x as Json;
  if (s.embedded && !root && coerceEmbedded(o)) changed = true;
  for (const k of Object.keys(o)) {
    if ((root || s.embedded) && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) continue;
    const p = s.properties?.get(k) ?? s.additional;
    if (p && prune(o[k], p, false)) changed = true;
  }
  return changed;
}

/** Compiles the pruning of a version's openAPIV3Schema (as published: references are not followed). */
export function compileStructuralPruning(schema: OpenAPISchema): StructuralPruning {
  const found = { prunes: false };
  const root = compileNode(schema, found);
  // the root always keeps apiVersion, kind and metadata, whatever the schema says of them
  for (const f of ['apiVersion', 'kind', 'metadata']) root.properties?.delete(f);
  if (!root.preserve && root.additional === undefined) found.prunes = true;
  return {
    canPrune: found.prunes,
    fingerprint: createHash('sha256').update(JSON.stringify(schema)).digest('base64'),
    apply: (obj) => (found.prunes ? prune(obj, root, true) : false),
  };
}
