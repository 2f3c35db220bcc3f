// JSON value helpers for server-side apply: type guards, the total order structured-merge-diff defines over values, Go-compatible JSON
// text (for fieldsV1 keys) and the human-readable form used in field paths.
// Boundary: pure functions over plain JSON data; knows nothing of schemas.
import type { JSONValue } from '../../../generated/api-types.ts';

export type { JSONValue };
export type Obj = { [k: string]: JSONValue };

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Rank of a value's type in the order: numbers, strings, booleans, lists, maps, null. */
function rank(v: JSONValue): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  if (typeof v === 'boolean') return 2;
  if (Array.isArray(v)) return 3;
  if (v !== null && typeof v === 'object') return 4;
  return 5;
}

function cmpPrim<T extends string | number>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Total order over JSON values (the one structured-merge-diff sorts set elements by). */
export function compareValues(a: JSONValue, b: JSONValue): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return cmpPrim(a as number, b as number);
    case 1:
      return cmpPrim(a as string, b as string);
    case 2:
      return a === b ? 0 : a === false ? -1 : 1;
    case 3: {
      const la = a as JSONValue[];
      const lb = b as JSONValue[];
      for (let i = 0; i < la.length && i < lb.length; i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return cmpPrim(la.length, lb.length);
    }
    case 4: {
      const ka = Object.keys(a as Obj).sort();
      const kb = Object.keys(b as Obj).sort();
      for (let i = 0; i < ka.length && i < kb.length; i++) {
        const c = cmpPrim(ka[i], kb[i]);
        if (c !== 0) return c;
        const cv = compareValues((a as Obj)[ka[i]], (b as Obj)[kb[i]]);
        if (cv !== 0) return cv;
      }
      return cmpPrim(ka.length, kb.length);
    }
    default:
      return 0;
  }
}

// Go's encoding/json escapes <, > and & (HTML-safe) and the JS line separators.
const GO_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

function goString(s: string): string {
  return JSON.stringify(s).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]);
}

/** JSON text as Go's encoder writes it: map keys sorted, HTML characters escaped, no spaces. */
export function goJSON(v: JSONValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  if (Array.isArray(v)) return '[' + v.map(goJSON).join(',') + ']';
  const keys = Object.keys(v).sort();
  return '{' + keys.map((k) => goString(k) + ':' + goJSON(v[k])).join(',') + '}';
}

/** Human-readable form of a value in a field path: strings quoted, others as written. */
export function valueToString(v: JSONValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return '[' + v.map(valueToString).join(',') + ']';
  return Object.keys(v)
    .map((k) => `${k}=${valueToString(v[k])}`)
    .join('');
}

/** Deep copy of a JSON value (structuredClone is slower for small trees). */
export function clone<T extends JSONValue>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(clone) as T;
  const out: Obj = {};
  for (const k of Object.keys(v)) out[k] = clone((v as Obj)[k]);
  return out as T;
}
