import { describe, expect, it } from 'vitest';
import type { OpenAPISchema } from './util.ts';
import { namedJsonSchema, shapeOf, toJsonSchema } from './json-schema.ts';

const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });

describe('toJsonSchema', () => {
  it.each<{ name: string; schema: OpenAPISchema; want: Record<string, unknown> }>([
    { name: 'reference (plain or allOf)', schema: { allOf: [ref('a.B')], default: {} }, want: { $ref: 'defs#/definitions/a.B' } },
    { name: 'int-or-string', schema: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] }, want: { type: ['integer', 'string'] } },
    { name: 'int32 bounds', schema: { type: 'integer', format: 'int32' }, want: { type: 'integer', minimum: -2147483648, maximum: 2147483647 } },
    { name: 'declared bounds win over int32', schema: { type: 'integer', format: 'int32', minimum: 0 }, want: { type: 'integer', minimum: 0, maximum: 2147483647 } },
    // eslint-disable-next-line no-loss-of-precision -- Go's int64 bounds as written in the emitter
    { name: 'int64 bounds', schema: { type: 'integer', format: 'int64' }, want: { type: 'integer', minimum: -9223372036854775808, maximum: 9223372036854775807 } },
    { name: 'OpenAPI 3.0 exclusive bounds', schema: { type: 'number', minimum: 0, exclusiveMinimum: true }, want: { type: 'number', exclusiveMinimum: 0 } },
    { name: 'known format kept', schema: { type: 'string', format: 'byte' }, want: { type: 'string', format: 'byte' } },
    { name: 'unknown format dropped', schema: { type: 'string', format: 'hostname-ish' }, want: { type: 'string' } },
    { name: 'Go-only pattern dropped', schema: { type: 'string', pattern: '(?P<x>a)' }, want: { type: 'string' } },
    {
      name: 'struct rejects unknown fields',
      schema: { type: 'object', required: ['b', 'a'], properties: { a: { type: 'string' }, b: { type: 'string', description: 'x' } } },
      want: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a', 'b'], additionalProperties: false },
    },
    {
      name: 'preserve-unknown-fields accepts unknown fields',
      schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'string' } } },
      want: { type: 'object', properties: { a: { type: 'string' } } },
    },
    {
      name: 'embedded resource knows apiVersion and kind',
      schema: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object' } } },
      want: { type: 'object', properties: { spec: { type: 'object' }, apiVersion: { type: 'string' }, kind: { type: 'string' } } },
    },
    { name: 'map', schema: { type: 'object', additionalProperties: { type: 'string' } }, want: { type: 'object', additionalProperties: { type: 'string' } } },
    { name: 'nullable', schema: { type: 'string', nullable: true }, want: { type: ['string', 'null'] } },
    { name: 'enum and lengths', schema: { type: 'string', enum: ['a', 'b'], minLength: 1, maxLength: 3 }, want: { type: 'string', enum: ['a', 'b'], minLength: 1, maxLength: 3 } },
  ])('$name', ({ schema, want }) => expect(toJsonSchema(schema)).toEqual(want));

  it('a kind always knows apiVersion and kind', () => {
    expect(toJsonSchema({ type: 'object', properties: { metadata: ref('M') } }, true)).toEqual({
      type: 'object',
      properties: { metadata: { $ref: 'defs#/definitions/M' }, apiVersion: { type: 'string' }, kind: { type: 'string' } },
      additionalProperties: false,
    });
  });

  it('Quantity accepts string or number', () => {
    expect(namedJsonSchema('io.k8s.apimachinery.pkg.api.resource.Quantity', { type: 'string' }, false)).toEqual({ type: ['string', 'number'], format: 'quantity' });
  });
});

describe('shapeOf', () => {
  it.each<{ name: string; schema: OpenAPISchema; want: unknown }>([
    { name: 'scalar has no shape', schema: { type: 'string' }, want: undefined },
    { name: 'reference', schema: ref('a.B'), want: 'a.B' },
    {
      name: 'struct keeps only fields that lead somewhere',
      schema: { type: 'object', properties: { a: { type: 'string' }, l: { type: 'array', items: ref('a.C') }, m: { type: 'object', additionalProperties: { type: 'string' } } } },
      want: { p: { l: { a: 'a.C' }, m: { m: {} } } },
    },
    { name: 'struct of scalars has no shape', schema: { type: 'object', properties: { a: { type: 'string' } } }, want: undefined },
    { name: 'free-form object is a map', schema: { type: 'object' }, want: { m: {} } },
  ])('$name', ({ schema, want }) => expect(shapeOf(schema)).toEqual(want));
});
