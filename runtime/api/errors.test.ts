import { describe, expect, it } from 'vitest';
import { errors } from './errors.ts';
import { fieldErrors } from './field-errors.ts';

const KIND = { group: 'apps', kind: 'Deployment' };

describe('errors.invalid', () => {
  it.each([
    ['one error: no brackets', [fieldErrors.required('spec.a', '')], 'Deployment.apps "d" is invalid: spec.a: Required value', 1],
    ['two errors: in brackets', [fieldErrors.required('spec.a', ''), fieldErrors.required('spec.b', '')], 'Deployment.apps "d" is invalid: [spec.a: Required value, spec.b: Required value]', 2],
    [
      'a repeated error is named once in the message, kept in the causes',
      [fieldErrors.required('spec.a', 'x'), fieldErrors.required('spec.a', 'x')],
      'Deployment.apps "d" is invalid: spec.a: Required value: x',
      2,
    ],
  ])('%s', (_name, errs, message, causes) => {
    const e = errors.invalid(KIND, 'd', errs);
    expect(e.message).toBe(message);
    expect(e.details?.causes).toHaveLength(causes);
  });
});
