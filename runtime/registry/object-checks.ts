// The object checks of a write, before it reaches the registry store's
// pipeline: nulls dropped (JSON null means unset), spec defaults applied,
// and the generated schema validator run. Wrong types are 400 (422 for a
// custom resource, decoded into unstructured as upstream), as is a built-in
// version whose round-trip annotation (autoscaling/v1's metrics, ...) is not
// JSON (its conversion to the hub fails as upstream's unmarshal), unknown and
// duplicate fields follow fieldValidation (warned about, refused, or
// ignored; then dropped), required/enum/bounds/format problems are 422
// Invalid, except that a built-in kind's required field its strategy
// checks itself (Strategy.reportsRequired) is left to the strategy, whose
// text is upstream's; an apply configuration is partial, so what is required
// is asked of the object it merges into (checkRequired). Used for request bodies (checkRequestObject: also apiVersion and
// kind against the endpoint), for patched objects and apply configurations
// (the store's patch and apply), and for what in-process writers store (the
// store's writer option). Also the field-path helpers these need.

import type { ResourceDef, SchemaIssue, SchemaValidator } from '../../generated/api-types.ts';
import { fieldErrors } from '../api/field-errors.ts';
import type { Obj } from '../storage/interface.ts';
import { errors } from '../api/errors.ts';
import { goQuote, goSyntax, GoValue } from '../api/go-format.ts';
import type { EmbeddedResources } from '../schema/embedded-resources.ts';
import { groupVersion } from '../api/keys.ts';
import type { Defaulter } from './defaults.ts';
import { keptAnnotationError } from './conversion/declared.ts';

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** What the checks need: the defaulter and the generated validator of a schema. */
export interface ObjectCheckServices {
  defaulter: Defaulter;
  validator(schema: string): Promise<SchemaValidator | undefined>;
  /** The embedded resources of a custom resource version's schema (undefined: none). */
  embedded?(schema: string): EmbeddedResources | undefined;
}

/**
 * Loaded validators by generated directory and schema, shared by every
 * server of the process: loading one is a dynamic import, which costs a
 * round trip through the module loader even when the module is loaded.
 */
const validatorCaches = new Map<string, Map<string, Promise<SchemaValidator>>>();

/** The process's cache of loaded validators of one generated directory. */
export function sharedValidatorCache(dir: string): Map<string, Promise<SchemaValidator>> {
  let cache = validatorCaches.get(dir);
  if (!cache) validatorCaches.set(dir, (cache = new Map()));
  return cache;
}

/**
 * Drops nulls, applies defaults (unless `defaults` is false) and runs the
 * schema validator of `def`'s version on `obj`; adds the warnings of
 * fieldValidation Warn to `warnings` (before any refusal, so a 422 carries
 * them too) and throws the 400 or 422 ApiError of a refusal.
 */
export async function checkObject(
  services: ObjectCheckServices,
  def: ResourceDef,
  obj: Obj,
  opts: {
    fieldValidation: FieldValidation;
    duplicates?: string[];
    defaults?: boolean;
    /** False: required fields are not asked (a partial object, see checkRequired). */
    required?: boolean;
    warnings?: string[];
    /** The strategy's Strategy.reportsRequired: absent fields it reports itself with its own text. */
    reportsRequired?: ReadonlySet<string>;
  },
): Promise<void> {
  const schema = def.schema;
  const kind = def.kind;
  const duplicates = opts.duplicates ?? [];
  // a custom resource: nulls and defaults as its structural schema says (nullable nulls kept)
  const structural = opts.defaults !== false ? services.defaulter.structural(schema) : undefined;
  if (structural) structural.apply(obj);
  else {
    dropNulls(obj);
    if (opts.defaults !== false) services.defaulter.apply(schema, obj);
  }
  // embedded resources: decoded as upstream's request decode coerces them (a wrong type is 400)
  const embeddedUnknown: string[] = [];
  const embedded = def.custom ? services.embedded?.(schema) : undefined;
  const coercion = embedded?.coerce(obj, embeddedUnknown);
  if (coercion) {
    const value = coercion.value !== null && typeof coercion.value === 'object' ? new GoValue(goSyntax(coercion.value)) : coercion.value;
    throw errors.badRequest(`${kind} in version "${def.version}" cannot be handled as a ${kind}: ${fieldErrors.invalid(coercion.path, value, coercion.detail).toString()}`);
  }
  const mode = opts.fieldValidation;
  const validator = await services.validator(schema);
  const issues: SchemaIssue[] = validator ? validator(obj) : [];
  // a built-in kind's wrong type fails its typed decode (400); a custom resource decodes into
  // unstructured, so its schema reports the wrong type with the other failures (422 TypeInvalid)
  const typeIssues = def.custom ? [] : issues.filter((i) => i.kind === 'type');
  if (typeIssues.length) {
    throw errors.badRequest(`${kind} in version "${def.version}" cannot be handled as a ${kind}: ${typeIssues.map((i) => `${i.path}: ${i.message}`).join(', ')}`);
  }
  // a built-in kind's version whose round-trip annotation is not JSON fails its conversion to the hub (400)
  const notJSON = def.custom ? undefined : keptAnnotationError(obj, def.conversion);
  if (notJSON !== undefined) throw errors.badRequest(`${kind} in version "${def.version}" cannot be handled as a ${kind}: ${notJSON}`);
  // field paths quoted as Go's %q does (control characters escaped, printable Unicode kept)
  const unknown = [...issues.filter((i) => i.kind === 'unknown').map((i) => i.path), ...embeddedUnknown.sort()].map((p) => `unknown field ${goQuote(p)}`);
  const dup = duplicates.map((p) => `duplicate field ${goQuote(p)}`);
  const strictProblems = [...unknown, ...dup];
  if (strictProblems.length && mode === 'Strict') {
    throw errors.badRequest(`${kind} in version "${def.version}" cannot be handled as a ${kind}: strict decoding error: ${strictProblems.join(', ')}`);
  }
  if (strictProblems.length && mode === 'Warn') opts.warnings?.push(...strictProblems);
  // unknown fields are dropped, as decoding into the typed object drops them upstream
  for (const i of issues) if (i.kind === 'unknown') deleteAt(obj, i.path);
  // Built-in kinds: a field required by the schema may be absent from status (Go decodes it as
  // its zero value); their status is checked by the resource's strategy instead.
  // Built-in kinds: a required field the strategy checks itself is left to it (its text, as upstream's).
  // An apply configuration is a partial object: what is required is asked of the merged object (checkRequired).
  const invalid = issues.filter((i) => (i.kind !== 'type' || def.custom) && i.kind !== 'unknown' && (i.kind !== 'required' || (opts.required !== false && requiredHere(def, i, opts.reportsRequired))));
  if (invalid.length) {
    // a custom resource's list or map value prints as Go prints the unstructured value (%#v)
    const value = (path: string) => {
      const v = valueAt(obj, path);
      return def.custom && v !== null && typeof v === 'object' ? new GoValue(goSyntax(v)) : v;
    };
    const errs = invalid.map((i) => {
      if (i.kind === 'required') return fieldErrors.required(i.path, '');
      if (i.kind === 'type') {
        // kube-openapi's invalid type: the value is the name of the type sent
        const m = /^Invalid value: "([^"]*)": ([\s\S]*)$/.exec(i.message);
        return m ? fieldErrors.typeInvalid(i.path, m[1], m[2]) : fieldErrors.typeInvalid(i.path, value(i.path), i.message);
      }
      if (i.supported) return fieldErrors.notSupported(i.path, value(i.path), i.supported);
      const f = i.field;
      if (f?.type === 'TooLong') return fieldErrors.tooLong(i.path, f.max);
      if (f?.type === 'TooMany') return fieldErrors.tooMany(i.path, f.actual, f.max);
      if (f?.type === 'TypeInvalid') return fieldErrors.typeInvalid(i.path, value(i.path), f.detail);
      if (f) return fieldErrors.invalid(i.path, value(i.path), f.detail);
      return fieldErrors.invalid(i.path, value(i.path), i.message);
    });
    throw errors.invalid({ group: def.group, kind }, obj.metadata?.name ?? '', errs);
  }
}

/** Whether a required-field issue is this check's: not a built-in kind's status, nor a field its strategy reports itself. */
function requiredHere(def: ResourceDef, issue: SchemaIssue, reportsRequired: ReadonlySet<string> | undefined): boolean {
  if (def.custom) return true;
  return !(issue.path === 'status' || issue.path.startsWith('status.') || reportsRequired?.has(anyIndex(issue.path)));
}

/**
 * The fields the schema of `def` requires, asked of a whole object whose
 * parts were checked without them (an apply's merged object): 422 Invalid
 * naming the absent ones.
 */
export async function checkRequired(services: ObjectCheckServices, def: ResourceDef, obj: Obj, reportsRequired?: ReadonlySet<string>): Promise<void> {
  const validator = await services.validator(def.schema);
  if (!validator) return;
  const missing = validator(obj).filter((i) => i.kind === 'required' && requiredHere(def, i, reportsRequired));
  if (missing.length) {
    throw errors.invalid(
      { group: def.group, kind: def.kind },
      obj.metadata?.name ?? '',
      missing.map((i) => fieldErrors.required(i.path, '')),
    );
  }
}

/** A field path with every list index written `[*]` (`webhooks[0].name` → `webhooks[*].name`), as Strategy.reportsRequired lists them. */
export function anyIndex(path: string): string {
  return path.replace(/\[\d+\]/g, '[*]');
}

/** How a request's object is checked: the request's fieldValidation and the duplicate fields of its body. */
export interface RequestCheck {
  fieldValidation: FieldValidation;
  duplicates?: string[];
  /** False for an apply configuration, merged as sent (defaults would make the applier own them). */
  defaults?: boolean;
  /** False for an apply configuration, a partial object: checkRequired asks the merged object. */
  required?: boolean;
  warnings?: string[];
  /** The strategy's Strategy.reportsRequired. */
  reportsRequired?: ReadonlySet<string>;
}

/**
 * A request's object for the endpoint of `def` (the version the client
 * speaks): apiVersion and kind must be the endpoint's (filled when absent),
 * then checkObject.
 */
export async function checkRequestObject(services: ObjectCheckServices, def: ResourceDef, obj: Obj, check: RequestCheck): Promise<void> {
  const gv = groupVersion(def.group, def.version);
  const kind = def.kind;
  if (obj.apiVersion === undefined || obj.apiVersion === '') obj.apiVersion = gv;
  if (obj.kind === undefined || obj.kind === '') obj.kind = kind;
  if (obj.apiVersion !== gv) {
    throw errors.badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${gv})`);
  }
  if (obj.kind !== kind) {
    throw errors.badRequest(`${String(obj.kind)} in version "${def.version}" cannot be handled as a ${kind}: the kind in the data (${String(obj.kind)}) does not match the expected kind (${kind})`);
  }
  await checkObject(services, def, obj, check);
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
  let cur: unknown = obj;
  let i = 0;
  while (cur != null && typeof cur === 'object' && i < segs.length) {
    let j = i;
    let key = segs[i];
    while (!(key in cur) && j + 1 < segs.length) key = `${key}.${segs[++j]}`;
    if (!(key in cur)) return;
    if (j === segs.length - 1) {
      if (!Array.isArray(cur)) delete (cur as Obj)[key];
      return;
    }
    cur = (cur as Obj)[key];
    i = j + 1;
  }
}

/** Reads a value by Kubernetes field path (`spec.ports[0].port`, `metadata.labels[app]`). */
export function valueAt(obj: unknown, path: string): unknown {
  let cur: unknown = obj;
  const re = /([^.[\]]+)|\[([^\]]*)\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path)) && cur != null) {
    const k = m[1] ?? m[2];
    if (typeof cur !== 'object') return undefined;
    cur = Array.isArray(cur) && /^\d+$/.test(k) ? cur[Number(k)] : (cur as Obj)[k];
  }
  return cur;
}
