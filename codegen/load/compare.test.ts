import { describe, expect, it } from 'vitest';
import { schemaConflict } from './compare.ts';

const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });

describe('schemaConflict', () => {
  it.each([
    { name: 'identical', a: { type: 'string' }, b: { type: 'string' }, want: null },
    { name: 'prose, defaults and enums may differ', a: { type: 'string', description: 'x' }, b: { type: 'string', default: '', enum: ['a'] }, want: null },
    { name: 'allOf-wrapped ref equals plain ref', a: { properties: { m: ref('M') } }, b: { properties: { m: { allOf: [ref('M')], default: {} } } }, want: null },
    { name: 'implied atomic list', a: { type: 'array', items: { type: 'string' } }, b: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' }, want: null },
    {
      name: 'implied map list from merge key',
      a: { type: 'array', items: ref('O'), 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'uid' },
      b: { type: 'array', items: ref('O'), 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['uid'] },
      want: null,
    },
    {
      name: 'implied set from merge on scalars',
      a: { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'merge' },
      b: { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-list-type': 'set' },
      want: null,
    },
    { name: 'list type on a non-list is ignored', a: { ...ref('S') }, b: { ...ref('S'), 'x-kubernetes-list-type': 'atomic' }, want: null },
    { name: 'a field only one side has', a: { properties: { a: { type: 'string' } } }, b: { properties: { a: { type: 'string' }, b: { type: 'integer' } } }, want: null },
    { name: 'type differs', a: { properties: { a: { type: 'string' } } }, b: { properties: { a: { type: 'integer' } } }, want: '$.properties.a' },
    {
      name: 'list semantics differ',
      a: { properties: { l: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } } },
      b: { properties: { l: { type: 'array', items: { type: 'string' } } } },
      want: '$.properties.l',
    },
    { name: 'element types differ', a: { type: 'array', items: ref('A') }, b: { type: 'array', items: ref('B') }, want: '$.items' },
    {
      name: 'map value types differ',
      a: { type: 'object', additionalProperties: { type: 'string' } },
      b: { type: 'object', additionalProperties: { type: 'integer' } },
      want: '$.additionalProperties',
    },
    { name: 'map vs struct', a: { type: 'object', additionalProperties: { type: 'string' } }, b: { type: 'object' }, want: '$.additionalProperties' },
  ])('$name', ({ a, b, want }) => {
    expect(schemaConflict(a, b)).toBe(want);
  });
});
