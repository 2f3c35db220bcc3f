// Tests of the metadata layers: stripped fields, Update cap, last-applied, no-op timestamps.
import { describe, expect, it } from 'vitest';
import { fieldPE } from '../fieldpath/element.ts';
import { FieldSet } from '../fieldpath/set.ts';
import { buildLastApplied, capUpdateManagers, keepTimestampsOnNoop, LAST_APPLIED, stripMeta } from './layers.ts';
import { emptyManaged, managerIdentifier } from './managed-fields.ts';

describe('stripMeta', () => {
  it('removes identity fields and drops a manager left empty', () => {
    const m = emptyManaged();
    const id = 'x';
    m.sets.set(id, { set: FieldSet.of([fieldPE('kind')], [fieldPE('metadata'), fieldPE('name')], [fieldPE('metadata'), fieldPE('labels')]), apiVersion: 'v1', applied: true });
    stripMeta(m, id);
    expect(
      m.sets
        .get(id)!
        .set.paths()
        .map((p) => p.map((e) => e.id).join('.')),
    ).toEqual(['f:metadata.f:labels']);
    m.sets.set(id, { set: FieldSet.of([fieldPE('apiVersion')]), apiVersion: 'v1', applied: true });
    stripMeta(m, id);
    expect(m.sets.has(id)).toBe(false);
  });
});

describe('capUpdateManagers', () => {
  it('merges the oldest updaters into ancient-changes, leaving appliers alone', () => {
    const m = emptyManaged();
    for (let i = 0; i < 5; i++) {
      const id = managerIdentifier(`u${i}`, 'Update', 'v1');
      m.sets.set(id, { set: FieldSet.of([fieldPE(`f${i}`)]), apiVersion: 'v1', applied: false });
      m.times.set(id, `2026-01-01T00:00:0${i}Z`);
    }
    m.sets.set('{"manager":"ap","operation":"Apply"}', { set: FieldSet.of([fieldPE('z')]), apiVersion: 'v1', applied: true });
    capUpdateManagers(m, 3);
    const names = [...m.sets.keys()].map((k) => JSON.parse(k).manager).sort();
    expect(names).toEqual(['ancient-changes', 'ap', 'u3', 'u4']);
    const bucket = m.sets.get(managerIdentifier('ancient-changes', 'Update', 'v1'))!;
    expect(bucket.set.paths().map((p) => p[0].id)).toEqual(['f:f0', 'f:f1', 'f:f2']);
    expect(m.times.get(managerIdentifier('ancient-changes', 'Update', 'v1'))).toBe('2026-01-01T00:00:02Z');
  });
});

describe('last-applied helpers', () => {
  it('buildLastApplied drops the annotation itself and writes sorted JSON with a newline', () => {
    expect(buildLastApplied({ kind: 'K', apiVersion: 'v1', metadata: { name: 'n', annotations: { [LAST_APPLIED]: 'old', x: 'y' } } })).toBe(
      '{"apiVersion":"v1","kind":"K","metadata":{"annotations":{"x":"y"},"name":"n"}}\n',
    );
  });
});

describe('keepTimestampsOnNoop', () => {
  const entry = (time: string) => ({ manager: 'a', operation: 'Apply', apiVersion: 'v1', time, fieldsType: 'FieldsV1', fieldsV1: {} });
  const obj = (time: string, v = 1) => ({ metadata: { name: 'n', managedFields: [entry(time)] }, spec: { v } });
  it.each([
    ['only timestamps differ: old kept', obj('t1'), obj('t2'), obj('t1')],
    ['the object differs: new kept', obj('t1'), obj('t2', 2), obj('t2', 2)],
  ])('%s', (_n, prev, next, want) => expect(keepTimestampsOnNoop(prev, next)).toEqual(want));
  it('entries that differ otherwise keep the new ones', () => {
    const next = { ...obj('t2'), metadata: { name: 'n', managedFields: [{ ...entry('t2'), manager: 'b' }] } };
    expect(keepTimestampsOnNoop(obj('t1'), next)).toBe(next);
  });
});
