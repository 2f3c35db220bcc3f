import { describe, expect, it } from 'vitest';
import type { NamedSchema, OpenAPISchema } from '../model/types.ts';
import { withoutUpstreamQuirks } from './upstream-quirks.ts';

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const named: Record<string, OpenAPISchema> = {
  [M + 'Time']: { type: 'string', format: 'date-time' },
  [M + 'ObjectMeta']: { type: 'object', properties: { name: { type: 'string' } } },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: 'string', format: 'int-or-string' },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object' },
};
const lookup = (n: string): NamedSchema | undefined => (named[n] ? { name: n, schema: named[n], file: 'meta/x.json', jsonPath: '$', custom: false } : undefined);
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });

describe('withoutUpstreamQuirks', () => {
  it.each([
    { name: '{} on a $ref to Time is no default', in: { ...ref(M + 'Time'), default: {} }, want: ref(M + 'Time') },
    {
      name: '{} on an allOf-wrapped Time is no default (the rest stays)',
      in: { allOf: [ref(M + 'Time')], default: {}, description: 'd' },
      want: { allOf: [ref(M + 'Time')], description: 'd' },
    },
    { name: '{} on a struct is its default', in: { allOf: [ref(M + 'ObjectMeta')], default: {} }, want: { allOf: [ref(M + 'ObjectMeta')], default: {} } },
    { name: '{} on free-form JSON stays', in: { ...ref('io.k8s.apimachinery.pkg.runtime.RawExtension'), default: {} }, want: { ...ref('io.k8s.apimachinery.pkg.runtime.RawExtension'), default: {} } },
    { name: '{} on an inline string', in: { type: 'string', default: {} }, want: { type: 'string' } },
    { name: '{} on int-or-string', in: { ...ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString'), default: {} }, want: ref('io.k8s.apimachinery.pkg.util.intstr.IntOrString') },
    { name: '{} on a list', in: { type: 'array', items: { type: 'string' }, default: {} }, want: { type: 'array', items: { type: 'string' } } },
    { name: 'a real default stays', in: { type: 'string', default: 'TCP' }, want: { type: 'string', default: 'TCP' } },
    { name: 'a zero-value default stays', in: { type: 'string', default: '' }, want: { type: 'string', default: '' } },
    {
      name: 'at any depth',
      in: {
        type: 'object',
        properties: {
          creationTimestamp: { ...ref(M + 'Time'), default: {} },
          times: { type: 'array', items: { ...ref(M + 'Time'), default: {} } },
          byName: { type: 'object', additionalProperties: { allOf: [ref(M + 'Time')], default: {} } },
          metadata: { ...ref(M + 'ObjectMeta'), default: {} },
        },
      },
      want: {
        type: 'object',
        properties: {
          creationTimestamp: ref(M + 'Time'),
          times: { type: 'array', items: ref(M + 'Time') },
          byName: { type: 'object', additionalProperties: { allOf: [ref(M + 'Time')] } },
          metadata: { ...ref(M + 'ObjectMeta'), default: {} },
        },
      },
    },
  ])('$name', ({ in: input, want }) => {
    const before = JSON.stringify(input);
    expect(withoutUpstreamQuirks(input, lookup)).toEqual(want);
    expect(JSON.stringify(input)).toBe(before);
  });

  it('returns the same object when there is nothing to change', () => {
    const s = { type: 'object', properties: { a: { type: 'string', default: '' }, m: ref(M + 'ObjectMeta') } };
    expect(withoutUpstreamQuirks(s, lookup)).toBe(s);
  });
});
