// PatchError values and the Status bodies they stand for.
import { describe, expect, it } from 'vitest';
import { badPatch, badRequest, genericUnprocessable, internal, invalidPatchResult, PatchError, tooLarge, unsupportedMediaType } from './errors.ts';

describe('PatchError.status()', () => {
  it.each([
    [badRequest('invalid patch format of retainKeys'), { message: 'invalid patch format of retainKeys', reason: 'BadRequest', code: 400 }],
    [genericUnprocessable('testing value failed'), { message: 'the server rejected our request due to an error in our request', reason: 'Invalid', details: {}, code: 422 }],
    [internal('no merge schema for type x'), { message: 'no merge schema for type x', code: 500 }],
    [badPatch('merging lists cannot yet be specified in the patch'), { message: 'merging lists cannot yet be specified in the patch', reason: 'BadRequest', code: 400 }],
    [tooLarge('x'), { message: 'Request entity too large: x', reason: 'RequestEntityTooLarge', code: 413 }],
    [unsupportedMediaType(['a', 'b']), { message: 'the body of the request was in an unknown format - accepted media types include: a, b', reason: 'UnsupportedMediaType', code: 415 }],
    [
      invalidPatchResult('[1]', 'bad'),
      {
        message: ' "" is invalid: patch: Invalid value: "[1]": bad',
        reason: 'Invalid',
        details: { causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "[1]": bad', field: 'patch' }] },
        code: 422,
      },
    ],
  ] as [PatchError, Record<string, unknown>][])('%s', (err, want) => {
    expect(err).toBeInstanceOf(PatchError);
    expect(err).toBeInstanceOf(Error);
    expect(err.status()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', ...want });
    expect(err.code).toBe(want.code);
  });
});
