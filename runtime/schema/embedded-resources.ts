// The x-kubernetes-embedded-resource fields of a custom resource version, as
// the apiextensions server treats them below the root
// (pkg/apiserver/schema/objectmeta): a request's object is coerced there
// (apiVersion and kind must be strings; metadata decodes into ObjectMeta,
// unknown metadata fields dropped and reported, the rest encoded back as Go
// encodes ObjectMeta), and every embedded object is handed to the strategy's
// validation (apiVersion and kind required, ObjectMeta's rules). Pruning's
// part of the request decode is here too: a non-string apiVersion or kind,
// or a metadata that is not an object, the schema does not describe and
// does not preserve is dropped as an unknown field. Reads from storage coerce
// with malformed fields dropped instead (structural-pruning.ts). Compiled
// once per served version; undefined for a schema without embedded resources.
import { decodeObjectMeta } from './object-meta.ts';
import { isObject, type OpenAPISchema } from './util.ts';

type Json = Record<string, unknown>;

interface Node {
  embedded: boolean;
  preserve: boolean;
  /** Property names the schema itself describes (apiVersion, kind, metadata of an embedded object). */
  properties?: Map<string, Node>;
  additional?: Node;
  items?: Node;
}

/** A coercion failure: upstream's field.Invalid (path, bad value, detail). */
export interface CoercionError {
  path: string;
  value: unknown;
  detail: string;
}

export interface EmbeddedResources {
  /**
   * Coerces the embedded resources of a request's object in place: returns
   * the first failure (upstream answers 400 with it) and adds the paths of
   * dropped unknown fields to `unknown`.
   */
  coerce(obj: Json, unknown: string[]): CoercionError | undefined;
  /** Calls fn with the path and object of every embedded resource below the root. */
  forEach(obj: Json, fn: (path: string, resource: Json) => void): void;
}

/** A subtree's node, or undefined when no embedded resource is in it. */
function compileNode(s: OpenAPISchema): Node | undefined {
  const n: Node = { embedded: s['x-kubernetes-embedded-resource'] === true, preserve: s['x-kubernetes-preserve-unknown-fields'] === true };
  let any = n.embedded;
  if (isObject(s.properties)) {
    for (const [k, p] of Object.entries(s.properties)) {
      if (!isObject(p)) continue;
      const c = compileNode(p);
      // every described name is kept: an embedded object's own apiVersion, kind or metadata counts
      (n.properties ??= new Map()).set(k, c ?? { embedded: false, preserve: false });
      if (c) any = true;
    }
  }
  if (isObject(s.additionalProperties)) {
    n.additional = compileNode(s.additionalProperties);
    if (n.additional) any = true;
  }
  if (isObject(s.items)) {
    n.items = compileNode(s.items);
    if (n.items) any = true;
  }
  return any ? n : undefined;
}

const child = (path: string, k: string) => (path ? `${path}.${k}` : k);

function coerceResource(o: Json, n: Node, path: string, unknown: string[]): CoercionError | undefined {
  for (const k of ['apiVersion', 'kind'] as const) {
    if (!(k in o) || typeof o[k] === 'string') continue;
    // pruning first: a field neither described nor preserved is dropped
    if (!n.preserve && !n.properties?.has(k)) {
      delete o[k];
      unknown.push(child(path, k));
      continue;
    }
    return { path: child(path, k), value: o[k], detail: 'must be a string' };
  }
  if (!('metadata' in o)) return undefined;
  const md = o.metadata;
  if ((typeof md !== 'object' || md === null || Array.isArray(md)) && !n.preserve && !n.properties?.has('metadata')) {
    delete o.metadata;
    unknown.push(child(path, 'metadata'));
    return undefined;
  }
  const decoded = decodeObjectMeta(md, false);
  for (const u of decoded.unknown) unknown.push(`${child(path, 'metadata')}.${u}`);
  if (decoded.error !== undefined || !decoded.meta) return { path: child(path, 'metadata'), value: md, detail: decoded.error ?? '' };
  o.metadata = decoded.meta;
  return undefined;
}

function walk(x: unknown, n: Node | undefined, path: string, visit: (o: Json, n: Node, path: string) => CoercionError | undefined): CoercionError | undefined {
  if (!n || x === null || typeof x !== 'object') return undefined;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const e = walk(x[i], n.items, `${path}[${i}]`, visit);
      if (e) return e;
    }
    return undefined;
  }
  const o = x as Json;
  if (n.embedded && path !== '') {
    const e = visit(o, n, path);
    if (e) return e;
  }
  for (const k of Object.keys(o)) {
    const p = n.properties?.get(k);
    const e = p ? walk(o[k], p, child(path, k), visit) : n.additional ? walk(o[k], n.additional, `${path}[${k}]`, visit) : undefined;
    if (e) return e;
  }
  return undefined;
}

/** Compiles the embedded resources of a version's openAPIV3Schema; undefined when it has none. */
export function compileEmbeddedResources(schema: OpenAPISchema): EmbeddedResources | undefined {
  const root = compileNode({ ...schema, 'x-kubernetes-embedded-resource': false });
  if (!root) return undefined;
  // the root's apiVersion, kind and metadata are the object's own
  for (const f of ['apiVersion', 'kind', 'metadata']) root.properties?.delete(f);
  return {
    coerce: (obj, unknown) => walk(obj, root, '', (o, n, path) => coerceResource(o, n, path, unknown)),
    forEach: (obj, fn) => {
      walk(obj, root, '', (o, _n, path) => {
        fn(path, o);
        return undefined;
      });
    },
  };
}
