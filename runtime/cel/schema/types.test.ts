// Tests of the schema-to-type mapping table, schema-typed values, and set / map list semantics.
import { describe, it, expect } from 'vitest';
import { schemaToType, typeName, type JSONSchema } from './types.ts';
import { run, compileErrors } from '../testing/run.ts';

describe('schema to CEL type mapping', () => {
  it.each<[string, JSONSchema, string]>([
    ['object with properties', { type: 'object', properties: { a: { type: 'string' } } }, 'self'],
    ['additionalProperties', { type: 'object', additionalProperties: { type: 'integer' } }, 'map(string, int)'],
    ['int-or-string', { 'x-kubernetes-int-or-string': true }, 'dyn'],
    ['array', { type: 'array', items: { type: 'string' } }, 'list(string)'],
    ['number', { type: 'number' }, 'double'],
    ['integer', { type: 'integer' }, 'int'],
    ['boolean', { type: 'boolean' }, 'bool'],
    ['byte', { type: 'string', format: 'byte' }, 'bytes'],
    ['date', { type: 'string', format: 'date' }, 'google.protobuf.Timestamp'],
    ['date-time', { type: 'string', format: 'date-time' }, 'google.protobuf.Timestamp'],
    ['duration', { type: 'string', format: 'duration' }, 'google.protobuf.Duration'],
    ['preserve-unknown-fields', { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, 'dyn'],
  ])('%s', (_n, schema, want) => {
    expect(typeName(schemaToType(schema))).toBe(want);
  });

  it('keeps list type, keys and sizes', () => {
    const t = schemaToType({
      type: 'array',
      maxItems: 4,
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: { type: 'object', properties: { name: { type: 'string', maxLength: 8 } } },
    });
    expect(t).toMatchObject({ k: 'list', max: 4, listType: 'map', keys: ['name'] });
  });

  it('bounds unbounded strings by the request size', () => {
    expect(schemaToType({ type: 'string' })).toMatchObject({ k: 'string', max: 3 * 1024 * 1024 - 2 });
    expect(schemaToType({ type: 'string', maxLength: 10 })).toMatchObject({ max: 10 });
  });

  it('resolves $ref through the resolver', () => {
    const t = schemaToType({ $ref: '#/components/schemas/X' }, { resolveRef: () => ({ type: 'integer' }) });
    expect(typeName(t)).toBe('int');
  });
});

describe('values typed by the schema', () => {
  const schema: JSONSchema = {
    type: 'object',
    properties: {
      n: { type: 'integer' },
      d: { type: 'number' },
      b: { type: 'string', format: 'byte' },
      t: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      dur: { type: 'string', format: 'duration' },
      ios: { 'x-kubernetes-int-or-string': true },
      m: { type: 'object', additionalProperties: { type: 'string' } },
      any: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      res: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true, properties: { spec: { type: 'object', properties: { x: { type: 'integer' } } } } },
    },
  };
  const obj = {
    n: 3,
    d: 2,
    b: 'aGVsbG8=',
    t: '2024-01-02T03:04:05Z',
    day: '2024-01-02',
    dur: '1h30m',
    ios: '50%',
    m: { k: 'v' },
    any: { deep: [1, 2.5] },
    res: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 1 } },
  };
  it.each<[string, unknown]>([
    ['type(self.n) == int', true],
    ['self.n / 2', 1],
    ['type(self.d) == double', true],
    ['self.d / 4.0', 0.5],
    ['self.b == b"hello"', true],
    ['self.t.getFullYear()', 2024],
    ["self.t < timestamp('2024-01-02T03:04:06Z')", true],
    ['self.day.getDayOfMonth()', 1],
    ['self.dur == duration("90m")', true],
    ['self.ios == "50%"', true],
    ['self.m.k', 'v'],
    ["'k' in self.m", true],
    ['self.any.deep[0] + 1', 2],
    ['self.any.deep[1]', 2.5],
    ['self.res.kind', 'Pod'],
    ['self.res.metadata.name', 'p'],
    ['self.res.spec.x', 1],
  ])('%s', (expr, want) => {
    expect(run(expr, { self: schema }, { self: obj })).toEqual(want);
  });

  it('int-or-string accepts both', () => {
    expect(run('self.ios == 5', { self: schema }, { self: { ios: 5 } })).toBe(true);
  });

  it('rejects unknown fields of embedded resources and objects', () => {
    expect(compileErrors('self.res.spec.y == 1', { self: schema })[0]).toContain("undefined field 'y'");
  });
});

describe('list types: set and map lists', () => {
  const schema: JSONSchema = {
    type: 'object',
    properties: {
      set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
      atomic: { type: 'array', items: { type: 'string' } },
      ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } } },
      ports2: {
        type: 'array',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
      },
    },
  };
  const obj = {
    set: ['a', 'b'],
    atomic: ['a', 'b'],
    ports: [
      { name: 'http', port: 80 },
      { name: 'https', port: 443 },
    ],
    ports2: [
      { name: 'https', port: 443 },
      { name: 'http', port: 80 },
    ],
  };
  it.each<[string, unknown]>([
    ["self.set == ['b', 'a']", true],
    ["self.set == ['a', 'c']", false],
    ["self.atomic == ['b', 'a']", false],
    ["self.atomic == ['a', 'b']", true],
    ['self.ports == self.ports2', true],
    ["self.set + ['c', 'a']", ['a', 'b', 'c']],
    ["self.atomic + ['c', 'a']", ['a', 'b', 'c', 'a']],
    [
      "self.ports + [{'name': 'http', 'port': 8080}, {'name': 'grpc', 'port': 9000}]",
      [
        { name: 'http', port: 8080 },
        { name: 'https', port: 443 },
        { name: 'grpc', port: 9000 },
      ],
    ],
    ["(self.set + ['c']) == ['c', 'b', 'a']", true],
  ])('%s', (expr, want) => {
    expect(run(expr, { self: schema }, { self: obj })).toEqual(want);
  });
});
