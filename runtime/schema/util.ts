// Small helpers over raw OpenAPI schema objects, shared by codegen and the
// runtime: reading a `$ref` (plain or wrapped in a one-element allOf, as
// upstream v3 documents write fields with defaults), following references,
// telling scalar schemas apart, and JSON paths for error messages. No I/O.

/** An OpenAPI v3 schema object as written in a spec or a CRD (x-kubernetes-* markers included). */
export type OpenAPISchema = { [k: string]: unknown };

/** Finds a named schema (codegen's model, or a CRD's own schemas at run time). */
export type SchemaLookup = (name: string) => { schema: OpenAPISchema } | undefined;

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

/** Follows references until a non-reference schema (guards against cycles). */
export function resolveNode(node: OpenAPISchema, lookup: SchemaLookup): OpenAPISchema {
  let cur = node;
  for (let i = 0; i < 32; i++) {
    const name = refName(cur);
    if (name === undefined) return cur;
    const target = lookup(name);
    if (!target) return cur;
    cur = target.schema;
  }
  return cur;
}

export function isScalarSchema(node: OpenAPISchema, lookup: SchemaLookup): boolean {
  const n = resolveNode(node, lookup);
  if (isIntOrString(n)) return true;
  const t = schemaType(n);
  return t === 'string' || t === 'integer' || t === 'number' || t === 'boolean';
}

/** JSON path segment: `.name` for identifiers, `["a/b"]` otherwise. */
export function jp(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}
