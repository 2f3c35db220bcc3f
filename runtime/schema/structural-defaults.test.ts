import { describe, expect, it } from 'vitest';
import { compileStructuralDefaults } from './structural-defaults.ts';
import type { OpenAPISchema } from './util.ts';

const schema: OpenAPISchema = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
    spec: {
      type: 'object',
      default: {},
      properties: {
        replicas: { type: 'integer', default: 1 },
        mode: { type: 'string', nullable: true, default: 'fast' },
        note: { type: 'string', nullable: true },
        plain: { type: 'string' },
        ports: {
          type: 'array',
          items: { type: 'object', default: { port: 80 }, properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } } },
        },
        labels: { type: 'object', additionalProperties: { type: 'string', default: 'on' } },
        byName: { type: 'object', additionalProperties: { type: 'object', properties: { weight: { type: 'integer', default: 5 } } } },
        free: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { level: { type: 'string', default: 'info' } },
        },
      },
    },
  },
};

describe('compileStructuralDefaults', () => {
  const d = compileStructuralDefaults(schema);
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['absent object defaulted, then its own fields', {}, { spec: { replicas: 1, mode: 'fast' } }],
    ['present values stay', { spec: { replicas: 3, mode: 'slow' } }, { spec: { replicas: 3, mode: 'slow' } }],
    ['non-nullable null with a default: defaulted', { spec: { replicas: null } }, { spec: { replicas: 1, mode: 'fast' } }],
    ['nullable null with a default: kept, not defaulted', { spec: { mode: null } }, { spec: { replicas: 1, mode: null } }],
    ['nullable null without a default: kept', { spec: { note: null } }, { spec: { replicas: 1, mode: 'fast', note: null } }],
    ['non-nullable null without a default: dropped', { spec: { plain: null } }, { spec: { replicas: 1, mode: 'fast' } }],
    [
      'array items: null item defaulted, fields of items defaulted',
      { spec: { ports: [{ port: 1 }, null] } },
      {
        spec: {
          replicas: 1,
          mode: 'fast',
          ports: [
            { port: 1, protocol: 'TCP' },
            { port: 80, protocol: 'TCP' },
          ],
        },
      },
    ],
    ['additionalProperties: null value defaulted', { spec: { labels: { a: null, b: 'x' } } }, { spec: { replicas: 1, mode: 'fast', labels: { a: 'on', b: 'x' } } }],
    ['additionalProperties: fields of values defaulted', { spec: { byName: { x: {} } } }, { spec: { replicas: 1, mode: 'fast', byName: { x: { weight: 5 } } } }],
    [
      'preserve-unknown-fields: known fields defaulted, unknown ones kept with their nulls',
      { spec: { free: { other: null, deep: { x: null } } } },
      { spec: { replicas: 1, mode: 'fast', free: { level: 'info', other: null, deep: { x: null } } } },
    ],
    ['root metadata, apiVersion and kind: nulls dropped', { apiVersion: null, metadata: { name: 'a', labels: null }, spec: {} }, { metadata: { name: 'a' }, spec: { replicas: 1, mode: 'fast' } }],
  ])('%s', (_, input, want) => {
    const obj = structuredClone(input);
    d.apply(obj);
    expect(obj).toEqual(want);
  });

  it('tells whether anything changed', () => {
    expect(d.apply({ spec: { replicas: 2, mode: 'x' } })).toBe(false);
    expect(d.apply({ spec: { replicas: 2 } })).toBe(true);
    expect(d.apply({ spec: { replicas: 2, mode: 'x', plain: null } })).toBe(true);
  });

  it('sets copies of defaults, never the schema value itself', () => {
    const a = { spec: { ports: [null] } } as Record<string, unknown>;
    const b = { spec: { ports: [null] } } as Record<string, unknown>;
    d.apply(a);
    d.apply(b);
    (a.spec as { ports: { port: number }[] }).ports[0].port = 9;
    expect((b.spec as { ports: { port: number }[] }).ports[0].port).toBe(80);
  });

  it('knows whether a schema declares defaults', () => {
    expect(d.hasDefaults).toBe(true);
    expect(compileStructuralDefaults({ type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } }).hasDefaults).toBe(false);
  });

  it('dropNulls drops the disallowed nulls without setting defaults (as after a conversion)', () => {
    const o = { metadata: { labels: null }, spec: { replicas: 2, plain: null } } as Record<string, unknown>;
    expect(d.dropNulls(o)).toBe(true);
    expect(o).toEqual({ metadata: {}, spec: { replicas: 2 } });
    expect(d.dropNulls(o)).toBe(false);
  });
});
