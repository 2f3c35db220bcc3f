// What upstream kube-apiserver documents write that means something other
// than it says. kube-openapi gives every non-pointer struct field of a Go type
// `default: {}` (its zero value), including fields whose JSON form is not an
// object: ObjectMeta.creationTimestamp is a metav1.Time, a date-time string
// in JSON, yet carries `default: {}`. Applied as written, every object would
// get `{}` there and fail its own type check. An empty-object default on a
// schema that is not an object (after following its `$ref`, plain or in a
// one-element allOf) therefore means "no default" and is dropped. Pure
// function over one schema; no I/O.
import type { NamedSchema, OpenAPISchema } from '../model/types.ts';
import { resolveNode } from './markers.ts';
import { isIntOrString, isObject, schemaType } from './schema-util.ts';

type Lookup = (name: string) => NamedSchema | undefined;

const NOT_OBJECT = new Set(['string', 'integer', 'number', 'boolean', 'array']);

function isEmptyObject(v: unknown): boolean {
  return isObject(v) && Object.keys(v).length === 0;
}

/** Whether a schema (its reference followed) describes something other than a JSON object. */
export function isNonObject(node: OpenAPISchema, lookup: Lookup): boolean {
  const n = resolveNode(node, lookup);
  if (isIntOrString(n)) return true;
  const t = schemaType(n);
  return t !== undefined && NOT_OBJECT.has(t);
}

function fix(node: OpenAPISchema, lookup: Lookup): OpenAPISchema {
  let out: OpenAPISchema | undefined;
  const set = (k: string, v: unknown) => {
    out ??= { ...node };
    out[k] = v;
  };
  if (isEmptyObject(node.default) && isNonObject(node, lookup)) {
    out = { ...node };
    delete out.default;
  }
  if (isObject(node.properties)) {
    let changed = false;
    const props: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node.properties)) {
      props[k] = isObject(v) ? fix(v, lookup) : v;
      if (props[k] !== v) changed = true;
    }
    if (changed) set('properties', props);
  }
  for (const k of ['items', 'additionalProperties', 'not'] as const) {
    const v = node[k];
    if (isObject(v)) {
      const f = fix(v, lookup);
      if (f !== v) set(k, f);
    }
  }
  for (const k of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[k];
    if (!Array.isArray(list)) continue;
    const fixed = list.map((v: unknown) => (isObject(v) ? fix(v, lookup) : v));
    if (fixed.some((v, i) => v !== list[i])) set(k, fixed);
  }
  return out ?? node;
}

/** The schema with upstream's quirks read as meant (see the module header); the same object when there is nothing to change. */
export function withoutUpstreamQuirks(schema: OpenAPISchema, lookup: Lookup): OpenAPISchema {
  return fix(schema, lookup);
}
