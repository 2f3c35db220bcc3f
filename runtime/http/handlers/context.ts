// What every verb handler receives: the request, what it is about, the
// served resource, and helpers shared by the handlers (query options,
// negotiation, object checks, schema validation with fieldValidation).

import type { Context } from 'hono';
import type { MergeSchema, SchemaIssue, SchemaValidator } from '../../../generated/api-types.ts';
import type { ServedResource } from '../../server/api-index.ts';
import type { Obj, Predicate } from '../../storage/interface.ts';
import type { CellFormatter, IncludeObject } from '../../table/convert.ts';
import { parseFieldSelector, SelectorError } from '../../storage/selectors/fields.ts';
import { parseLabelSelector } from '../../storage/selectors/labels.ts';
import { negotiateObject, type Negotiated } from '../negotiate.ts';
import { encodeBody, send, sendBytes } from '../respond.ts';
import type { RequestInfo } from '../request-info.ts';
import { errors } from '../status.ts';
import { fieldErrors } from '../../registry/field-errors.ts';
import type { UserInfo } from '../../auth/user.ts';
import type { AdmissionChain } from '../../admission/chain.ts';
import type { ManagedFieldsHook } from '../managed-fields.ts';
import type { Defaulter } from '../../registry/defaults.ts';
import type { ProtobufSupport } from '../protobuf.ts';

export interface ServerServices {
  validator(schema: string): Promise<SchemaValidator | undefined>;
  formatters: Record<string, CellFormatter>;
  mergeSchema: MergeSchema;
  /** Applies the spec's declared defaults. */
  defaulter: Defaulter;
  admission: AdmissionChain;
  managedFields: ManagedFieldsHook;
  /** Longest a watch may stay open when the client gives no timeout (seconds); jittered up to twice. */
  minRequestTimeoutSeconds: number;
  /** Which kinds have a protobuf form, and the codec. */
  protobuf: ProtobufSupport;
}

export interface RequestContext {
  c: Context;
  info: RequestInfo;
  query: URLSearchParams;
  res: ServedResource;
  user: UserInfo;
  services: ServerServices;
  warnings: string[];
}

export function pretty(rc: RequestContext): boolean {
  const p = rc.query.get('pretty');
  if (p === 'true' || p === '1') return true;
  if (p === 'false' || p === '0') return false;
  return /\b(curl|Wget)\//.test(rc.c.req.header('user-agent') ?? '');
}

export function apiVersionOfDef(rc: RequestContext): string {
  const d = rc.res.def;
  return d.group ? `${d.group}/${d.version}` : d.version;
}

export function negotiate(rc: RequestContext, list: boolean): Negotiated {
  const d = rc.res.def;
  return negotiateObject(rc.c.req.header('accept'), {
    protobuf: rc.services.protobuf.supports(apiVersionOfDef(rc), list ? d.listKind : d.kind), allowTransforms: true, list,
  });
}

/** The protobuf decoder for request bodies of this resource, when its kind has a protobuf form. */
export function bodyProtobuf(rc: RequestContext): ProtobufSupport | undefined {
  return rc.services.protobuf.supports(apiVersionOfDef(rc), rc.res.def.kind) ? rc.services.protobuf : undefined;
}

/** Writes an object or list in the negotiated form (JSON, YAML, protobuf), Table conversions already applied. */
export async function sendNegotiated(rc: RequestContext, neg: Negotiated, value: unknown, status = 200): Promise<Response> {
  const opts = { status, acceptEncoding: rc.c.req.header('accept-encoding'), warnings: rc.warnings };
  if (neg.encoding === 'protobuf') {
    const codec = await rc.services.protobuf.codec();
    return sendBytes(codec.encode(value as Obj), neg.contentType, opts);
  }
  return send(encodeBody(value, neg.encoding, pretty(rc)), neg.contentType, opts);
}

export function includeObject(rc: RequestContext): IncludeObject {
  const v = rc.query.get('includeObject');
  if (v === 'None' || v === 'Object' || v === 'Metadata') return v;
  if (v) throw errors.badRequest(`unsupported includeObject value: ${v}`);
  return 'Metadata';
}

export function predicate(rc: RequestContext): Predicate {
  const p: Predicate = { attrs: rc.res.store.attrs };
  try {
    const ls = rc.query.get('labelSelector');
    if (ls) p.label = parseLabelSelector(ls);
    // a watch (or list) addressed to one object selects it by name
    const byName = rc.info.name ? `metadata.name=${rc.info.name}` : '';
    const given = rc.query.get('fieldSelector');
    const fs = [byName, given].filter(Boolean).join(',');
    if (fs) {
      p.field = parseFieldSelector(fs);
      const known = new Set(['metadata.name', ...(rc.res.def.namespaced ? ['metadata.namespace'] : []), ...rc.res.def.selectableFields]);
      for (const term of fs.split(',')) {
        const f = term.split(/!=|==|=/)[0].trim();
        if (f && !known.has(f)) throw errors.badRequest(`field label not supported: ${f}`);
      }
    }
  } catch (err) {
    if (err instanceof SelectorError) throw errors.badRequest(err.message);
    throw err;
  }
  return p;
}

export function intParam(rc: RequestContext, name: string): number | undefined {
  const v = rc.query.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw errors.badRequest(`invalid value for ${name}: ${v}`);
  return Number(v);
}

export function boolParam(rc: RequestContext, name: string): boolean | undefined {
  const v = rc.query.get(name);
  if (v === null || v === '') return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw errors.badRequest(`invalid value for ${name}: ${v}`);
}

export function dryRun(rc: RequestContext): boolean {
  const values = rc.query.getAll('dryRun');
  if (values.length === 0) return false;
  for (const v of values) {
    if (v !== 'All') {
      throw errors.badRequest(`Invalid dry run value: "${v}": supported values: "All"`);
    }
  }
  return true;
}

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

export function fieldValidation(rc: RequestContext): FieldValidation {
  const v = rc.query.get('fieldValidation');
  if (v === null || v === '') return 'Warn';
  if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
  throw errors.badRequest(`fieldValidation parameter unsupported: ${v}`);
}

export function apiVersionOf(rc: RequestContext): string {
  const d = rc.res.def;
  return d.group ? `${d.group}/${d.version}` : d.version;
}

/**
 * Checks apiVersion and kind of a request body against the endpoint (filling
 * them when absent), then runs the generated schema validator: wrong types
 * are 400, unknown and duplicate fields follow fieldValidation, and
 * required/enum/bounds/format problems are 422 Invalid.
 */
export async function checkBody(rc: RequestContext, obj: Obj, duplicates: string[], opts: { defaults?: boolean } = {}): Promise<void> {
  const expectedKind = rc.res.def.kind;
  const schema = rc.res.def.schema;
  const gv = apiVersionOf(rc);
  const kind = expectedKind;
  if (obj.apiVersion === undefined || obj.apiVersion === '') obj.apiVersion = gv;
  if (obj.kind === undefined || obj.kind === '') obj.kind = kind;
  if (obj.apiVersion !== gv) {
    throw errors.badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${gv})`);
  }
  if (obj.kind !== kind) {
    throw errors.badRequest(`${String(obj.kind)} in version "${rc.res.def.version}" cannot be handled as a ${kind}: the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind})`);
  }
  dropNulls(obj);
  if (opts.defaults !== false) rc.services.defaulter.apply(schema, obj);
  const mode = fieldValidation(rc);
  const validator = await rc.services.validator(schema);
  const issues: SchemaIssue[] = validator ? validator(obj) : [];
  const typeIssues = issues.filter((i) => i.kind === 'type');
  if (typeIssues.length) {
    throw errors.badRequest(`${kind} in version "${rc.res.def.version}" cannot be handled as a ${kind}: ${typeIssues.map((i) => `${i.path}: ${i.message}`).join(', ')}`);
  }
  const unknown = issues.filter((i) => i.kind === 'unknown').map((i) => `unknown field "${i.path}"`);
  const dup = duplicates.map((p) => `duplicate field "${p}"`);
  const strictProblems = [...unknown, ...dup];
  if (strictProblems.length && mode === 'Strict') {
    throw errors.badRequest(`${kind} in version "${rc.res.def.version}" cannot be handled as a ${kind}: strict decoding error: ${strictProblems.join(', ')}`);
  }
  if (strictProblems.length && mode === 'Warn') rc.warnings.push(...strictProblems);
  // unknown fields are dropped, as decoding into the typed object drops them upstream
  for (const i of issues) if (i.kind === 'unknown') deleteAt(obj, i.path);
  // Built-in kinds: a field required by the schema may be absent from status (Go decodes it as
  // its zero value); their status is checked by the resource's strategy instead.
  const invalid = issues.filter((i) => i.kind !== 'type' && i.kind !== 'unknown'
    && !(i.kind === 'required' && !rc.res.def.custom && (i.path === 'status' || i.path.startsWith('status.'))));
  if (invalid.length) {
    const errs = invalid.map((i) => {
      if (i.kind === 'required') return fieldErrors.required(i.path, '');
      return fieldErrors.invalid(i.path, valueAt(obj, i.path), i.message);
    });
    throw errors.invalid({ group: rc.res.def.group, kind }, obj.metadata?.name ?? '', errs);
  }
}

/** Removes null-valued fields: JSON null means "unset" for typed objects, as in Go decoding. */
export function dropNulls(v: unknown): void {
  if (Array.isArray(v)) {
    for (const x of v) if (x !== null && typeof x === 'object') dropNulls(x);
  } else if (v !== null && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (x === null) delete (v as Record<string, unknown>)[k];
      else if (typeof x === 'object') dropNulls(x);
    }
  }
}

/** Splits a field path into keys and indexes: `a.b[0].c`, `metadata.labels[app]`. */
function pathSegments(path: string): string[] {
  const out: string[] = [];
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path))) out.push(m[1] ?? m[2]);
  return out;
}

/** Deletes the field at a path; a key that itself contains dots is matched greedily. */
export function deleteAt(obj: unknown, path: string): void {
  const segs = pathSegments(path);
  let cur: any = obj;
  let i = 0;
  while (cur != null && typeof cur === 'object' && i < segs.length) {
    let j = i;
    let key = segs[i];
    while (!(key in cur) && j + 1 < segs.length) key = `${key}.${segs[++j]}`;
    if (!(key in cur)) return;
    if (j === segs.length - 1) {
      if (!Array.isArray(cur)) delete cur[key];
      return;
    }
    cur = cur[key];
    i = j + 1;
  }
}

/** Reads a value by Kubernetes field path (`spec.ports[0].port`, `metadata.labels[app]`). */
export function valueAt(obj: unknown, path: string): unknown {
  let cur: any = obj;
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path)) && cur != null) {
    const k = m[1] ?? m[2];
    cur = Array.isArray(cur) && /^\d+$/.test(k) ? cur[Number(k)] : cur[k];
  }
  return cur;
}
