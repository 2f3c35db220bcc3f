// Immutability helpers: a field that may not change on update, with
// upstream's "field is immutable" text.

import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { jsonEqual } from '../../../api/json-equal.ts';

/** An Invalid "field is immutable" error when the value changed (unset and empty differ only for objects). */
export function immutable(path: string, value: unknown, old: unknown): FieldError[] {
  return jsonEqual(value, old) ? [] : [fieldErrors.invalid(path, value ?? null, 'field is immutable')];
}
