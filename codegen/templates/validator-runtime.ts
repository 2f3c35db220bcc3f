// Turns the errors of an ajv standalone validation function into
// SchemaIssues with Kubernetes field paths (`spec.containers[0].name`,
// `metadata.labels[app]`). Copied by codegen to generated/validators/runtime.ts;
// every generated validator module uses it. Imports only the contract types.
import type { SchemaIssue, SchemaIssueKind, SchemaValidator } from './api-types.ts';

/** The compiled function of ajv standalone code. */
export interface AjvFunction {
  (data: unknown): boolean;
  errors?: AjvError[] | null;
}

export interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/**
 * Shape of a schema, only as far as field paths need it: `p` the declared
 * fields, `a` the element of a list, `m` the values of a string-keyed map.
 * A string is the name of another shape in the table.
 */
export interface Shape {
  p?: Record<string, Shape | string>;
  a?: Shape | string;
  m?: Shape | string;
}

const KIND_OF_KEYWORD: Record<string, SchemaIssueKind> = {
  additionalProperties: 'unknown',
  type: 'type',
  required: 'required',
  enum: 'enum',
  const: 'enum',
  format: 'format',
  anyOf: 'type',
  oneOf: 'type',
  not: 'type',
};

/**
 * Adds a callee's errors to the caller's list in place (linear, where ajv's
 * own concat copies the list at every call). A first batch is copied so the
 * list never aliases the callee's own array.
 */
export function appendErrors(acc: AjvError[] | null, more: AjvError[] | null | undefined): AjvError[] | null {
  if (!more) return acc;
  if (acc === null) return more.slice();
  for (let i = 0; i < more.length; i++) acc.push(more[i]);
  return acc;
}

/** Drops null-valued object fields: JSON null reads as "absent", as kube-apiserver decodes it. */
export function dropNulls(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropNulls);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== null) out[k] = dropNulls(x);
    return out;
  }
  return v;
}

function unescapePointer(seg: string): string {
  return seg.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Kubernetes field path of an ajv instance path, walking the value and the shape table together. */
export function fieldPath(instancePath: string, value: unknown, root: string, shapes: Record<string, Shape>, extra?: string): string {
  const segs = instancePath === '' ? [] : instancePath.slice(1).split('/').map(unescapePointer);
  if (extra !== undefined) segs.push(extra);
  let out = '';
  let shape: Shape | undefined = shapes[root];
  let cur: unknown = value;
  const resolve = (s: Shape | string | undefined): Shape | undefined => (typeof s === 'string' ? shapes[s] : s);
  for (const seg of segs) {
    if (Array.isArray(cur)) {
      out += `[${seg}]`;
      shape = resolve(shape?.a);
      cur = cur[Number(seg)];
      continue;
    }
    if (shape?.p && Object.prototype.hasOwnProperty.call(shape.p, seg)) {
      out += out === '' ? seg : `.${seg}`;
      shape = resolve(shape.p[seg]);
    } else if (shape?.m !== undefined) {
      out += `[${seg}]`;
      shape = resolve(shape.m);
    } else {
      out += out === '' ? seg : `.${seg}`;
      shape = undefined;
    }
    cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[seg] : undefined;
  }
  return out;
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function valueAt(value: unknown, instancePath: string): unknown {
  let cur = value;
  if (instancePath === '') return cur;
  for (const seg of instancePath.slice(1).split('/').map(unescapePointer)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[seg];
  }
  return cur;
}

/** The allowed values of an enum error as upstream lists them: strings as they are, other values as JSON. */
function supportedValues(e: AjvError): string[] {
  const allowed = (e.params.allowedValues as unknown[] | undefined) ?? [];
  return allowed.map((a) => (typeof a === 'string' ? a : JSON.stringify(a)));
}

function message(e: AjvError, path: string, v: unknown, f: NonNullable<SchemaIssue['field']>): string {
  switch (e.keyword) {
    case 'additionalProperties': return `unknown field "${path}"`;
    case 'required': return 'Required value';
    case 'type': return `Invalid value: "${typeName(v)}": ${path} in body must be of type ${Array.isArray(e.params.type) ? (e.params.type as string[]).join('/') : String(e.params.type)}: "${typeName(v)}"`;
    case 'enum':
      return `Unsupported value: ${JSON.stringify(v)}: supported values: ${supportedValues(e).map((a) => JSON.stringify(a)).join(', ')}`;
  }
  if (f.type === 'TooLong') return `Too long: may not be more than ${f.max} bytes`;
  if (f.type === 'TooMany') return `Too many: ${f.actual}: must have at most ${f.max} items`;
  return `Invalid value: ${JSON.stringify(v)}: ${f.detail}`;
}

/**
 * The field error apiextensions makes of a bound or format failure (its
 * mapping of kube-openapi's validation errors): maxLength is TooLong,
 * maxItems and maxProperties TooMany, a format TypeInvalid, the other bounds
 * Invalid with kube-openapi's own text (`<path> in body should ...`).
 */
function fieldOf(e: AjvError, path: string, v: unknown): NonNullable<SchemaIssue['field']> {
  const limit = e.params.limit as number;
  const at = `${path} in body`;
  switch (e.keyword) {
    case 'maxLength': return { type: 'TooLong', max: limit };
    case 'maxItems': return { type: 'TooMany', actual: Array.isArray(v) ? v.length : -1, max: limit };
    case 'maxProperties': return { type: 'TooMany', actual: v !== null && typeof v === 'object' ? Object.keys(v).length : -1, max: limit };
    case 'format': return { type: 'TypeInvalid', detail: `${at} must be of type ${String(e.params.format)}: ${JSON.stringify(v)}` };
    case 'minLength': return { type: 'Invalid', detail: `${at} should be at least ${limit} chars long` };
    case 'pattern': return { type: 'Invalid', detail: `${at} should match '${String(e.params.pattern)}'` };
    case 'maximum': return { type: 'Invalid', detail: `${at} should be less than or equal to ${limit}` };
    case 'exclusiveMaximum': return { type: 'Invalid', detail: `${at} should be less than ${limit}` };
    case 'minimum': return { type: 'Invalid', detail: `${at} should be greater than or equal to ${limit}` };
    case 'exclusiveMinimum': return { type: 'Invalid', detail: `${at} should be greater than ${limit}` };
    case 'multipleOf': return { type: 'Invalid', detail: `${at} should be a multiple of ${String(e.params.multipleOf)}` };
    case 'minItems': return { type: 'Invalid', detail: `${at} should have at least ${limit} items` };
    case 'uniqueItems': return { type: 'Invalid', detail: `${at} shouldn't contain duplicates` };
    case 'minProperties': return { type: 'Invalid', detail: `${at} should have at least ${limit} properties` };
    default: return { type: 'Invalid', detail: `${at} ${e.message ?? `fails ${e.keyword}`}` };
  }
}

/** Wraps one compiled ajv function as a SchemaValidator for the named root schema. */
/**
 * Issues reported for one value at most. Each costs microseconds to place, and
 * a 3 MiB body can hold over a million failing items; no client reads more.
 */
export const MAX_SCHEMA_ISSUES = 1000;

export function wrap(fn: AjvFunction, root: string, shapes: Record<string, Shape>): SchemaValidator {
  return (input: unknown): SchemaIssue[] => {
    const value = dropNulls(input);
    if (fn(value)) return [];
    const seen = new Set<string>();
    const issues: SchemaIssue[] = [];
    for (const e of fn.errors ?? []) {
      // a body can fail on every one of a million list items: report the first ones only
      if (issues.length >= MAX_SCHEMA_ISSUES) break;
      // Errors inside anyOf/oneOf/not branches are summarised by the combinator's own error.
      if (/\/(anyOf|oneOf)\/\d+\/|\/not\//.test(e.schemaPath)) continue;
      const extra = e.keyword === 'additionalProperties' ? String(e.params.additionalProperty)
        : e.keyword === 'required' ? String(e.params.missingProperty) : undefined;
      const path = fieldPath(e.instancePath, value, root, shapes, extra);
      const kind = KIND_OF_KEYWORD[e.keyword] ?? 'bounds';
      const v = valueAt(value, e.instancePath);
      const field = fieldOf(e, path, v);
      const issue: SchemaIssue = { kind, path, message: message(e, path, v, field) };
      if (e.keyword === 'enum') issue.supported = supportedValues(e);
      else if (kind === 'bounds' || kind === 'format') issue.field = field;
      const key = `${issue.kind}\u0000${issue.path}\u0000${issue.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      issues.push(issue);
    }
    return issues;
  };
}
