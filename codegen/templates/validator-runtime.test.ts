import { describe, expect, it } from 'vitest';
import { dropNulls, fieldPath, wrap, type AjvFunction, type Shape } from './validator-runtime.ts';

const shapes: Record<string, Shape> = {
  Pod: { p: { metadata: 'Meta', spec: { p: { containers: { a: 'Container' } } } } },
  Meta: { p: { labels: { m: {} }, ownerReferences: { a: {} } } },
  Container: { p: { env: { a: {} }, resources: { p: { limits: { m: {} } } } } },
};
const pod = { metadata: { labels: { 'app/x': 'y' } }, spec: { containers: [{ env: [{ name: 'a' }], resources: { limits: { cpu: {} } } }] } };

describe('fieldPath', () => {
  it.each([
    ['', undefined, ''],
    ['/spec', undefined, 'spec'],
    ['/spec/containers/0', 'name', 'spec.containers[0].name'],
    ['/spec/containers/0/env/0/name', undefined, 'spec.containers[0].env[0].name'],
    ['/metadata/labels/app~1x', undefined, 'metadata.labels[app/x]'],
    ['/spec/containers/0/resources/limits/cpu', undefined, 'spec.containers[0].resources.limits[cpu]'],
    ['/spec/unknown/deeper', undefined, 'spec.unknown.deeper'],
  ])('%s + %s -> %s', (instancePath, extra, want) => expect(fieldPath(instancePath, pod, 'Pod', shapes, extra)).toBe(want));
});

describe('dropNulls', () => {
  it('drops null fields at any depth, keeps null list elements', () => {
    expect(dropNulls({ a: null, b: { c: null, d: 1 }, e: [null, { f: null }] })).toEqual({ b: { d: 1 }, e: [null, {}] });
  });
});

describe('wrap', () => {
  const fake = (errors: AjvFunction['errors']): AjvFunction => Object.assign(() => errors === null, { errors });
  it('maps ajv keywords to issue kinds and drops combinator branch noise', () => {
    const v = wrap(
      fake([
        { instancePath: '/spec', schemaPath: '#/additionalProperties', keyword: 'additionalProperties', params: { additionalProperty: 'x' } },
        { instancePath: '/spec', schemaPath: '#/additionalProperties', keyword: 'additionalProperties', params: { additionalProperty: 'x' } },
        { instancePath: '', schemaPath: '#/required', keyword: 'required', params: { missingProperty: 'spec' } },
        { instancePath: '/spec/n', schemaPath: '#/maximum', keyword: 'maximum', params: { limit: 3 }, message: 'must be <= 3' },
        { instancePath: '/spec/n', schemaPath: '#/anyOf/0/type', keyword: 'type', params: { type: 'string' } },
        { instancePath: '/spec/n', schemaPath: '#/anyOf', keyword: 'anyOf', params: {} },
        { instancePath: '/spec/e', schemaPath: '#/enum', keyword: 'enum', params: { allowedValues: ['a', 'b'] } },
      ]),
      'Pod',
      shapes,
    );
    expect(v({ spec: { n: 5, e: 'c' } })).toEqual([
      { kind: 'unknown', path: 'spec.x', message: 'unknown field "spec.x"' },
      { kind: 'required', path: 'spec', message: 'Required value' },
      {
        kind: 'bounds',
        path: 'spec.n',
        message: 'Invalid value: 5: spec.n in body should be less than or equal to 3',
        field: { type: 'Invalid', detail: 'spec.n in body should be less than or equal to 3' },
      },
      { kind: 'type', path: 'spec.n', message: expect.stringContaining('spec.n') },
      { kind: 'enum', path: 'spec.e', message: 'Unsupported value: "c": supported values: "a", "b"', supported: ['a', 'b'] },
    ]);
  });
  it('lists enum values as upstream prints them: strings as they are, other values as JSON, each quoted', () => {
    const v = wrap(fake([{ instancePath: '/spec/n', schemaPath: '#/enum', keyword: 'enum', params: { allowedValues: [1, true, 'x'] } }]), 'Pod', shapes);
    expect(v({ spec: { n: 5 } })).toEqual([{ kind: 'enum', path: 'spec.n', message: 'Unsupported value: 5: supported values: "1", "true", "x"', supported: ['1', 'true', 'x'] }]);
  });
  it("words bounds as apiextensions reports them: TooLong, TooMany, TypeInvalid for a format, Invalid with kube-openapi's text", () => {
    const err = (instancePath: string, keyword: string, params: Record<string, unknown>) => ({ instancePath, schemaPath: `#/${keyword}`, keyword, params });
    const v = wrap(
      fake([
        err('/spec/s', 'maxLength', { limit: 2 }),
        err('/spec/l', 'maxItems', { limit: 1 }),
        err('/spec/m', 'maxProperties', { limit: 0 }),
        err('/spec/t', 'format', { format: 'date-time' }),
        err('/spec/s', 'pattern', { pattern: '^a$' }),
        err('/spec/n', 'exclusiveMinimum', { comparison: '>', limit: 9 }),
        err('/spec/n', 'multipleOf', { multipleOf: 4 }),
        err('/spec/l', 'minItems', { limit: 3 }),
      ]),
      'Pod',
      shapes,
    );
    const got = v({ spec: { s: 'abc', l: ['x', 'y'], m: { a: 1 }, t: 'soon', n: 5 } });
    expect(got.map((i) => [i.kind, i.path, i.message, i.field])).toEqual([
      ['bounds', 'spec.s', 'Too long: may not be more than 2 bytes', { type: 'TooLong', max: 2 }],
      ['bounds', 'spec.l', 'Too many: 2: must have at most 1 items', { type: 'TooMany', actual: 2, max: 1 }],
      ['bounds', 'spec.m', 'Too many: 1: must have at most 0 items', { type: 'TooMany', actual: 1, max: 0 }],
      ['format', 'spec.t', 'Invalid value: "soon": spec.t in body must be of type date-time: "soon"', { type: 'TypeInvalid', detail: 'spec.t in body must be of type date-time: "soon"' }],
      ['bounds', 'spec.s', 'Invalid value: "abc": spec.s in body should match \'^a$\'', { type: 'Invalid', detail: "spec.s in body should match '^a$'" }],
      ['bounds', 'spec.n', 'Invalid value: 5: spec.n in body should be greater than 9', { type: 'Invalid', detail: 'spec.n in body should be greater than 9' }],
      ['bounds', 'spec.n', 'Invalid value: 5: spec.n in body should be a multiple of 4', { type: 'Invalid', detail: 'spec.n in body should be a multiple of 4' }],
      ['bounds', 'spec.l', 'Invalid value: ["x","y"]: spec.l in body should have at least 3 items', { type: 'Invalid', detail: 'spec.l in body should have at least 3 items' }],
    ]);
  });
  it('returns no issues for a valid value', () => {
    expect(wrap(fake(null), 'Pod', shapes)({})).toEqual([]);
  });
});
