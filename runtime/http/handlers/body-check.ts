// What happens to a request body between decoding and the store: apiVersion
// and kind checked against the endpoint, nulls dropped, spec defaults
// applied, the generated schema validator run with fieldValidation (unknown
// fields warned about or refused, then dropped), and the field-path helpers
// these need.

import type { SchemaIssue } from '../../../generated/api-types.ts';
import { fieldErrors } from '../../api/field-errors.ts';
import type { Obj } from '../../storage/interface.ts';
import { errors } from '../../api/errors.ts';
import { goQuote } from '../../api/go-format.ts';
import { type RequestContext, groupVersion } from './context.ts';
import { fieldValidation } from './params.ts';

/**
 * Checks apiVersion and kind of a request body against the endpoint (filling
 * them when absent), then runs the generated schema validator: wrong types
 * are 400, unknown and duplicate fields follow fieldValidation, and
 * required/enum/bounds/format problems are 422 Invalid.
 */
export async function checkBody(rc: RequestContext, obj: Obj, duplicates: string[], opts: { defaults?: boolean } = {}): Promise<void> {
  const expectedKind = rc.res.def.kind;
  const schema = rc.res.def.schema;
  const gv = groupVersion(rc);
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
  // field paths quoted as Go's %q does (control characters escaped, printable Unicode kept)
  const unknown = issues.filter((i) => i.kind === 'unknown').map((i) => `unknown field ${goQuote(i.path)}`);
  const dup = duplicates.map((p) => `duplicate field ${goQuote(p)}`);
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
