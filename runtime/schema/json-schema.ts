// OpenAPI schema -> plain JSON Schema for ajv, shared by codegen (which
// compiles it ahead of time into generated/validators) and the runtime
// (which compiles the schemas of CustomResourceDefinitions it serves):
// unknown-field detection (additionalProperties false unless
// x-kubernetes-preserve-unknown-fields), int-or-string, int32/int64 bounds,
// known formats, nullable; and the field-path shape the error mapping needs.
import type { Shape } from '../../generated/validators/runtime.ts';
import { isIntOrString, isObject, properties, QUANTITY, refName, schemaType, type OpenAPISchema } from './util.ts';

/** Formats checked, as regular expressions (others are ignored, as kube-apiserver ignores unknown formats). */
export const FORMATS: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  byte: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  // The serialized form kube-apiserver accepts for a resource.Quantity string.
  quantity: /^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$/,
};

const INT32 = { minimum: -2147483648, maximum: 2147483647 };
// Go's int64 bounds as written; as doubles the maximum rounds up to 2^63, the nearest value JSON numbers carry
// eslint-disable-next-line no-loss-of-precision
const INT64 = { minimum: -9223372036854775808, maximum: 9223372036854775807 };

type Json = Record<string, unknown>;

/** Where a named schema sits among the definitions ajv is given. */
export const defRef = (name: string) => `defs#/definitions/${name}`;

function patternOk(p: string): boolean {
  try {
    new RegExp(p, 'u');
    return true;
  } catch {
    return false;
  }
}

/** Whether a `pattern` is kept for the regular expression engine in use (default: JavaScript's, `u` mode). */
export type PatternCheck = (pattern: string) => boolean;

/** OpenAPI schema -> JSON Schema for ajv (no vendor keywords). */
export function toJsonSchema(node: OpenAPISchema, topKind = false, keepPattern: PatternCheck = patternOk): Json {
  const n = refName(node);
  if (n !== undefined) return { $ref: defRef(n) };
  if (isIntOrString(node)) return { type: ['integer', 'string'] };
  const out: Json = {};
  const t = schemaType(node);
  if (t !== undefined) out.type = t;
  if (Array.isArray(node.enum)) out.enum = node.enum;
  for (const k of ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'multipleOf', 'minimum', 'maximum'] as const) {
    if (typeof node[k] === 'number') out[k] = node[k];
  }
  if (node.exclusiveMinimum === true && typeof node.minimum === 'number') {
    out.exclusiveMinimum = node.minimum;
    delete out.minimum;
  }
  if (node.exclusiveMaximum === true && typeof node.maximum === 'number') {
    out.exclusiveMaximum = node.maximum;
    delete out.maximum;
  }
  if (node.uniqueItems === true) out.uniqueItems = true;
  if (typeof node.pattern === 'string' && keepPattern(node.pattern)) out.pattern = node.pattern;
  if (typeof node.format === 'string') {
    if (t === 'integer' && node.format === 'int32') {
      if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = INT32.minimum;
      if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = INT32.maximum;
    } else if (t === 'integer' && node.format === 'int64') {
      if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = INT64.minimum;
      if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = INT64.maximum;
    } else if (t === 'string' && node.format in FORMATS) out.format = node.format;
  }
  if (t === 'array' && isObject(node.items)) out.items = toJsonSchema(node.items, false, keepPattern);
  const props = properties(node);
  const names = Object.keys(props).sort();
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = node['x-kubernetes-embedded-resource'] === true;
  if (names.length > 0 || topKind) {
    const p: Json = {};
    for (const k of names) p[k] = toJsonSchema(props[k], false, keepPattern);
    if (topKind || embedded) {
      p.apiVersion ??= { type: 'string' };
      p.kind ??= { type: 'string' };
    }
    out.properties = p;
  }
  if (Array.isArray(node.required) && node.required.length > 0) out.required = [...(node.required as string[])].sort();
  const ap = node.additionalProperties;
  if (isObject(ap)) out.additionalProperties = toJsonSchema(ap, false, keepPattern);
  else if (names.length > 0 && ap === undefined && !preserve && !embedded) out.additionalProperties = false;
  for (const comb of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[comb];
    if (Array.isArray(list) && list.length > 0) out[comb] = list.filter(isObject).map((s) => toJsonSchema(s, false, keepPattern));
  }
  if (isObject(node.not)) out.not = toJsonSchema(node.not, false, keepPattern);
  if (node.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/** The JSON Schema of a named schema (Quantity accepts a number or a quantity string). */
export function namedJsonSchema(name: string, schema: OpenAPISchema, isKind: boolean, keepPattern: PatternCheck = patternOk): Json {
  if (name === QUANTITY) return { type: ['string', 'number'], format: 'quantity' };
  return toJsonSchema(schema, isKind, keepPattern);
}

/** Field-path shape of a schema: only the parts that lead to lists and maps. */
export function shapeOf(node: OpenAPISchema): Shape | string | undefined {
  const n = refName(node);
  if (n !== undefined) return n;
  const s: Shape = {};
  const props = properties(node);
  const p: Record<string, Shape | string> = {};
  for (const k of Object.keys(props).sort()) {
    const sub = shapeOf(props[k]);
    if (sub !== undefined) p[k] = sub;
  }
  if (Object.keys(p).length > 0) s.p = p;
  if (isObject(node.items)) {
    const a = shapeOf(node.items);
    s.a = a ?? {};
  }
  if (isObject(node.additionalProperties)) s.m = shapeOf(node.additionalProperties) ?? {};
  else if (node.additionalProperties === true || (Object.keys(props).length === 0 && schemaType(node) === 'object')) s.m = {};
  if (s.p === undefined && s.a === undefined && s.m === undefined) return undefined;
  return s;
}
