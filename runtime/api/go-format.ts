// Go-style value formatting, in one place, so error texts carry
// kube-apiserver's exact words: Go's %q (strconv.Quote); %v of values decoded
// from JSON (`map[name:a]`, `[a b]`, `<nil>`) with their Go type names
// (`map[string]interface {}`, `[]interface {}`, `int64`); the values field
// errors print (`[]string{"a"}`, `map[string]string{"a":"b"}`); and %#v
// literals of the structured values upstream prints there (a label selector,
// an IntOrString). Boundary: formatting only.

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
    case 'object':
      return 'map[string]interface {}';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) ? 'int64' : 'float64';
    default:
      return typeof v;
  }
}

/** The reflect.Kind of a JSON value's Go type (used for type equality of list elements). */
export function goKind(v: unknown): GoKind {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return 'slice';
  switch (typeof v) {
    case 'object':
      return 'map';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      return Number.isInteger(v) ? 'int64' : 'float64';
  }
}

/** The JSON kind Go's encoding/json names in "cannot unmarshal X into ..." errors. */
export function jsonKindName(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (v === null) return 'null';
  switch (typeof v) {
    case 'object':
      return 'object';
    case 'boolean':
      return 'bool';
    default:
      return typeof v; // string, number
  }
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const SIMPLE_ESCAPES: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v' };

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

/**
 * Go's strconv.Quote: printable characters as they are, `"` and `\`
 * backslash-escaped, others as \a \b \f \n \r \t \v, \xNN, \uNNNN or
 * \UNNNNNNNN. A lone surrogate (which Go's JSON decoder turns into U+FFFD)
 * is written as U+FFFD.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\ufffd';
    else if (cp === 0x20 || PRINTABLE.test(ch)) out += ch;
    else if (SIMPLE_ESCAPES[ch]) out += SIMPLE_ESCAPES[ch];
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x10000) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return `${out}"`;
}

/** A value printed verbatim in an error body: the Go literal upstream shows for a struct (`core.ServicePort{...}`). */
export class GoValue {
  constructor(readonly text: string) {}
}

/** Go's %#v of a list: `[]string{"a", "b"}`; numbers as int32 (ports, counts), booleans as bool. */
function goSlice(items: unknown[]): string | undefined {
  if (items.every((x) => typeof x === 'string')) return `[]string{${items.map((x) => goQuote(x as string)).join(', ')}}`;
  if (items.length && items.every((x) => typeof x === 'number' && Number.isInteger(x))) return `[]int32{${items.join(', ')}}`;
  if (items.length && items.every((x) => typeof x === 'boolean')) return `[]bool{${items.join(', ')}}`;
  return undefined;
}

/** Go's %#v of a map of strings (labels, selectors): keys sorted, `map[string]string{"a":"b"}`. */
function goStringMap(m: Record<string, unknown>): string | undefined {
  const entries = Object.entries(m);
  if (!entries.every(([, v]) => typeof v === 'string')) return undefined;
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[string]string{${entries.map(([k, v]) => `${goQuote(k)}:${goQuote(v as string)}`).join(', ')}}`;
}

/**
 * Formats a value the way upstream's error bodies print it: strings quoted,
 * numbers and booleans bare, a missing value as "null" (a string, as Go
 * prints a nil pointer there), lists and string maps as Go literals, a
 * GoValue verbatim. Other structures have no Go type here and print as JSON.
 */
export function formatValue(v: unknown): string {
  if (v instanceof GoValue) return v.text;
  if (typeof v === 'string') return goQuote(v);
  if (v === null || v === undefined) return '"null"';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return goSlice(v) ?? JSON.stringify(v);
  if (typeof v === 'object') return goStringMap(v as Record<string, unknown>) ?? JSON.stringify(v);
  return JSON.stringify(v);
}

// %#v literals of the structured values upstream prints in field errors.

const q = (s: unknown) => goQuote(String(s ?? ''));

function stringMap(m: Record<string, unknown> | undefined): string {
  if (!m || typeof m !== 'object') return 'map[string]string(nil)';
  const keys = Object.keys(m).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[string]string{${keys.map((k) => `${q(k)}:${q(m[k])}`).join(', ')}}`;
}

function stringSlice(l: unknown): string {
  if (!Array.isArray(l)) return '[]string(nil)';
  return `[]string{${l.map(q).join(', ')}}`;
}

/** A label selector's %#v (`v1.LabelSelector{MatchLabels:..., MatchExpressions:...}`); a missing one prints as "null". */
export function goLabelSelector(sel: unknown): GoValue {
  if (!sel || typeof sel !== 'object') return new GoValue('"null"');
  const { matchLabels, matchExpressions } = sel as { matchLabels?: Record<string, unknown>; matchExpressions?: unknown };
  const requirement = (e: { key?: unknown; operator?: unknown; values?: unknown } | null | undefined) =>
    `v1.LabelSelectorRequirement{Key:${q(e?.key)}, Operator:${q(e?.operator)}, Values:${stringSlice(e?.values)}}`;
  const exprs = Array.isArray(matchExpressions) ? `[]v1.LabelSelectorRequirement{${matchExpressions.map(requirement).join(', ')}}` : '[]v1.LabelSelectorRequirement(nil)';
  return new GoValue(`v1.LabelSelector{MatchLabels:${stringMap(matchLabels)}, MatchExpressions:${exprs}}`);
}

/** An IntOrString (a missing one prints as the zero value). */
export function goIntOrString(v: unknown): GoValue {
  if (typeof v === 'string') return new GoValue(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${q(v)}}`);
  return new GoValue(`intstr.IntOrString{Type:0, IntVal:${typeof v === 'number' ? v : 0}, StrVal:""}`);
}

/** Go's %#v of a value decoded from JSON into interface{} (`map[string]interface {}{"a":1}`), as a field error prints it. */
export function goSyntax(v: unknown): string {
  if (v === null || v === undefined) return 'interface {}(nil)';
  if (Array.isArray(v)) return `[]interface {}{${v.map(goSyntax).join(', ')}}`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goSyntax(o[k])}`).join(', ')}}`;
  }
  if (typeof v === 'string') return goQuote(v);
  if (typeof v === 'number') return goNumber(v);
  return String(v);
}
