import { describe, expect, it } from 'vitest';
import { compileEmbeddedResources, type CoercionError } from './embedded-resources.ts';
import type { OpenAPISchema } from './util.ts';

const EMB = { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } };
const FREE = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };
const schema: OpenAPISchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        t: EMB,
        f: FREE,
        list: { type: 'array', items: EMB },
        byName: { type: 'object', additionalProperties: EMB },
        declared: { ...EMB, properties: { apiVersion: { type: 'string' }, metadata: { type: 'object' } } },
      },
    },
  },
};

const cases: { name: string; in: Record<string, unknown>; out: Record<string, unknown>; error?: CoercionError; unknown?: string[] }[] = [
  {
    name: 'unknown metadata fields dropped and reported',
    in: { spec: { t: { apiVersion: 'v1', kind: 'P', metadata: { name: 'a', x: 1 } } } },
    out: { spec: { t: { apiVersion: 'v1', kind: 'P', metadata: { name: 'a' } } } },
    unknown: ['spec.t.metadata.x'],
  },
  {
    name: 'in a list and a map, with their paths',
    in: { spec: { list: [{ metadata: { y: 1 } }], byName: { k: { metadata: { z: 1 } } } } },
    out: { spec: { list: [{ metadata: {} }], byName: { k: { metadata: {} } } } },
    unknown: ['spec.list[0].metadata.y', 'spec.byName[k].metadata.z'],
  },
  { name: 'a non-string apiVersion not described: pruned as unknown', in: { spec: { t: { apiVersion: 1, kind: 'P' } } }, out: { spec: { t: { kind: 'P' } } }, unknown: ['spec.t.apiVersion'] },
  { name: 'metadata not an object, not described: pruned as unknown', in: { spec: { t: { metadata: 'x' } } }, out: { spec: { t: {} } }, unknown: ['spec.t.metadata'] },
  {
    name: 'a non-string kind preserved: must be a string',
    in: { spec: { f: { kind: true } } },
    out: { spec: { f: { kind: true } } },
    error: { path: 'spec.f.kind', value: true, detail: 'must be a string' },
  },
  {
    name: 'a non-string apiVersion described: must be a string',
    in: { spec: { declared: { apiVersion: 2 } } },
    out: { spec: { declared: { apiVersion: 2 } } },
    error: { path: 'spec.declared.apiVersion', value: 2, detail: 'must be a string' },
  },
  {
    name: 'metadata of the wrong type: the decode error',
    in: { spec: { t: { metadata: { name: 1 } } } },
    out: { spec: { t: { metadata: { name: 1 } } } },
    error: { path: 'spec.t.metadata', value: { name: 1 }, detail: 'json: cannot unmarshal number into Go struct field ObjectMeta.name of type string' },
  },
  { name: 'the root metadata is not coerced', in: { metadata: { name: 'r', x: 1 }, spec: {} }, out: { metadata: { name: 'r', x: 1 }, spec: {} } },
];

describe('compileEmbeddedResources', () => {
  const e = compileEmbeddedResources(schema)!;
  it.each(cases)('$name', (c) => {
    const obj = structuredClone(c.in);
    const unknown: string[] = [];
    expect(e.coerce(obj, unknown)).toEqual(c.error);
    expect(obj).toEqual(c.out);
    expect(unknown).toEqual(c.unknown ?? []);
  });

  it('forEach visits every embedded object below the root', () => {
    const seen: string[] = [];
    e.forEach({ spec: { t: {}, list: [{}, {}], byName: { a: {} }, other: {} } }, (p) => seen.push(p));
    expect(seen.sort()).toEqual(['spec.byName[a]', 'spec.list[0]', 'spec.list[1]', 'spec.t']);
  });

  it('a schema without embedded resources compiles to nothing', () => {
    expect(compileEmbeddedResources({ type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } })).toBeUndefined();
  });
});
