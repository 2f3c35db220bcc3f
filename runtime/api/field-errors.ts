// Field errors: what validation finds wrong with one field, in the form
// kube-apiserver reports it (`spec.ports[0].port: Required value`), and the
// Status cause each becomes. The 422 Invalid error that lists them is built
// by errors.ts. Values print in Go's notation where upstream prints a
// Go value (`[]string{"10.1.0.5"}`, `map[string]string{"app":"d"}`; see
// go-format.ts).

import type { StatusCause } from './errors.ts';
import { formatValue } from './go-format.ts';

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

  /** The Status cause: the type as reason, the body without the field as message (upstream's NewInvalid). */
  cause(): StatusCause {
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
  tooMany: (field: string, actual: number, max: number) => new FieldError('FieldValueTooMany', field, actual, `must have at most ${max} items`),
  typeInvalid: (field: string, value: unknown, detail: string) => new FieldError('FieldValueTypeInvalid', field, value, detail),
};
