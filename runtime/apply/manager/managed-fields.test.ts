// Tests of managedFields decoding/encoding, manager identifiers, reset detection.
import { describe, expect, it } from 'vitest';
import { FieldSet } from '../fieldpath/set.ts';
import { fieldPE } from '../fieldpath/element.ts';
import { decodeManagedFields, emptyManaged, encodeManagedFields, formatTime, isResetManagedFields, managerIdentifier } from './managed-fields.ts';
import type { JSONValue } from '../value/json.ts';

describe('managerIdentifier', () => {
  it.each([
    ['kubectl', 'Apply', 'apps/v1', '', '{"manager":"kubectl","operation":"Apply"}'],
    ['kubectl', 'Update', 'apps/v1', '', '{"manager":"kubectl","operation":"Update","apiVersion":"apps/v1"}'],
    ['k', 'Update', 'v1', 'status', '{"manager":"k","operation":"Update","apiVersion":"v1","subresource":"status"}'],
    ['', 'Apply', 'v1', 'status', '{"manager":"unknown","operation":"Apply","subresource":"status"}'],
  ] as const)('%s %s %s %s', (m, op, v, sub, want) => expect(managerIdentifier(m, op, v, sub)).toBe(want));
});

describe('decodeManagedFields', () => {
  const ok = { manager: 'a', operation: 'Apply', apiVersion: 'v1', time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } };
  it('decodes entries keyed by identifier', () => {
    const m = decodeManagedFields([ok, { ...ok, operation: 'Update', subresource: 'status' }]);
    expect([...m.sets.keys()]).toEqual(['{"manager":"a","operation":"Apply"}', '{"manager":"a","operation":"Update","apiVersion":"v1","subresource":"status"}']);
    expect(m.times.get('{"manager":"a","operation":"Apply"}')).toBe('2026-01-01T00:00:00Z');
    expect(decodeManagedFields(undefined).sets.size).toBe(0);
    expect(decodeManagedFields(null).sets.size).toBe(0);
  });
  it.each([
    [{}, /must be a list/],
    [['x'], /must be an object/],
    [[{ ...ok, operation: 'Patch' }], /operation must be `Apply` or `Update`/],
    [[{ ...ok, apiVersion: '' }], /apiVersion must not be empty/],
    [[{ ...ok, fieldsType: undefined }], /missing fieldsType in managed fields entry 0/],
    [[{ ...ok, fieldsType: 'FieldsV2' }], /invalid fieldsType "FieldsV2" in managed fields entry 0/],
    [[{ ...ok, fieldsV1: { 'q:x': {} } }], /error decoding versioned set/],
  ] as [JSONValue, RegExp][])('rejects %j', (v, re) => expect(() => decodeManagedFields(v)).toThrow(re));
});

describe('encodeManagedFields', () => {
  it('orders Apply before Update, then by time, manager, apiVersion, subresource; drops empty sets', () => {
    const m = emptyManaged();
    const s = FieldSet.of([fieldPE('spec')]);
    const add = (id: string, applied: boolean, t: string, v = 'v1') => {
      m.sets.set(id, { set: s, apiVersion: v, applied });
      m.times.set(id, t);
    };
    add(managerIdentifier('z', 'Update', 'v1'), false, '2026-01-01T00:00:01Z');
    add(managerIdentifier('b', 'Update', 'v1'), false, '2026-01-01T00:00:00Z');
    add(managerIdentifier('a', 'Update', 'v1', 'status'), false, '2026-01-01T00:00:00Z');
    add(managerIdentifier('a', 'Update', 'v2'), false, '2026-01-01T00:00:00Z', 'v2');
    add(managerIdentifier('y', 'Apply', 'v1'), true, '2026-01-01T00:00:05Z');
    m.sets.set('{"manager":"e","operation":"Apply"}', { set: new FieldSet(), apiVersion: 'v1', applied: true });
    const out = encodeManagedFields(m);
    expect(out.map((e) => [e.manager, e.operation, e.apiVersion, e.subresource ?? ''])).toEqual([
      ['y', 'Apply', 'v1', ''],
      ['a', 'Update', 'v1', 'status'],
      ['a', 'Update', 'v2', ''],
      ['b', 'Update', 'v1', ''],
      ['z', 'Update', 'v1', ''],
    ]);
    expect(Object.keys(out[1])).toEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource']);
  });
});

describe('reset and time', () => {
  it.each([
    [[{}], true],
    [[], false],
    [undefined, false],
    [[{}, {}], false],
    [[{ manager: 'a' }], false],
  ] as [JSONValue | undefined, boolean][])('isReset(%j) = %s', (v, r) => expect(isResetManagedFields(v)).toBe(r));
  it('formats RFC 3339 seconds in UTC', () => expect(formatTime(new Date('2026-03-04T05:06:07.891Z'))).toBe('2026-03-04T05:06:07Z'));
});
