// Renders JSON values the way Go's fmt package prints the decoded
// map[string]interface{} / []interface{} values, so error messages carry
// kube-apiserver's exact texts (`map[name:a]`, `[a b]`, `<nil>`) and Go type
// names (`map[string]interface {}`, `[]interface {}`, `int64`). Boundary:
// formatting only.

/** The Go kinds JSON values decode to; strategic merge compares them to choose merge or replace. */
export type GoKind = 'map' | 'slice' | 'string' | 'bool' | 'int64' | 'float64' | 'nil';

/** Go's %v of a value decoded from JSON (ints kept as int64, as the apiserver decodes patches). */
export function goValue(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return '[' + v.map(goValue).join(' ') + ']';
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort();
    return 'map[' + keys.map((k) => `${k}:${goValue(o[k])}`).join(' ') + ']';
  }
  if (typeof v === 'number') return goNumber(v);
  return String(v);
}

function goNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  // Go prints a float64 with %g at shortest precision: exponent form when the
  // decimal exponent is below -4 or at least 6 (JSON integers stay int64).
  const [mant, expText] = n.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(n);
}

/** The Go type a JSON value decodes to, as reflect.Type prints it. */
export function goTypeName(v: unknown): string {
  if (v === null || v === undefined) return '%!s(<nil>)';
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'object': return 'map[string]interface {}';
    case 'string': return 'string';
    case 'boolean': return 'bool';
    case 'number': return Number.isInteger(v) ? 'int64' : 'float64';
    default: return typeof v;
  }
}

/** The reflect.Kind of a JSON value's Go type (used for type equality of list elements). */
export function goKind(v: unknown): GoKind {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  switch (typeof v) {
    case 'object': return 'map';
    case 'string': return 'string';
    case 'boolean': return 'bool';
    default: return Number.isInteger(v) ? 'int64' : 'float64';
  }
}

/** The JSON kind Go's encoding/json names in "cannot unmarshal X into ..." errors. */
export function jsonKindName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'object': return 'object';
    case 'boolean': return 'bool';
    default: return typeof v; // string, number
  }
}
