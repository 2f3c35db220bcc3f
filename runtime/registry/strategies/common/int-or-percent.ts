// IntOrString values used as counts or percentages (maxUnavailable,
// maxSurge): syntax and range checks with upstream's texts.

import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { goIntOrString } from '../../../api/go-format.ts';

export const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** Whether the value is zero (0 or "0%"). */
export function isZero(v: unknown): boolean {
  return v === 0 || v === '0%';
}

/** Syntax, sign and (unless capAt100 is false) at most 100%; the 100% error prints the Go IntOrString as upstream. */
export function intOrPercentErrors(path: string, v: unknown, opts: { capAt100?: boolean } = {}): FieldError[] {
  if (v === undefined) return [];
  if (typeof v === 'number') return v < 0 ? [fieldErrors.invalid(path, v, 'must be greater than or equal to 0')] : [];
  if (typeof v !== 'string' || !/^[0-9]+%$/.test(v)) return [fieldErrors.invalid(path, v, PERCENT_MSG)];
  if (opts.capAt100 !== false && Number(v.slice(0, -1)) > 100) return [fieldErrors.invalid(path, goIntOrString(v), 'must not be greater than 100%')];
  return [];
}
