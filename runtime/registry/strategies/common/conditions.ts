// metav1.Condition lists (status.conditions of PodDisruptionBudget and
// other kinds): type a qualified name and unique, status True, False or
// Unknown, reason CamelCase (1 to 1024 characters), message at most 32768
// characters, observedGeneration non-negative, lastTransitionTime set.

import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { qualifiedNameErrors } from '../../../api/validation.ts';

const REASON = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
export const REASON_MSG =
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')";
const STATUSES = ['False', 'True', 'Unknown'];

export function conditionsErrors(path: string, conditions: unknown): FieldError[] {
  if (!Array.isArray(conditions)) return [];
  const errs: FieldError[] = [];
  const types = new Set<string>();
  (conditions as Obj[]).forEach((c, i) => {
    const p = `${path}[${i}]`;
    if (!c?.type) errs.push(fieldErrors.required(`${p}.type`, ''));
    else {
      for (const m of qualifiedNameErrors(String(c.type))) errs.push(fieldErrors.invalid(`${p}.type`, c.type, m));
      if (types.has(c.type)) errs.push(fieldErrors.duplicate(`${p}.type`, c.type));
      types.add(c.type);
    }
    if (!STATUSES.includes(c?.status)) errs.push(fieldErrors.notSupported(`${p}.status`, c?.status ?? '', STATUSES));
    if (typeof c?.observedGeneration === 'number' && c.observedGeneration < 0) {
      errs.push(fieldErrors.invalid(`${p}.observedGeneration`, c.observedGeneration, 'must be greater than or equal to zero'));
    }
    if (!c?.lastTransitionTime) errs.push(fieldErrors.required(`${p}.lastTransitionTime`, 'must be set'));
    if (!c?.reason) errs.push(fieldErrors.required(`${p}.reason`, 'must be set'));
    else {
      if (String(c.reason).length > 1024) errs.push(fieldErrors.tooLong(`${p}.reason`, 1024));
      if (!REASON.test(c.reason)) errs.push(fieldErrors.invalid(`${p}.reason`, c.reason, REASON_MSG));
    }
    if (typeof c?.message === 'string' && c.message.length > 32768) errs.push(fieldErrors.tooLong(`${p}.message`, 32768));
  });
  return errs;
}
