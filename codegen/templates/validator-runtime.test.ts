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
      { kind: 'bounds', path: 'spec.n', message: 'Invalid value: 5: spec.n in body must be <= 3' },
      { kind: 'type', path: 'spec.n', message: expect.stringContaining('spec.n') },
      { kind: 'enum', path: 'spec.e', message: 'Unsupported value: "c": supported values: "a", "b"', supported: ['a', 'b'] },
    ]);
  });
  it('lists enum values as upstream prints them: strings as they are, other values as JSON, each quoted', () => {
    const v = wrap(fake([{ instancePath: '/spec/n', schemaPath: '#/enum', keyword: 'enum', params: { allowedValues: [1, true, 'x'] } }]), 'Pod', shapes);
    expect(v({ spec: { n: 5 } })).toEqual([{ kind: 'enum', path: 'spec.n', message: 'Unsupported value: 5: supported values: "1", "true", "x"', supported: ['1', 'true', 'x'] }]);
  });
  it('returns no issues for a valid value', () => {
    expect(wrap(fake(null), 'Pod', shapes)({})).toEqual([]);
  });
});
