// Tests of FieldManager's error paths and input immutability (behaviour is in scenarios/).
import { describe, expect, it } from 'vitest';
import { fixtureSchema } from '../scenarios/fixture-schema.ts';
import { FieldManager, FieldManagerError } from './field-manager.ts';

const fm = new FieldManager({ schema: fixtureSchema, typeName: 'Thing', apiVersion: 'v1' });
const base = { apiVersion: 'v1', kind: 'Thing', metadata: { name: 'a' } };
const badLive = { ...base, metadata: { name: 'a', managedFields: [{ manager: 'x', operation: 'Nope', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }] } };

describe('FieldManager error paths', () => {
  it('apply over undecodable live managedFields is a 500', () => {
    let err: unknown;
    try {
      fm.apply(badLive, { ...base }, 'a', { force: false });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FieldManagerError);
    expect((err as FieldManagerError).code).toBe(500);
    expect((err as Error).message).toMatch(/^failed to decode managed fields: operation must be/);
  });

  it('apply of a configuration with an invalid list is a 400', () => {
    expect(() => fm.apply(null, { ...base, spec: { containers: [{ name: 'a' }, {}] } }, 'a', { force: false })).toThrow(
      expect.objectContaining({
        code: 400,
        message:
          'failed to create typed patch object (/a; /v1, Kind=Thing): .spec.containers: element 1: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
      }),
    );
    expect(() => fm.apply(null, { ...base, metadata: { name: 'a', namespace: 'ns' }, spec: { tags: ['x', 'x'] } }, 'a', { force: false })).toThrow(
      expect.objectContaining({ code: 400, message: 'failed to create typed patch object (ns/a; /v1, Kind=Thing): .spec.tags: duplicate entries for key [="x"]' }),
    );
  });

  it('apply over a live object with invalid lists is a 500', () => {
    const live = { ...base, spec: { containers: [{ image: 'x' }] } };
    expect(() => fm.apply(live, { ...base, spec: { replicas: 1 } }, 'a', { force: false })).toThrow(
      expect.objectContaining({ code: 500, message: expect.stringMatching(/^failed to create typed live object \(\/a; \/v1, Kind=Thing\): /) }),
    );
  });

  it('update never fails: undecodable live entries or invalid lists drop managedFields', () => {
    const out = fm.update(badLive, { ...badLive, spec: { replicas: 1 } }, 'u');
    expect(out.metadata).toEqual({ name: 'a' });
    const dup = fm.update(null, { ...base, spec: { tags: [null] } }, 'u');
    expect(dup.metadata).toEqual({ name: 'a' });
  });

  it.each([
    [{ apiVersion: 'v2', kind: 'Thing' }, 'invalid object type: /v2, Kind=Thing'],
    [{ apiVersion: 'v1', kind: 'Other' }, 'invalid object type: /v1, Kind=Other'],
    [{ apiVersion: 'x.io/v1', kind: 'Thing' }, 'invalid object type: x.io/v1, Kind=Thing'],
    [{}, 'invalid object type: /, Kind='],
  ])('with a kind, an apply of %j is a 400', (head, msg) => {
    const typed = new FieldManager({ schema: fixtureSchema, typeName: 'Thing', apiVersion: 'v1', kind: 'Thing' });
    expect(() => typed.apply(null, { ...head, metadata: { name: 'a' } }, 'a', { force: false })).toThrow(expect.objectContaining({ code: 400, message: msg }));
    expect(() => typed.apply(null, { ...base }, 'a', { force: false })).not.toThrow();
  });

  it('rejects an unknown type unless unstructured', () => {
    expect(() => new FieldManager({ schema: fixtureSchema, typeName: 'Nope', apiVersion: 'v1' })).toThrow(/no type "Nope"/);
    expect(() => new FieldManager({ schema: fixtureSchema, typeName: 'Nope', apiVersion: 'v1', unstructured: true })).not.toThrow();
  });

  it('does not change the objects it is given', () => {
    const live = fm.apply(null, { ...base, spec: { replicas: 1, containers: [{ name: 'c' }] } }, 'a', { force: false });
    const before = JSON.stringify(live);
    const cfg = { ...base, spec: { replicas: 2, containers: [{ name: 'c', image: 'i' }] } };
    const cfgBefore = JSON.stringify(cfg);
    fm.apply(live, cfg, 'a', { force: false });
    fm.update(live, { ...live, spec: { replicas: 5 } }, 'u');
    expect(JSON.stringify(live)).toBe(before);
    expect(JSON.stringify(cfg)).toBe(cfgBefore);
  });
});
