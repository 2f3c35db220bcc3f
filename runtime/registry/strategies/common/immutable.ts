// Immutability helpers: a field that may not change on update, with
// upstream's "field is immutable" text.

import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { jsonEqual } from '../../../api/json-equal.ts';

/** An Invalid "field is immutable" error when the value changed (unset and empty differ only for objects). */
export function immutable(path: string, value: unknown, old: unknown): FieldError[] {
  return jsonEqual(value, old) ? [] : [fieldErrors.invalid(path, value ?? null, 'field is immutable')];
}

/** Reads a dotted path (no list indexes). */
export function at(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const p of path.split('.')) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined;
  return cur;
}

/** `immutable` on each listed path of a spec-like object. */
export function immutableFields(obj: unknown, old: unknown, paths: string[]): FieldError[] {
  return paths.flatMap((p) => immutable(p, at(obj, p), at(old, p)));
}
