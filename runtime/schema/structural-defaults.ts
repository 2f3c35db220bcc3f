// Structural defaulting of custom resources, as the apiextensions server
// does it on a request body and on every read from storage: first the nulls
// that the schema does not allow (not nullable) and that have no default are
// dropped, then defaults are set where a field is absent or a non-nullable
// null, at any depth (properties, additionalProperties, array items; a
// default's own fields are defaulted too). A null of a nullable field is
// kept and not defaulted. Fields the schema does not describe (under
// x-kubernetes-preserve-unknown-fields) are left as they are, nulls
// included. At the root, apiVersion, kind and metadata are not the schema's:
// their nulls are dropped as for any object. Compiled once per served
// version from its openAPIV3Schema.
import type { JSONValue } from '../../generated/api-types.ts';
import { isObject, rawRef, sortKeysDeep, type OpenAPISchema } from './util.ts';

interface Node {
  nullable: boolean;
  default?: JSONValue;
  properties?: Map<string, Node>;
  additional?: Node;
  items?: Node;
}

type Json = Record<string, unknown>;

export interface StructuralDefaults {
  /** Whether the schema declares any default (without one, applying changes only nulls). */
  readonly hasDefaults: boolean;
  /** Drops disallowed nulls and sets defaults in place; true when obj changed. */
  apply(obj: Json): boolean;
  /** Only drops the nulls the schema does not allow (and has no default for), in place; true when obj changed. */
  dropNulls(obj: Json): boolean;
}

const ROOT_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

function compileNode(s: OpenAPISchema, found: { defaults: boolean }): Node {
  const n: Node = { nullable: s.nullable === true };
  if (s.default !== undefined) {
    n.default = sortKeysDeep(s.default) as JSONValue;
    found.defaults = true;
  }
  if (isObject(s.properties)) {
    n.properties = new Map();
    for (const [k, p] of Object.entries(s.properties)) if (isObject(p) && rawRef(p) === undefined) n.properties.set(k, compileNode(p, found));
  }
  if (isObject(s.additionalProperties)) n.additional = compileNode(s.additionalProperties, found);
  if (isObject(s.items)) n.items = compileNode(s.items, found);
  return n;
}

function fieldSchema(s: Node | undefined, k: string): Node | undefined {
  return s?.properties?.get(k) ?? s?.additional;
}

const clone = (v: JSONValue): unknown => structuredClone(v);

/** Upstream's PruneNonNullableNullsWithoutDefaults: returns true when something was dropped. */
function pruneNulls(x: unknown, s: Node | undefined): boolean {
  if (s === undefined || x === null || typeof x !== 'object') return false;
  let changed = false;
  if (Array.isArray(x)) {
    for (const v of x) if (pruneNulls(v, s.items)) changed = true;
    return changed;
  }
  const o = x as Json;
  for (const k of Object.keys(o)) {
    const fs = fieldSchema(s, k);
    if (o[k] === null && fs && !fs.nullable && fs.default === undefined) {
      delete o[k];
      changed = true;
    } else if (pruneNulls(o[k], fs)) changed = true;
  }
  return changed;
}

/** Upstream's Default: returns true when a default was set. */
function applyDefaults(x: unknown, s: Node | undefined): boolean {
  if (s === undefined || x === null || typeof x !== 'object') return false;
  let changed = false;
  if (Array.isArray(x)) {
    const it = s.items;
    if (!it) return false;
    for (let i = 0; i < x.length; i++) {
      if (x[i] === null && !it.nullable && it.default !== undefined) {
        x[i] = clone(it.default);
        changed = true;
      }
      if (applyDefaults(x[i], it)) changed = true;
    }
    return changed;
  }
  const o = x as Json;
  if (s.properties) {
    for (const [k, p] of s.properties) {
      if (p.default === undefined) continue;
      if (!(k in o) || (o[k] === null && !p.nullable)) {
        o[k] = clone(p.default);
        changed = true;
      }
    }
  }
  for (const k of Object.keys(o)) {
    const p = s.properties?.get(k);
    if (p) {
      if (applyDefaults(o[k], p)) changed = true;
    } else if (s.additional) {
      const a = s.additional;
      if (o[k] === null && !a.nullable && a.default !== undefined) {
        o[k] = clone(a.default);
        changed = true;
      }
      if (applyDefaults(o[k], a)) changed = true;
    }
  }
  return changed;
}

/** Drops every null below v (JSON null means unset outside the schema's nullable fields). */
function dropAllNulls(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  let changed = false;
  if (Array.isArray(v)) {
    for (const x of v) if (dropAllNulls(x)) changed = true;
    return changed;
  }
  const o = v as Json;
  for (const k of Object.keys(o)) {
    if (o[k] === null) {
      delete o[k];
      changed = true;
    } else if (dropAllNulls(o[k])) changed = true;
  }
  return changed;
}

/** Compiles the structural defaulting of a version's openAPIV3Schema (as published: references are not followed). */
export function compileStructuralDefaults(schema: OpenAPISchema): StructuralDefaults {
  const found = { defaults: false };
  const root = compileNode(schema, found);
  for (const f of ROOT_FIELDS) root.properties?.delete(f);
  const dropNulls = (obj: Json): boolean => {
    let changed = false;
    for (const f of ROOT_FIELDS) {
      if (obj[f] === null) {
        delete obj[f];
        changed = true;
      }
    }
    if (dropAllNulls(obj.metadata)) changed = true;
    // the root's own fields: apiVersion, kind and metadata are skipped by having no schema here
    return pruneNulls(obj, root) || changed;
  };
  return {
    hasDefaults: found.defaults,
    dropNulls,
    apply(obj) {
      const dropped = dropNulls(obj);
      return applyDefaults(obj, root) || dropped;
    },
  };
}
