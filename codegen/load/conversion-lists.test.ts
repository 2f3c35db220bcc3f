// The x-specserver-conversions rules over lists as the loader reads them
// (itemField, keepInAnnotation's itemRules and goFieldNames): a good
// declaration lands on its version's resource as data; each mistake fails
// codegen with the file and the JSON path of the offending key.
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpecs } from './index.ts';
import { fixtureTree, osTempDir } from '../../test/codegen/helpers.ts';

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const int = { type: 'integer', format: 'int32' };
const str = { type: 'string' };

function doc(v: string, spec: Record<string, unknown>, conversions?: unknown, extra: Record<string, unknown> = {}) {
  return {
    openapi: '3.0.0',
    info: { title: 't', version: v },
    'x-specserver-group-version': { group: 'g.io', version: v, enabledByDefault: true },
    'x-specserver-resources': [{ kind: 'A', plural: 'as', verbs: ['get', 'create'] }],
    ...(conversions !== undefined ? { 'x-specserver-conversions': conversions } : {}),
    components: {
      schemas: {
        [`io.g.${v}.A`]: {
          type: 'object',
          properties: { metadata: ref(M + 'ObjectMeta'), spec: ref(`io.g.${v}.ASpec`) },
          'x-kubernetes-group-version-kind': [{ group: 'g.io', version: v, kind: 'A' }],
        },
        [`io.g.${v}.ASpec`]: { type: 'object', properties: spec },
        ...extra,
      },
    },
  };
}

// the hub: a list of metric items and a behavior; the spoke: one scalar
const hub = doc('v1', { metrics: { type: 'array', items: ref('io.g.v1.Metric') }, behavior: { type: 'object', properties: { scaleUp: int } } }, undefined, {
  'io.g.v1.Metric': { type: 'object', properties: { type: str, resource: { type: 'object', properties: { name: str, target: { type: 'object', properties: { type: str, utilization: int } } } } } },
});
const spoke = (conversions: unknown) => doc('v1beta1', { cpu: int }, conversions);

const temps: (() => void)[] = [];
afterAll(() => temps.forEach((c) => c()));
function load(files: Record<string, unknown>) {
  const t = osTempDir('cg-conv-lists');
  temps.push(t.cleanup);
  return loadSpecs(fixtureTree(t.dir, files));
}

const itemField = { itemField: 'spec.cpu', list: 'spec.metrics', match: { type: 'Resource', resource: { name: 'cpu' } }, value: 'resource.target.utilization' };
const kept = {
  keepInAnnotation: 'spec.metrics',
  annotation: 'g.io/metrics',
  itemRules: [
    { rename: 'resource.targetUtilization', to: 'resource.target.utilization' },
    { derive: 'resource.target.type', when: 'resource', cases: [{ ifPresent: 'resource.target.utilization', value: 'Utilization' }], otherwise: 'AverageValue' },
  ],
};
const rules = (...r: unknown[]) => [{ kind: 'A', hub: 'v1', rules: r }];

describe('x-specserver-conversions over lists', () => {
  it('puts itemField, itemRules, goFieldNames, dropMalformed and goType on the version as data', () => {
    const m = load({
      'v1.json': hub,
      'v1beta1.json': spoke(rules(kept, itemField, { keepInAnnotation: 'spec.behavior', annotation: 'g.io/b', goFieldNames: true, dropMalformed: true, goType: 'v1.B' })),
    });
    expect(m.resources.find((r) => r.version === 'v1beta1')!.conversion!.rules).toEqual([
      {
        op: 'annotation',
        field: ['spec', 'metrics'],
        annotation: 'g.io/metrics',
        items: [
          { op: 'rename', from: ['resource', 'targetUtilization'], to: ['resource', 'target', 'utilization'] },
          {
            op: 'derive',
            field: ['resource', 'target', 'type'],
            when: ['resource'],
            cases: [{ ifPresent: ['resource', 'target', 'utilization'], value: 'Utilization' }],
            otherwise: 'AverageValue',
          },
        ],
      },
      { op: 'itemField', field: ['spec', 'cpu'], list: ['spec', 'metrics'], match: { type: 'Resource', resource: { name: 'cpu' } }, value: ['resource', 'target', 'utilization'] },
      { op: 'annotation', field: ['spec', 'behavior'], annotation: 'g.io/b', goFieldNames: true, dropMalformed: true, goType: 'v1.B' },
    ]);
  });

  const at = '$.x-specserver-conversions[0].rules[0]';
  it.each([
    ['itemRules on a field that is not a list', rules({ ...kept, keepInAnnotation: 'spec.behavior' }), `${at}.itemRules: spec.behavior is not a list in v1`],
    [
      'an item rename to a field the items lack',
      rules({ ...kept, itemRules: [{ rename: 'x', to: 'resource.nope' }] }),
      `${at}.itemRules[0].to: resource.nope is not a field of the items of spec.metrics in v1`,
    ],
    [
      'a derive whose case names no field of the items',
      rules({ ...kept, itemRules: [{ derive: 'type', when: 'resource', cases: [{ ifPresent: 'nope', value: 'x' }], otherwise: 'y' }] }),
      `${at}.itemRules[0].cases[0].ifPresent: nope is not a field`,
    ],
    [
      'a derived value of the wrong type',
      rules({ ...kept, itemRules: [{ derive: 'type', when: 'resource', otherwise: 3 }] }),
      `${at}.itemRules[0].otherwise: otherwise is integer, but type is string`,
    ],
    ['a derive without otherwise', rules({ ...kept, itemRules: [{ derive: 'type', when: 'resource' }] }), `${at}.itemRules[0].otherwise: otherwise is required`],
    ['an item rule of no known shape', rules({ ...kept, itemRules: [{ move: 'a' }] }), `${at}.itemRules[0]: an item rule is one of`],
    ['goFieldNames that is not a boolean', rules({ keepInAnnotation: 'spec.behavior', annotation: 'g.io/b', goFieldNames: 'yes' }), `${at}.goFieldNames: goFieldNames must be a boolean`],
    ['a goType that is not text', rules({ keepInAnnotation: 'spec.behavior', annotation: 'g.io/b', goType: 3 }), `${at}.goType`],
    ['dropMalformed that is not a boolean', rules({ keepInAnnotation: 'spec.behavior', annotation: 'g.io/b', dropMalformed: 1 }), `${at}.dropMalformed: dropMalformed must be a boolean`],
    ['an itemField the version lacks', rules({ ...itemField, itemField: 'spec.mem' }), `${at}.itemField: spec.mem is not a field of v1beta1`],
    ['an itemField over a field that is not a list', rules({ ...itemField, list: 'spec.behavior' }), `${at}.list: spec.behavior is not a list in v1`],
    ['a match naming no field of the items', rules({ ...itemField, match: { kind: 'x' } }), `${at}.match.kind: kind is not a field of the items of spec.metrics in v1`],
    ['a match value of the wrong type', rules({ ...itemField, match: { resource: { name: 3 } } }), `${at}.match.resource.name: integer does not fit resource.name, which is string`],
    ['an empty match', rules({ ...itemField, match: {} }), `${at}.match: match must be an object`],
    ['an item value of another type than the field', rules({ ...itemField, value: 'resource.name' }), `${at}.value: resource.name is string in the items, but spec.cpu is integer`],
    ['an unknown key', rules({ ...itemField, keep: true }), `${at}.keep: unknown key keep`],
  ])('refuses %s, naming the file and the JSON path', (_name, conversions, message) => {
    expect(() => load({ 'v1.json': hub, 'v1beta1.json': spoke(conversions) })).toThrow(`v1beta1.json: ${message}`);
  });
});
