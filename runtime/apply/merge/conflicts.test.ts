// Tests of conflict messages and Status causes in upstream's form.
import { describe, expect, it } from 'vitest';
import { fieldPE as f, keyPE } from '../fieldpath/element.ts';
import { ApplyConflictError, printManager } from './conflicts.ts';

describe('printManager', () => {
  it.each([
    ['{"manager":"kubectl","operation":"Apply"}', '"kubectl"'],
    ['{"manager":"kubectl-edit","operation":"Update","apiVersion":"apps/v1"}', '"kubectl-edit" using apps/v1'],
    ['{"manager":"k","operation":"Update","apiVersion":"v1","subresource":"status"}', '"k" with subresource "status" using v1'],
    ['{"manager":"k","operation":"Apply","subresource":"status"}', '"k" with subresource "status"'],
    ['not json', '"not json"'],
  ])('%s', (id, want) => expect(printManager(id)).toBe(want));
});

describe('ApplyConflictError', () => {
  const a = '{"manager":"a","operation":"Apply"}';
  const u = '{"manager":"u","operation":"Update","apiVersion":"v1"}';
  it('one conflict', () => {
    const e = new ApplyConflictError([{ managerId: a, path: [f('spec'), f('replicas')] }]);
    expect(e.message).toBe('Apply failed with 1 conflict: conflict with "a": .spec.replicas');
    expect(e.code).toBe(409);
    expect(e.conflicts).toEqual([{ manager: 'a', field: '.spec.replicas' }]);
    expect(e.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.replicas' }]);
    expect(e.status()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "a": .spec.replicas',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.replicas' }] },
    });
  });
  it('several conflicts are grouped by manager, managers sorted', () => {
    const e = new ApplyConflictError([
      { managerId: u, path: [f('spec'), f('x')] },
      { managerId: a, path: [f('spec'), f('c'), keyPE([['name', 'n']]), f('image')] },
      { managerId: u, path: [f('spec'), f('y')] },
    ]);
    expect(e.message).toBe('Apply failed with 3 conflicts: conflicts with "a":\n- .spec.c[name="n"].image\nconflicts with "u" using v1:\n- .spec.x\n- .spec.y');
    expect(e.causes.map((c) => c.message)).toEqual(['conflict with "a"', 'conflict with "u" using v1', 'conflict with "u" using v1']);
  });
});
