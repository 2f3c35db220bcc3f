// Small helpers over raw OpenAPI schema objects: reading a `$ref` (plain or
// wrapped in a one-element allOf, as upstream v3 documents write fields with
// defaults), and telling scalar schemas apart. Shared by the loader and the
// emitters; no I/O.
import type { OpenAPISchema } from '../model/types.ts';

export const REF_PREFIX = '#/components/schemas/';

export const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
export const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
export const LIST_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';

export function isObject(v: unknown): v is OpenAPISchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The `$ref` string of a node, if it is a reference (directly or via a single-element allOf). */
export function rawRef(node: OpenAPISchema): string | undefined {
  if (typeof node.$ref === 'string') return node.$ref;
  const all = node.allOf;
  if (Array.isArray(all) && all.length === 1 && isObject(all[0]) && typeof all[0].$ref === 'string') {
    return all[0].$ref;
  }
  return undefined;
}

/** The referenced schema name, if the node is a reference. */
export function refName(node: OpenAPISchema): string | undefined {
  const r = rawRef(node);
  if (r === undefined) return undefined;
  return r.startsWith(REF_PREFIX) ? decodeURIComponent(r.slice(REF_PREFIX.length)) : r;
}

export function schemaType(node: OpenAPISchema): string | undefined {
  return typeof node.type === 'string' ? node.type : undefined;
}

export function isIntOrString(node: OpenAPISchema): boolean {
  return node['x-kubernetes-int-or-string'] === true || node.format === 'int-or-string';
}

export function properties(node: OpenAPISchema): Record<string, OpenAPISchema> {
  return isObject(node.properties) ? (node.properties as Record<string, OpenAPISchema>) : {};
}

/** Deep copy with keys sorted, for stable output and structural comparison. */
export function sortKeysDeep<T>(v: T): T {
  if (Array.isArray(v)) return v.map(sortKeysDeep) as T;
  if (isObject(v)) {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeysDeep(v[k]);
    return out as T;
  }
  return v;
}
