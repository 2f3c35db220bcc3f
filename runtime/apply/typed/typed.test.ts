// Unit tests of the schema-driven operations on a small schema: field sets,
// comparison, merge, removal, named-field membership, defaults, reconcile.
import { describe, expect, it } from 'vitest';
import type { MergeSchema, TypeRef } from '../../../generated/api-types.ts';
import { pathToString } from '../fieldpath/element.ts';
import { fieldsV1ToSet, setToFieldsV1 } from '../fieldpath/serialize.ts';
import type { FieldSet } from '../fieldpath/set.ts';
import { SchemaView } from '../schema/resolve.ts';
import { fixtureSchema } from '../scenarios/fixture-schema.ts';
import type { Obj } from '../value/json.ts';
import { compare } from './compare.ts';
import { restoreDefaults } from './defaults.ts';
import { merge } from './merge.ts';
import { ensureNamedFieldsAreMembers } from './named-fields.ts';
import { reconcileFieldSet } from './reconcile.ts';
import { removeItems } from './remove.ts';
import { toFieldSet } from './to-field-set.ts';

const view = new SchemaView(fixtureSchema);
const T: TypeRef = { named: 'Thing' };
const paths = (s: FieldSet) => s.paths().map(pathToString);

describe('toFieldSet', () => {
  it.each([
    [{ spec: { replicas: 1 } }, ['.spec.replicas']],
    [{ spec: {} }, ['.spec']],
    [{ spec: null }, ['.spec']],
    [{ spec: { args: ['a'] } }, ['.spec.args']],
    [{ spec: { tags: ['b', 'a'] } }, ['.spec.tags[="a"]', '.spec.tags[="b"]']],
    [{ spec: { config: { k: 'v' } } }, ['.spec.config.k']],
    [{ spec: { frozen: { k: 'v' } } }, ['.spec.frozen']],
    [{ spec: { containers: [{ name: 'c', image: 'i' }] } }, ['.spec.containers[name="c"]', '.spec.containers[name="c"].image', '.spec.containers[name="c"].name']],
    [{ spec: { extra: { a: { b: 1 } } } }, ['.spec.extra.a', '.spec.extra.a.b']],
    [{ unknown: { x: 1 } }, ['.unknown', '.unknown.x']],
  ] as [Obj, string[]][])('%j', (v, want) => expect(paths(toFieldSet(view, T, v))).toEqual(want));

  it.each([
    [{ spec: { containers: [{ image: 'x' }] } }, /omits key field "name"/],
    [{ spec: { containers: ['x'] } }, /non-map elements/],
    [{ spec: { containers: [null] } }, /null element/],
    [{ spec: { tags: [{}] } }, /map type/],
    [{ spec: { tags: [[1]] } }, /lists as elements/],
    [{ spec: { tags: [null] } }, /explicit null/],
    [{ spec: { tags: ['a', 'a'] } }, /duplicate entries/],
  ] as [Obj, RegExp][])('rejects %j', (v, re) => expect(() => toFieldSet(view, T, v)).toThrow(re));

  it('owns duplicated items whole when duplicates are allowed', () => {
    const v = {
      spec: {
        containers: [
          { name: 'c', image: '1' },
          { name: 'c', image: '2' },
        ],
      },
    };
    expect(paths(toFieldSet(view, T, v, { allowDuplicates: true }))).toEqual(['.spec.containers[name="c"]']);
  });
});

describe('compare', () => {
  it.each([
    [{ spec: { replicas: 1 } }, { spec: { replicas: 2 } }, [], ['.spec.replicas'], []],
    [{}, { spec: { replicas: 2 } }, ['.spec', '.spec.replicas'], [], []],
    [{ spec: { replicas: 2, paused: true } }, { spec: { replicas: 2 } }, [], [], ['.spec.paused']],
    [{ spec: { args: ['a'] } }, { spec: { args: ['a', 'b'] } }, [], ['.spec.args'], []],
    [{ spec: { tags: ['a'] } }, { spec: { tags: ['b'] } }, ['.spec.tags[="b"]'], [], ['.spec.tags[="a"]']],
    [{ spec: { tags: ['a', 'b'] } }, { spec: { tags: ['b', 'a'] } }, [], [], []],
    [{ spec: { config: {} } }, { spec: { config: null } }, [], ['.spec.config'], []],
    [{ spec: { replicas: 1 } }, { spec: { replicas: '1' } }, [], ['.spec.replicas'], []],
    [{ spec: { extra: 'x' } }, { spec: { extra: { a: 1 } } }, [], ['.spec.extra'], []],
  ] as [Obj, Obj, string[], string[], string[]][])('%j -> %j', (l, r, added, modified, removed) => {
    const c = compare(view, T, l, r);
    expect([paths(c.added), paths(c.modified), paths(c.removed)]).toEqual([added, modified, removed]);
  });
});

describe('merge', () => {
  it.each([
    [{ spec: { replicas: 1, paused: true } }, { spec: { replicas: 2 } }, { spec: { replicas: 2, paused: true } }],
    [{ spec: { args: ['a', 'b'] } }, { spec: { args: ['c'] } }, { spec: { args: ['c'] } }],
    [{ spec: { frozen: { a: '1' } } }, { spec: { frozen: { b: '2' } } }, { spec: { frozen: { b: '2' } } }],
    [{ spec: { config: { a: '1' } } }, { spec: { config: { b: '2' } } }, { spec: { config: { a: '1', b: '2' } } }],
    [{ spec: { tags: ['a', 'b'] } }, { spec: { tags: ['c', 'a'] } }, { spec: { tags: ['c', 'a', 'b'] } }],
    [{ spec: { containers: [{ name: 'x', image: '1' }] } }, { spec: { containers: [{ name: 'x', args: ['z'] }] } }, { spec: { containers: [{ name: 'x', image: '1', args: ['z'] }] } }],
    [{}, { spec: { config: {} } }, { spec: { config: {} } }],
  ] as [Obj, Obj, Obj][])('%j + %j', (l, r, want) => expect(merge(view, T, l, r)).toEqual(want));

  it('does not change its inputs', () => {
    const l: Obj = { spec: { containers: [{ name: 'x', image: '1' }] } };
    const r: Obj = { spec: { containers: [{ name: 'x', image: '2' }, { name: 'y' }] } };
    const ls = JSON.stringify(l);
    const rs = JSON.stringify(r);
    merge(view, T, l, r);
    expect([JSON.stringify(l), JSON.stringify(r)]).toEqual([ls, rs]);
  });
});

describe('removeItems and named fields', () => {
  const obj: Obj = { spec: { replicas: 1, tags: ['a', 'b'], containers: [{ name: 'x', image: '1' }, { name: 'y' }], args: ['q'], config: { k: 'v' } } };
  it.each([
    [{ 'f:spec': { 'f:replicas': {} } }, { spec: { tags: ['a', 'b'], containers: [{ name: 'x', image: '1' }, { name: 'y' }], args: ['q'], config: { k: 'v' } } }],
    [
      { 'f:spec': { 'f:tags': { 'v:"a"': {} }, 'f:containers': { 'k:{"name":"x"}': { 'f:image': {} } } } },
      { spec: { replicas: 1, tags: ['b'], containers: [{ name: 'x' }, { name: 'y' }], args: ['q'], config: { k: 'v' } } },
    ],
    [
      { 'f:spec': { 'f:containers': { 'k:{"name":"y"}': {} }, 'f:config': { 'f:k': {} } } },
      { spec: { replicas: 1, tags: ['a', 'b'], containers: [{ name: 'x', image: '1' }], args: ['q'], config: {} } },
    ],
    [{}, obj],
  ] as [Obj, Obj][])('removes %j', (set, want) => expect(removeItems(view, T, obj, fieldsV1ToSet(set))).toEqual(want));

  it('makes declared struct fields members, not map keys', () => {
    const s = fieldsV1ToSet({ 'f:spec': { 'f:config': { 'f:k': {} }, 'f:containers': { 'k:{"name":"x"}': { 'f:resources': { 'f:limits': { 'f:cpu': {} } } } } } });
    expect(setToFieldsV1(ensureNamedFieldsAreMembers(view, T, s))).toEqual({
      'f:spec': { '.': {}, 'f:config': { '.': {}, 'f:k': {} }, 'f:containers': { '.': {}, 'k:{"name":"x"}': { 'f:resources': { '.': {}, 'f:limits': { '.': {}, 'f:cpu': {} } } } } },
    });
  });
});

describe('restoreDefaults', () => {
  it.each([
    [{ spec: { replicas: 3, paused: true } }, { spec: { paused: true } }, { spec: { paused: true, replicas: 1 } }],
    [{ spec: { ports: [{ containerPort: 1, protocol: 'TCP', name: 'n' }] } }, { spec: { ports: [{ containerPort: 1 }] } }, { spec: { ports: [{ containerPort: 1, protocol: 'TCP' }] } }],
    [{ spec: { strategy: { type: 'Recreate' } } }, { spec: { strategy: {} } }, { spec: { strategy: { type: 'RollingUpdate' } } }],
    [{ spec: { paused: true } }, { spec: { paused: true } }, { spec: { paused: true } }],
    [{ spec: { replicas: 3 } }, {}, {}],
  ] as [Obj, Obj, Obj][])('%j -> %j', (before, after, want) => expect(restoreDefaults(view, T, before, after)).toEqual(want));
});

describe('reconcileFieldSet', () => {
  const atomicConfig: MergeSchema = structuredClone(fixtureSchema);
  atomicConfig.types.Spec.map!.fields!.find((f) => f.name === 'config')!.type = { inline: { map: { elementType: { inline: { scalar: 'string' } }, elementRelationship: 'atomic' } } };
  const atomicView = new SchemaView(atomicConfig);
  it.each([
    ['granular map now atomic', atomicView, { 'f:spec': { 'f:config': { 'f:a': {} }, 'f:replicas': {} } }, { 'f:spec': { 'f:config': {}, 'f:replicas': {} } }],
    ['member with children now atomic', atomicView, { 'f:spec': { 'f:config': { '.': {}, 'f:a': {} } } }, { 'f:spec': { 'f:config': {} } }],
    ['list items below a now atomic list', atomicView, { 'f:spec': { 'f:containers': { 'k:{"name":"c"}': { 'f:args': {} } } } }, undefined],
    ['atomic value now granular: unchanged', view, { 'f:spec': { 'f:config': {} } }, undefined],
    ['nothing to do', view, { 'f:spec': { 'f:replicas': {} } }, undefined],
  ] as [string, SchemaView, Obj, Obj | undefined][])('%s', (_n, v, set, want) => {
    const r = reconcileFieldSet(v, T, fieldsV1ToSet(set));
    expect(r && setToFieldsV1(r)).toEqual(want);
  });
});
