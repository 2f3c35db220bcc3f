// The query options of a write as kube-apiserver validates them, before the
// body is decoded (apimachinery's meta/v1 validation: ValidateCreateOptions,
// ValidateUpdateOptions, ValidatePatchOptions, ValidateDeleteOptions): every
// field error at once, in one 422 Invalid on kind <Verb>Options of
// meta.k8s.io; each cause names its field and says only what is wrong.

import { errors } from '../../api/errors.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import type { RequestContext } from './context.ts';

type OptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

/** Longest field manager name upstream accepts (FieldManagerMaxLength). */
const FIELD_MANAGER_MAX = 128;
/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

function fieldManagerErrors(manager: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager) > FIELD_MANAGER_MAX) errs.push(fieldErrors.tooLong('fieldManager', FIELD_MANAGER_MAX));
  let at = 0;
  for (const ch of manager) {
    if (!PRINTABLE.test(ch)) {
      const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      errs.push(fieldErrors.invalid('fieldManager', manager, `invalid character ${code} (at position ${at})`));
    }
    at += Buffer.byteLength(ch);
  }
  return errs;
}

/** dryRun: only "All" (the whole list is the value shown, as Go prints a []string). */
export function dryRunErrors(values: string[]): FieldError[] {
  return values.every((v) => v === 'All') ? [] : [fieldErrors.notSupported('dryRun', values, ['All'])];
}

const FIELD_VALIDATION = ['', 'Ignore', 'Strict', 'Warn'];

function fieldValidationErrors(value: string | null): FieldError[] {
  return value === null || FIELD_VALIDATION.includes(value) ? [] : [fieldErrors.notSupported('fieldValidation', value, FIELD_VALIDATION)];
}

export function optionsInvalid(kind: OptionsKind, errs: FieldError[]): never {
  throw errors.invalid({ group: 'meta.k8s.io', kind }, '', errs);
}

/**
 * Create, update and patch options from the query: fieldManager, dryRun and
 * fieldValidation, after the checks a kind puts first (a patch's force and
 * required fieldManager).
 */
export function validateWriteOptions(rc: RequestContext, kind: Exclude<OptionsKind, 'DeleteOptions'>, first: FieldError[] = []): void {
  const errs = [...first, ...fieldManagerErrors(rc.query.get('fieldManager') ?? ''), ...dryRunErrors(rc.query.getAll('dryRun')), ...fieldValidationErrors(rc.query.get('fieldValidation'))];
  if (errs.length) optionsInvalid(kind, errs);
}
