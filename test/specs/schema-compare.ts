// Compares our api-specs schemas with the upstream reference swagger, type by
// type, walking both in parallel from a set of root names. Only facts are
// compared (type, format, $ref target, items, additionalProperties, required,
// enum, x-kubernetes-* markers, the set of properties); descriptions and
// v3-only decorations (`default`, an `allOf` holding a single $ref) are not.
// Test helper only: it reads plain JSON and knows nothing of codegen.

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Schema = { [k: string]: Json };

export interface CompareResult {
  types: number;
  fields: number;
  mismatches: string[];
}

/** Keys that carry facts; everything else in our schemas is an extra (a mismatch). */
const FACT_KEYS = new Set(['type', 'format', '$ref', 'items', 'additionalProperties', 'required', 'enum', 'properties']);
/** Keys our schemas may carry that have no counterpart to compare. */
const IGNORED_KEYS = new Set(['description', 'default', 'allOf']);

const refName = (ref: string) => ref.replace('#/components/schemas/', '').replace('#/definitions/', '');

/** Unwraps `allOf: [{$ref}]` into a plain `$ref` beside the other keys. */
export function normalise(schema: Schema): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'allOf') {
      const parts = v as Schema[];
      if (parts.length === 1 && typeof parts[0].$ref === 'string') out.$ref = parts[0].$ref;
      else out.allOf = v;
    } else out[k] = v;
  }
  return out;
}

const show = (v: Json | undefined) => (v === undefined ? '(absent)' : JSON.stringify(v));

function sameJson(a: Json | undefined, b: Json | undefined): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Walks `roots` in both schema sets. `ours` and `theirs` map schema names to
 * schemas. Every mismatch is reported with a dotted path starting at its type.
 */
export function compareSchemas(ours: Record<string, Schema>, theirs: Record<string, Schema>, roots: Iterable<string>): CompareResult {
  const result: CompareResult = { types: 0, fields: 0, mismatches: [] };
  const queue = [...roots];
  const done = new Set<string>();
  const miss = (path: string, what: string) => result.mismatches.push(`${path}: ${what}`);

  const node = (path: string, oursRaw: Schema | undefined, theirsRaw: Schema | undefined): void => {
    if (!theirsRaw) {
      if (oursRaw) miss(path, 'not in the reference (extra)');
      return;
    }
    if (!oursRaw) {
      miss(path, 'missing');
      return;
    }
    const o = normalise(oursRaw);
    const t = theirsRaw;
    for (const k of Object.keys(o)) {
      if (IGNORED_KEYS.has(k) && k !== 'allOf') continue;
      if (k === 'allOf') {
        miss(path, `allOf other than one $ref: ${show(o[k])}`);
        continue;
      }
      if (!FACT_KEYS.has(k) && !k.startsWith('x-kubernetes-')) miss(path, `unexpected key ${k}`);
    }
    for (const k of new Set([...Object.keys(o), ...Object.keys(t)])) {
      if (k === 'description' || k === 'default' || k === 'allOf' || k === 'properties' || k === 'items' || k === 'additionalProperties') continue;
      if (k === '$ref') {
        const a = typeof o.$ref === 'string' ? refName(o.$ref) : undefined;
        const b = typeof t.$ref === 'string' ? refName(t.$ref) : undefined;
        if (a !== b) miss(path, `$ref ${show(a)} != reference ${show(b)}`);
        else if (a && !done.has(a)) queue.push(a);
        continue;
      }
      if (k === 'required') {
        const a = [...((o.required as string[]) ?? [])].sort();
        const b = [...((t.required as string[]) ?? [])].sort();
        if (!sameJson(a, b)) miss(path, `required ${show(a)} != reference ${show(b)}`);
        continue;
      }
      if (!(k === 'type' || k === 'format' || k === 'enum' || k.startsWith('x-kubernetes-'))) continue;
      if (!sameJson(o[k], t[k])) miss(path, `${k} ${show(o[k])} != reference ${show(t[k])}`);
    }
    for (const k of ['items', 'additionalProperties'] as const) {
      const a = o[k];
      const b = t[k];
      if (typeof a === 'boolean' || typeof b === 'boolean') {
        if (a !== b) miss(`${path}.${k}`, `${show(a)} != reference ${show(b)}`);
      } else if (a !== undefined || b !== undefined) node(`${path}[${k}]`, a as Schema | undefined, b as Schema | undefined);
    }
    const op = (o.properties ?? {}) as Record<string, Schema>;
    const tp = (t.properties ?? {}) as Record<string, Schema>;
    for (const name of new Set([...Object.keys(op), ...Object.keys(tp)])) {
      result.fields++;
      node(`${path}.${name}`, op[name], tp[name]);
    }
  };

  while (queue.length) {
    const name = queue.shift()!;
    if (done.has(name)) continue;
    done.add(name);
    result.types++;
    if (!theirs[name]) {
      miss(name, 'type not in the reference');
      continue;
    }
    if (!ours[name]) {
      miss(name, 'type missing from api-specs');
      continue;
    }
    node(name, ours[name], theirs[name]);
  }
  return result;
}
