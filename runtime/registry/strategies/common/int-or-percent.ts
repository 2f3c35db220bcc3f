// IntOrString values used as counts or percentages (maxUnavailable,
// maxSurge): syntax and range checks with upstream's texts.

import { type FieldError, fieldErrors } from '../../field-errors.ts';

export const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** Whether the value is zero (0 or "0%"). */
export function isZero(v: unknown): boolean {
  return v === 0 || v === '0%';
}

export function intOrPercentErrors(path: string, v: unknown): FieldError[] {
  if (v === undefined) return [];
  if (typeof v === 'number') return v < 0 ? [fieldErrors.invalid(path, v, 'must be greater than or equal to 0')] : [];
  if (typeof v !== 'string' || !/^[0-9]+%$/.test(v)) return [fieldErrors.invalid(path, v, PERCENT_MSG)];
  if (Number(v.slice(0, -1)) > 100) return [fieldErrors.invalid(path, v, 'must not be greater than 100%')];
  return [];
}
