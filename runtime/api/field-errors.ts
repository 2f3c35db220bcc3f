// Field errors: what validation finds wrong with one field, in the form
// kube-apiserver reports it (`spec.ports[0].port: Required value`), and the
// Status cause each becomes. The 422 Invalid error that lists them is built
// by errors.ts. Values print in Go's notation where upstream prints a
// Go value (`[]string{"10.1.0.5"}`, `map[string]string{"app":"d"}`).

export type FieldErrorType =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueDuplicate'
  | 'FieldValueNotFound'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'InternalError';

const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueRequired: 'Required value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueNotFound: 'Not found',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

/** Types whose text never shows the offending value. */
const OMIT_VALUE = new Set<FieldErrorType>(['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong', 'InternalError']);

const NO_VALUE = Symbol('no value');

/** A value printed verbatim in an error body: the Go literal upstream shows for a struct (`core.ServicePort{...}`). */
export class GoValue {
  constructor(readonly text: string) {}
}

function goString(s: string): string {
  return JSON.stringify(s);
}

/** Go's %#v of a list: `[]string{"a", "b"}`; numbers as int32 (ports, counts), booleans as bool. */
function goSlice(items: unknown[]): string | undefined {
  if (items.every((x) => typeof x === 'string')) return `[]string{${items.map((x) => goString(x as string)).join(', ')}}`;
  if (items.length && items.every((x) => typeof x === 'number' && Number.isInteger(x))) return `[]int32{${items.join(', ')}}`;
  if (items.length && items.every((x) => typeof x === 'boolean')) return `[]bool{${items.join(', ')}}`;
  return undefined;
}

/** Go's %#v of a map of strings (labels, selectors): keys sorted, `map[string]string{"a":"b"}`. */
function goStringMap(m: Record<string, unknown>): string | undefined {
  const entries = Object.entries(m);
  if (!entries.every(([, v]) => typeof v === 'string')) return undefined;
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[string]string{${entries.map(([k, v]) => `${goString(k)}:${goString(v as string)}`).join(', ')}}`;
}

/**
 * Formats a value the way upstream's error bodies print it: strings quoted,
 * numbers and booleans bare, a missing value as "null" (a string, as Go
 * prints a nil pointer there), lists and string maps as Go literals, a
 * GoValue verbatim. Other structures have no Go type here and print as JSON.
 */
export function formatValue(v: unknown): string {
  if (v instanceof GoValue) return v.text;
  if (typeof v === 'string') return goString(v);
  if (v === null || v === undefined) return '"null"';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return goSlice(v) ?? JSON.stringify(v);
  if (typeof v === 'object') return goStringMap(v as Record<string, unknown>) ?? JSON.stringify(v);
  return JSON.stringify(v);
}

export class FieldError {
  constructor(
    readonly type: FieldErrorType,
    readonly field: string,
    readonly value: unknown,
    readonly detail: string,
  ) {}

  body(): string {
    let s = TYPE_TEXT[this.type];
    if (!OMIT_VALUE.has(this.type) && this.value !== NO_VALUE) s += `: ${formatValue(this.value)}`;
    if (this.detail) s += `: ${this.detail}`;
    return s;
  }

  toString(): string {
    return this.field ? `${this.field}: ${this.body()}` : this.body();
  }

  cause(): { reason: string; message: string; field: string } {
    return { reason: this.type, message: this.body(), field: this.field };
  }
}

export const fieldErrors = {
  required: (field: string, detail = '') => new FieldError('FieldValueRequired', field, NO_VALUE, detail),
  invalid: (field: string, value: unknown, detail: string) => new FieldError('FieldValueInvalid', field, value, detail),
  notSupported: (field: string, value: unknown, supported: string[]) =>
    new FieldError('FieldValueNotSupported', field, value, supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : ''),
  forbidden: (field: string, detail: string) => new FieldError('FieldValueForbidden', field, NO_VALUE, detail),
  duplicate: (field: string, value: unknown) => new FieldError('FieldValueDuplicate', field, value, ''),
  notFound: (field: string, value: unknown) => new FieldError('FieldValueNotFound', field, value, ''),
  tooLong: (field: string, max: number) => new FieldError('FieldValueTooLong', field, NO_VALUE, `may not be more than ${max} bytes`),
  tooMany: (field: string, actual: number, max: number) =>
    new FieldError('FieldValueTooMany', field, actual, `must have at most ${max} items`),
  typeInvalid: (field: string, value: unknown, detail: string) => new FieldError('FieldValueTypeInvalid', field, value, detail),
};
