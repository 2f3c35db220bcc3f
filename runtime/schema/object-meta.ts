// The decode of an embedded resource's `metadata` into ObjectMeta, as the
// apiextensions server decodes it (pkg/apiserver/schema/objectmeta): every
// field must have ObjectMeta's Go type (strings, int64s, RFC 3339 times,
// string maps and lists, owner references, managed fields entries); unknown
// fields are dropped and reported by path; the result is written back as Go
// encodes ObjectMeta (empty values omitted, times in UTC seconds). A field of
// the wrong type fails the decode with Go's encoding/json text, or, when
// malformed fields are to be dropped (objects read from storage), only that
// field is dropped. Pure: no I/O, no errors thrown.

type Json = Record<string, unknown>;

/** The Go type of each field of a struct ObjectMeta holds, by JSON name. */
type FieldType = 'string' | 'int64' | 'time' | 'stringMap' | 'stringList' | 'bool' | 'raw' | { list: StructType } | { struct: StructType };

interface StructType {
  /** Go's type name (the struct of an error's "Go struct field"). */
  name: string;
  fields: Record<string, FieldType>;
  /** Fields Go encodes even when empty (no omitempty). */
  always?: Set<string>;
}

const OWNER_REFERENCE: StructType = {
  name: 'OwnerReference',
  fields: { apiVersion: 'string', kind: 'string', name: 'string', uid: 'string', controller: 'bool', blockOwnerDeletion: 'bool' },
  always: new Set(['apiVersion', 'kind', 'name', 'uid']),
};

const MANAGED_FIELDS_ENTRY: StructType = {
  name: 'ManagedFieldsEntry',
  fields: { manager: 'string', operation: 'string', apiVersion: 'string', time: 'time', fieldsType: 'string', fieldsV1: 'raw', subresource: 'string' },
};

const OBJECT_META: StructType = {
  name: 'ObjectMeta',
  fields: {
    name: 'string',
    generateName: 'string',
    namespace: 'string',
    selfLink: 'string',
    uid: 'string',
    resourceVersion: 'string',
    generation: 'int64',
    creationTimestamp: 'time',
    deletionTimestamp: 'time',
    deletionGracePeriodSeconds: 'int64',
    labels: 'stringMap',
    annotations: 'stringMap',
    ownerReferences: { list: OWNER_REFERENCE },
    finalizers: 'stringList',
    managedFields: { list: MANAGED_FIELDS_ENTRY },
  },
};

/** The Go type names encoding/json prints for each field type. */
function goTypeOf(t: FieldType): string {
  if (typeof t === 'object') return 'list' in t ? `[]v1.${t.list.name}` : `v1.${t.struct.name}`;
  return { string: 'string', int64: 'int64', time: 'string', stringMap: 'map[string]string', stringList: '[]string', bool: 'bool', raw: 'json.RawMessage' }[t];
}

/** How encoding/json names a JSON value in "cannot unmarshal X into ...". */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'number') return Number.isInteger(v) ? 'number' : `number ${String(v)}`;
  if (typeof v === 'boolean') return 'bool';
  return 'string';
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** metav1.Time: an RFC 3339 time, encoded back in UTC with whole seconds; undefined when it does not parse. */
function goTime(s: string): string | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const ms = Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[8].toUpperCase()}`);
  if (Number.isNaN(ms)) return undefined;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A decode failure: encoding/json's message. */
class DecodeError {
  constructor(readonly message: string) {}
}

interface Ctx {
  /** JSON names from the top struct to the field being decoded (Go's error context). */
  stack: string[];
  /** The struct being decoded (its Go name). */
  struct: string;
  /** Unknown field paths, relative to metadata. */
  unknown: string[];
  /** The relative path of the value being decoded. */
  path: string;
  /** The first failure (encoding/json keeps decoding after a type mismatch and reports the first). */
  error?: DecodeError;
}

function mismatch(ctx: Ctx, v: unknown, goType: string): void {
  if (ctx.error) return;
  ctx.error = new DecodeError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field ${ctx.struct}.${ctx.stack.join('.')} of type ${goType}`);
}

/** Decodes one value of type t; undefined: leave the field unset (null, or a mismatch already recorded). */
function decodeValue(v: unknown, t: FieldType, ctx: Ctx): unknown {
  if (v === null) return undefined;
  if (typeof t === 'object') {
    if ('list' in t) {
      if (!Array.isArray(v)) return mismatch(ctx, v, goTypeOf(t));
      const base = ctx.path;
      return v.map((item, i) => {
        ctx.path = `${base}[${i}]`;
        const out = item === null ? encodeStruct({}, t.list) : decodeStruct(item, t.list, ctx);
        ctx.path = base;
        return out ?? {};
      });
    }
    return decodeStruct(v, t.struct, ctx);
  }
  switch (t) {
    case 'string':
      return typeof v === 'string' ? v : mismatch(ctx, v, 'string');
    case 'bool':
      return typeof v === 'boolean' ? v : mismatch(ctx, v, 'bool');
    case 'int64':
      return typeof v === 'number' && Number.isSafeInteger(v) ? v : mismatch(ctx, v, 'int64');
    case 'raw':
      return v;
    case 'time': {
      if (typeof v !== 'string') return mismatch(ctx, v, 'string');
      const time = goTime(v);
      if (time === undefined && !ctx.error) ctx.error = new DecodeError(`parsing time ${JSON.stringify(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(v)} as "2006"`);
      return time;
    }
    case 'stringMap': {
      if (typeof v !== 'object' || Array.isArray(v)) return mismatch(ctx, v, 'map[string]string');
      const out: Json = {};
      for (const [k, x] of Object.entries(v as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (x === null) out[k] = '';
        else if (typeof x === 'string') out[k] = x;
        else mismatch(ctx, x, 'string');
      }
      return out;
    }
    case 'stringList': {
      if (!Array.isArray(v)) return mismatch(ctx, v, '[]string');
      const out: string[] = [];
      for (const x of v) {
        if (x === null || typeof x === 'string') out.push(x ?? '');
        else mismatch(ctx, x, 'string');
      }
      return out;
    }
  }
}

function decodeStruct(v: unknown, t: StructType, ctx: Ctx): Json | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    mismatch(ctx, v, `v1.${t.name}`);
    return undefined;
  }
  const out: Json = {};
  const outer = ctx.struct;
  const base = ctx.path;
  for (const k of Object.keys(v).sort()) {
    const ft = t.fields[k];
    const p = base ? `${base}.${k}` : k;
    if (!ft) {
      ctx.unknown.push(p);
      continue;
    }
    ctx.struct = t.name;
    ctx.stack.push(k);
    ctx.path = p;
    const x = decodeValue((v as Json)[k], ft, ctx);
    ctx.stack.pop();
    ctx.path = base;
    if (x !== undefined) out[k] = x;
  }
  ctx.struct = outer;
  return encodeStruct(out, t);
}

/** Go's encoding of a decoded struct: omitempty fields left out when empty (false, 0, "", empty map or list). */
function encodeStruct(o: Json, t: StructType): Json {
  const out: Json = {};
  for (const k of Object.keys(t.fields)) {
    const x = o[k];
    const empty = x === undefined || x === '' || x === 0 || (Array.isArray(x) && x.length === 0) || (typeof x === 'object' && x !== null && !Array.isArray(x) && Object.keys(x).length === 0);
    // a pointer field (bool, deletionGracePeriodSeconds) keeps false and 0 when set
    const pointer = t.fields[k] === 'bool' || k === 'deletionGracePeriodSeconds';
    if (x === undefined) {
      if (t.always?.has(k)) out[k] = '';
      continue;
    }
    if (empty && !pointer && !t.always?.has(k)) continue;
    out[k] = x;
  }
  return out;
}

export interface DecodedObjectMeta {
  /** ObjectMeta as Go encodes it back (absent when the decode failed and malformed fields are not dropped). */
  meta?: Json;
  /** encoding/json's text of the first field of the wrong type (not set when dropping malformed fields). */
  error?: string;
  /** Paths of unknown fields below metadata, relative to it (`foo`, `ownerReferences[0].bar`), sorted. */
  unknown: string[];
}

/**
 * Decodes `md` (an embedded resource's metadata) into ObjectMeta. With
 * dropMalformed, a field that fails to decode is dropped on its own (and a
 * metadata that is not an object is left to the caller), as upstream's
 * storage decode drops invalid metadata; otherwise the first failure is the
 * answer.
 */
export function decodeObjectMeta(md: unknown, dropMalformed: boolean): DecodedObjectMeta {
  if (md === null) return { meta: {}, unknown: [] };
  if (typeof md !== 'object' || Array.isArray(md)) {
    return { error: `json: cannot unmarshal ${jsonKind(md)} into Go value of type v1.ObjectMeta`, unknown: [] };
  }
  const ctx: Ctx = { stack: [], struct: OBJECT_META.name, unknown: [], path: '' };
  const meta = decodeStruct(md, OBJECT_META, ctx) ?? {};
  const unknown = ctx.unknown.sort();
  if (!ctx.error) return { meta, unknown };
  if (!dropMalformed) return { error: ctx.error.message, unknown };
  // field by field: a field kept only when it decodes on its own
  const kept: Json = {};
  for (const k of Object.keys(md).sort()) {
    const ft = OBJECT_META.fields[k];
    if (!ft) continue;
    const one: Ctx = { stack: [k], struct: OBJECT_META.name, unknown: [], path: k };
    const x = decodeValue((md as Json)[k], ft, one);
    if (!one.error && x !== undefined) kept[k] = x;
  }
  return { meta: encodeStruct(kept, OBJECT_META), unknown };
}
