import { describe, expect, it } from 'vitest';
import { compileStructuralPruning } from './structural-pruning.ts';
import type { OpenAPISchema } from './util.ts';

const spec = (properties: OpenAPISchema, extra: OpenAPISchema = {}): OpenAPISchema => ({ type: 'object', properties: { spec: { type: 'object', properties, ...extra } } });

const cases: { name: string; schema: OpenAPISchema; in: Record<string, unknown>; out: Record<string, unknown>; changed: boolean }[] = [
  {
    name: 'unknown fields dropped at any depth, root apiVersion/kind/metadata kept',
    schema: spec({ a: { type: 'string' }, o: { type: 'object', properties: { x: { type: 'integer' } } } }),
    in: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n', extra: 1 }, spec: { a: 's', gone: 1, o: { x: 1, y: 2 } }, top: true },
    out: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n', extra: 1 }, spec: { a: 's', o: { x: 1 } } },
    changed: true,
  },
  {
    name: 'nothing unknown: unchanged',
    schema: spec({ a: { type: 'string' } }),
    in: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n' }, spec: { a: 's' } },
    out: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n' }, spec: { a: 's' } },
    changed: false,
  },
  {
    name: 'preserve-unknown-fields subtree kept, described fields below it still pruned',
    schema: spec({ free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { known: { type: 'object', properties: { k: { type: 'string' } } } } } }),
    in: { spec: { free: { anything: { deep: 1 }, known: { k: 'v', drop: 1 } } } },
    out: { spec: { free: { anything: { deep: 1 }, known: { k: 'v' } } } },
    changed: true,
  },
  {
    name: 'additionalProperties: keys kept, values pruned by its schema',
    schema: spec({ m: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'string' } } } } }),
    in: { spec: { m: { one: { v: 'a', w: 'b' }, two: {} } } },
    out: { spec: { m: { one: { v: 'a' }, two: {} } } },
    changed: true,
  },
  {
    name: 'array items pruned',
    schema: spec({ l: { type: 'array', items: { type: 'object', properties: { n: { type: 'string' } } } } }),
    in: { spec: { l: [{ n: 'a', x: 1 }, { n: 'b' }] } },
    out: { spec: { l: [{ n: 'a' }, { n: 'b' }] } },
    changed: true,
  },
  {
    name: 'embedded resource keeps apiVersion, kind (strings) and metadata with ObjectMeta fields only',
    schema: spec({ tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { r: { type: 'integer' } } } } } }),
    in: { spec: { tmpl: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' }, bogus: 1 }, spec: { r: 1, q: 2 }, extra: 1 } } },
    out: { spec: { tmpl: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', labels: { a: 'b' } }, spec: { r: 1 } } } },
    changed: true,
  },
  {
    name: 'embedded resource read from storage: malformed metadata fields dropped one by one (dropInvalidMetadata), the rest as Go encodes them',
    schema: spec({ tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true } }),
    in: {
      spec: {
        tmpl: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 5, labels: { a: 1 }, annotations: { k: 'v' }, generation: 'x', finalizers: [], creationTimestamp: '2024-01-02T03:04:05.678+01:00' } },
      },
    },
    out: { spec: { tmpl: { apiVersion: 'v1', kind: 'Pod', metadata: { creationTimestamp: '2024-01-02T02:04:05Z', annotations: { k: 'v' } } } } },
    changed: true,
  },
  {
    name: 'embedded resource read from storage: a declared apiVersion of the wrong type dropped',
    schema: spec({ tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { apiVersion: { type: 'string' } } } }),
    in: { spec: { tmpl: { apiVersion: 1, kind: 'Pod' } } },
    out: { spec: { tmpl: { kind: 'Pod' } } },
    changed: true,
  },
  {
    name: 'embedded resource: a non-string kind is not kept',
    schema: spec({ tmpl: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': false } }),
    in: { spec: { tmpl: { kind: 3, apiVersion: 'v1' } } },
    out: { spec: { tmpl: { apiVersion: 'v1' } } },
    changed: true,
  },
  {
    name: 'object without properties drops every key',
    schema: spec({ empty: { type: 'object' } }),
    in: { spec: { empty: { a: 1 } } },
    out: { spec: { empty: {} } },
    changed: true,
  },
  {
    name: 'a preserving root keeps unknown root fields and prunes described ones',
    schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } },
    in: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n' }, other: { x: 1 }, spec: { a: 's', b: 1 } },
    out: { apiVersion: 'g/v1', kind: 'K', metadata: { name: 'n' }, other: { x: 1 }, spec: { a: 's' } },
    changed: true,
  },
];

describe('compileStructuralPruning', () => {
  it.each(cases)('$name', (c) => {
    const obj = structuredClone(c.in);
    expect(compileStructuralPruning(c.schema).apply(obj)).toBe(c.changed);
    expect(obj).toEqual(c.out);
  });

  it.each([
    { name: 'an ordinary schema can prune', schema: spec({ a: { type: 'string' } }), canPrune: true },
    { name: 'a root that preserves everything cannot', schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, canPrune: false },
    {
      name: 'a preserving root with a closed object below it can',
      schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } },
      canPrune: true,
    },
    {
      name: 'a preserving root whose described fields preserve too cannot',
      schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, n: { type: 'string' } } },
      canPrune: false,
    },
  ])('canPrune: $name', ({ schema, canPrune }) => {
    const p = compileStructuralPruning(schema);
    expect(p.canPrune).toBe(canPrune);
    const obj = { apiVersion: 'g/v1', kind: 'K', metadata: {}, spec: { z: 1 } };
    if (!canPrune) expect(p.apply(obj)).toBe(false);
  });

  it('fingerprint: the same for the same schema, different for another', () => {
    const a = spec({ a: { type: 'string' } });
    expect(compileStructuralPruning(a).fingerprint).toBe(compileStructuralPruning(structuredClone(a)).fingerprint);
    expect(compileStructuralPruning(a).fingerprint).not.toBe(compileStructuralPruning(spec({ b: { type: 'string' } })).fingerprint);
  });
});
