// Path elements of a field path, as structured-merge-diff models them: a
// struct/map field name, the key fields of a list-type map element, the value
// of a list-type set element, or a list index. Each element has a canonical
// string (its fieldsV1 key: `f:name`, `k:{...}`, `v:...`, `i:0`) used both
// for equality and for serialisation, and a total order used for sorting.
// Boundary: no schema knowledge; values are plain JSON.
import { compareValues, goJSON, valueToString, type JSONValue, type Obj, isObj } from '../value/json.ts';

export type PathElement =
  | { kind: 'field'; name: string; id: string }
  /** Key fields sorted by name. */
  | { kind: 'key'; fields: [string, JSONValue][]; id: string }
  | { kind: 'value'; value: JSONValue; id: string }
  | { kind: 'index'; index: number; id: string };

export type Path = PathElement[];

const fieldCache = new Map<string, PathElement>();

export function fieldPE(name: string): PathElement {
  let pe = fieldCache.get(name);
  if (!pe) {
    pe = { kind: 'field', name, id: 'f:' + name };
    if (fieldCache.size < 100_000) fieldCache.set(name, pe);
  }
  return pe;
}

export function keyPE(fields: [string, JSONValue][]): PathElement {
  if (fields.length === 1) {
    const [k, v] = fields[0];
    return { kind: 'key', fields, id: 'k:{' + goJSON(k) + ':' + goJSON(v) + '}' };
  }
  const sorted = [...fields].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const obj: Obj = {};
  for (const [k, v] of sorted) obj[k] = v;
  return { kind: 'key', fields: sorted, id: 'k:' + goJSON(obj) };
}

export function valuePE(value: JSONValue): PathElement {
  return { kind: 'value', value, id: 'v:' + goJSON(value) };
}

export function indexPE(index: number): PathElement {
  return { kind: 'index', index, id: 'i:' + index };
}

const KIND_ORDER = { field: 0, key: 1, value: 2, index: 3 } as const;

/** Order of path elements: field names, then keys, then values, then indexes. */
export function comparePE(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] < KIND_ORDER[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field': {
      const bn = (b as { name: string }).name;
      return a.name < bn ? -1 : a.name > bn ? 1 : 0;
    }
    case 'key': {
      const bf = (b as { fields: [string, JSONValue][] }).fields;
      for (let i = 0; ; i++) {
        if (i >= a.fields.length && i >= bf.length) return 0;
        if (i >= a.fields.length) return -1;
        if (i >= bf.length) return 1;
        if (a.fields[i][0] !== bf[i][0]) return a.fields[i][0] < bf[i][0] ? -1 : 1;
        const c = compareValues(a.fields[i][1], bf[i][1]);
        if (c !== 0) return c;
      }
    }
    case 'value':
      return compareValues(a.value, (b as { value: JSONValue }).value);
    case 'index': {
      const bi = (b as { index: number }).index;
      return a.index < bi ? -1 : a.index > bi ? 1 : 0;
    }
  }
}

/** The element as it appears in a printed path: `.name`, `[name="x"]`, `[="v"]`, `[0]`. */
export function peToString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return '.' + pe.name;
    case 'key':
      return '[' + pe.fields.map(([k, v]) => `${k}=${valueToString(v)}`).join(',') + ']';
    case 'value':
      return `[=${valueToString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

export function pathToString(path: Path): string {
  return path.map(peToString).join('');
}

/** Parses a fieldsV1 key (`f:`, `k:`, `v:`, `i:`); throws on anything else. */
export function parsePE(s: string): PathElement {
  const prefix = s.slice(0, 2);
  const rest = s.slice(2);
  switch (prefix) {
    case 'f:':
      return fieldPE(rest);
    case 'k:': {
      let parsed: unknown;
      try {
        parsed = JSON.parse(rest);
      } catch {
        throw new Error(`invalid key path element ${JSON.stringify(s)}`);
      }
      if (!isObj(parsed)) throw new Error(`invalid key path element ${JSON.stringify(s)}: not an object`);
      return keyPE(Object.entries(parsed));
    }
    case 'v:': {
      try {
        return valuePE(JSON.parse(rest) as JSONValue);
      } catch {
        throw new Error(`invalid value path element ${JSON.stringify(s)}`);
      }
    }
    case 'i:': {
      if (!/^(0|[1-9][0-9]*)$/.test(rest)) throw new Error(`invalid index path element ${JSON.stringify(s)}`);
      return indexPE(Number(rest));
    }
    default:
      throw new Error(`unknown path element ${JSON.stringify(s)}`);
  }
}

/** Builds a path from a dotted string of field names (`spec.replicas`, `.status`). */
export function fieldPath(dotted: string): Path {
  return dotted
    .replace(/^\./, '')
    .split('.')
    .filter((p) => p !== '')
    .map(fieldPE);
}
