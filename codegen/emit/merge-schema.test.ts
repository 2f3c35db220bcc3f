import { describe, expect, it } from 'vitest';
import type { Atom, TypeRef } from '../templates/api-types.ts';
import type { Model, NamedSchema, OpenAPISchema } from '../model/types.ts';
import { buildMergeSchema } from './merge-schema.ts';
import { atom } from '../../runtime/schema/merge-types.ts';

const named: Record<string, OpenAPISchema> = { 'x.Obj': { type: 'object', properties: { name: { type: 'string' } } } };
const lookup = (n: string) => (named[n] ? { schema: named[n] } : undefined);
const builtin = { custom: false, lookup };
const custom = { custom: true, lookup };
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const str: TypeRef = { inline: { scalar: 'string' } };

const rows: { name: string; schema: OpenAPISchema; custom?: boolean; want: Atom }[] = [
  {
    name: 'list-type map with keys',
    schema: { type: 'array', items: ref('x.Obj'), 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name', 'port'] },
    want: { list: { elementType: { named: 'x.Obj' }, elementRelationship: 'associative', keys: ['name', 'port'] } },
  },
  {
    name: 'no list type, patch merge: map keyed by merge key',
    schema: { type: 'array', items: ref('x.Obj'), 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
    want: { list: { elementType: { named: 'x.Obj' }, elementRelationship: 'associative', keys: ['name'] } },
  },
  {
    name: 'merge,retainKeys counts as merge',
    schema: { type: 'array', items: ref('x.Obj'), 'x-kubernetes-patch-strategy': 'merge,retainKeys', 'x-kubernetes-patch-merge-key': 'name' },
    want: { list: { elementType: { named: 'x.Obj' }, elementRelationship: 'associative', keys: ['name'] } },
  },
  {
    name: 'scalars with patch merge: set',
    schema: { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'merge' },
    want: { list: { elementType: str, elementRelationship: 'associative' } },
  },
  { name: 'neither: atomic', schema: { type: 'array', items: ref('x.Obj') }, want: { list: { elementType: { named: 'x.Obj' }, elementRelationship: 'atomic' } } },
  {
    name: 'explicit set',
    schema: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-list-type': 'set' },
    want: { list: { elementType: { inline: { scalar: 'numeric' } }, elementRelationship: 'associative' } },
  },
  {
    name: 'explicit atomic beats patch merge',
    schema: { type: 'array', items: ref('x.Obj'), 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
    want: { list: { elementType: { named: 'x.Obj' }, elementRelationship: 'atomic' } },
  },
  {
    name: 'CRD list with patch merge stays atomic',
    custom: true,
    schema: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } }, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' },
    want: { list: { elementType: { inline: { map: { fields: [{ name: 'name', type: str }], elementRelationship: 'atomic' } } }, elementRelationship: 'atomic' } },
  },
  {
    name: 'atomic is recursive through inline lists and maps',
    schema: {
      type: 'array',
      'x-kubernetes-list-type': 'atomic',
      items: {
        type: 'object',
        properties: {
          l: { type: 'array', items: ref('x.Obj'), 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
          m: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
    want: {
      list: {
        elementRelationship: 'atomic',
        elementType: {
          inline: {
            map: {
              elementRelationship: 'atomic',
              fields: [
                { name: 'l', type: { inline: { list: { elementType: { named: 'x.Obj' }, elementRelationship: 'atomic' } } } },
                { name: 'm', type: { inline: { map: { elementType: str, elementRelationship: 'atomic' } } } },
              ],
            },
          },
        },
      },
    },
  },
  {
    name: 'atomic map makes inline children atomic',
    schema: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { s: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } } },
    want: { map: { fields: [{ name: 's', type: { inline: { list: { elementType: str, elementRelationship: 'atomic' } } } }], elementRelationship: 'atomic' } },
  },
  {
    name: 'an associative list leaves its elements alone',
    schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: {} } },
    want: { list: { elementType: { inline: { map: { elementType: { named: '__untyped_deduced_' }, elementRelationship: 'atomic' } } }, elementRelationship: 'associative' } },
  },
  {
    name: 'CRD list-type map is honoured',
    custom: true,
    schema: { type: 'array', items: ref('x.Obj'), 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
    want: { list: { elementType: { named: 'x.Obj' }, elementRelationship: 'associative', keys: ['name'] } },
  },
  { name: 'string map', schema: { type: 'object', additionalProperties: { type: 'string' } }, want: { map: { elementType: str, elementRelationship: 'separable' } } },
  {
    name: 'map-type atomic',
    schema: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
    want: { map: { elementType: str, elementRelationship: 'atomic' } },
  },
  {
    name: 'struct with an atomic reference',
    schema: { type: 'object', properties: { sel: { ...ref('x.Obj'), 'x-kubernetes-map-type': 'atomic' } } },
    want: { map: { fields: [{ name: 'sel', type: { named: 'x.Obj', elementRelationship: 'atomic' } }], elementRelationship: 'separable' } },
  },
  { name: 'int-or-string is untyped', schema: { 'x-kubernetes-int-or-string': true }, want: { scalar: 'untyped' } },
  { name: 'format int-or-string is untyped', schema: { type: 'string', format: 'int-or-string' }, want: { scalar: 'untyped' } },
  {
    name: 'preserve-unknown-fields object keeps fields and deduces the rest',
    schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: { type: 'boolean' } } },
    want: { map: { fields: [{ name: 'a', type: { inline: { scalar: 'boolean' } } }], elementType: { named: '__untyped_deduced_' }, elementRelationship: 'separable' } },
  },
  { name: 'object without fields is a deduced map', schema: { type: 'object' }, want: { map: { elementType: { named: '__untyped_deduced_' }, elementRelationship: 'separable' } } },
  { name: 'untyped field', schema: { type: 'object', properties: { any: {} } }, want: { map: { fields: [{ name: 'any', type: { named: '__untyped_atomic_' } }], elementRelationship: 'separable' } } },
  {
    name: 'field markers and defaults are kept',
    schema: {
      type: 'object',
      properties: { c: { type: 'array', items: ref('x.Obj'), 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'name' }, p: { type: 'string', default: 'TCP' } },
    },
    want: {
      map: {
        fields: [
          { name: 'c', type: { inline: { list: { elementType: { named: 'x.Obj' }, elementRelationship: 'associative', keys: ['name'] } } }, patchStrategy: 'merge', patchMergeKey: 'name' },
          { name: 'p', type: str, default: 'TCP' },
        ],
        elementRelationship: 'separable',
      },
    },
  },
];

describe('merge schema atoms', () => {
  it.each(rows)('$name', (row) => {
    expect(atom(row.schema, row.custom ? custom : builtin)).toEqual(row.want);
  });
});

describe('buildMergeSchema', () => {
  const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
  const s = (name: string, schema: OpenAPISchema, file = 'x.json'): [string, NamedSchema] => [name, { name, schema, file, jsonPath: '$', custom: false }];
  const model: Model = {
    schemas: new Map([
      s(M + 'ObjectMeta', { type: 'object', properties: { name: { type: 'string' }, creationTimestamp: ref(M + 'Time') } }, 'meta/m.json'),
      s(M + 'Time', { type: 'string', format: 'date-time' }, 'meta/m.json'),
      s(M + 'Status', { type: 'object', properties: { code: { type: 'integer' } } }, 'meta/m.json'),
      s('io.k8s.apimachinery.pkg.api.resource.Quantity', { type: 'string' }, 'meta/m.json'),
      s('io.k8s.apimachinery.pkg.util.intstr.IntOrString', { type: 'string', format: 'int-or-string' }, 'meta/m.json'),
      s('io.k8s.apimachinery.pkg.runtime.RawExtension', { type: 'object' }, 'meta/m.json'),
      s('x.Thing', {
        type: 'object',
        properties: { metadata: ref(M + 'ObjectMeta'), q: ref('io.k8s.apimachinery.pkg.api.resource.Quantity'), raw: ref('io.k8s.apimachinery.pkg.runtime.RawExtension') },
      }),
      s('x.Unused', { type: 'object', properties: { a: { type: 'string' } } }),
    ]),
    groupVersions: [],
    resources: [{ group: 'x', version: 'v1', kind: 'Thing', listKind: 'ThingList', schema: 'x.Thing', subresources: [] } as unknown as Model['resources'][number]],
  };
  const ms = buildMergeSchema(model);

  it('includes reachable types and meta types only', () => {
    expect(Object.keys(ms.types)).toEqual([
      '__untyped_atomic_',
      '__untyped_deduced_',
      'io.k8s.apimachinery.pkg.api.resource.Quantity',
      M + 'ObjectMeta',
      M + 'Status',
      M + 'Time',
      'io.k8s.apimachinery.pkg.runtime.RawExtension',
      'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
      'x.Thing',
    ]);
  });

  it.each([
    ['io.k8s.apimachinery.pkg.api.resource.Quantity', { scalar: 'untyped' }],
    ['io.k8s.apimachinery.pkg.util.intstr.IntOrString', { scalar: 'untyped' }],
    [M + 'Time', { scalar: 'string' }],
    ['io.k8s.apimachinery.pkg.runtime.RawExtension', { map: { elementType: { named: '__untyped_deduced_' }, elementRelationship: 'separable' } }],
  ])('%s', (name, want) => expect(ms.types[name]).toEqual(want));

  it('defines the reserved untyped types as structured-merge-diff does', () => {
    expect(ms.types.__untyped_deduced_.map).toEqual({ elementType: { named: '__untyped_deduced_' }, elementRelationship: 'separable' });
    expect(ms.types.__untyped_atomic_.list).toEqual({ elementType: { named: '__untyped_atomic_' }, elementRelationship: 'atomic' });
  });
});
