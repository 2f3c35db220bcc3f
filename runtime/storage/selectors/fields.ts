// Field selectors: the `?fieldSelector=` syntax (`f=v`, `f==v`, `f!=v`,
// comma-joined, `\` escapes for `\`, `,` and `=` in values) parsed into a
// matcher that satisfies Predicate['field']. Optionally checks the fields
// against the ones a resource supports. Errors are SelectorError with
// kube-apiserver's texts. No knowledge of objects or storage.
import { SelectorError } from './labels.ts';

export { SelectorError };

export interface FieldTerm {
  field: string;
  op: '=' | '!=';
  value: string;
}

export interface FieldSelector {
  terms: FieldTerm[];
  matches(fields: Record<string, string>): boolean;
  empty(): boolean;
  /** The value the selector requires for a field (an `=` term), if any. */
  requiresExactMatch(field: string): string | undefined;
  toString(): string;
}

/** Splits on commas that are not escaped. */
function splitTerms(s: string): string[] {
  if (s === '') return [];
  const out: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < s.length; i++) {
    if (escaped) {
      escaped = false;
      continue;
    }
    if (s[i] === '\\') escaped = true;
    else if (s[i] === ',') {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out;
}

function splitTerm(term: string): [string, string, string] | null {
  let escaped = false;
  for (let i = 0; i < term.length; i++) {
    if (escaped) {
      escaped = false;
      continue;
    }
    if (term[i] === '\\') {
      escaped = true;
      continue;
    }
    for (const op of ['!=', '==', '=']) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return null;
}

export function unescapeValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw new SelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=') throw new SelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

export function escapeValue(s: string): string {
  return s.replace(/[\\,=]/g, (c) => '\\' + c);
}

export function makeFieldSelector(terms: FieldTerm[]): FieldSelector {
  return {
    terms,
    matches: (fields) => terms.every((t) => ((fields[t.field] ?? '') === t.value) === (t.op === '=')),
    empty: () => terms.length === 0,
    requiresExactMatch: (f) => terms.find((t) => t.field === f && t.op === '=')?.value,
    toString: () => terms.map((t) => `${t.field}${t.op}${escapeValue(t.value)}`).join(','),
  };
}

/**
 * Parses a field selector; with `supportedFields`, a field outside the list
 * fails with `field label not supported: <field>`.
 */
export function parseFieldSelector(text: string, supportedFields?: readonly string[]): FieldSelector {
  const parts = splitTerms(text).sort();
  const terms: FieldTerm[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (!split) throw new SelectorError(`invalid selector: '${text}'; can't understand '${part}'`);
    const [field, op, rhs] = split;
    const value = unescapeValue(rhs);
    terms.push({ field, op: op === '!=' ? '!=' : '=', value });
  }
  if (supportedFields) {
    for (const t of terms) {
      if (!supportedFields.includes(t.field)) throw new SelectorError(`field label not supported: ${t.field}`);
    }
  }
  return makeFieldSelector(terms);
}
