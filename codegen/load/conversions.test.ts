// x-specserver-conversions as the loader reads it: a good declaration lands
// on its version's resource; each mistake fails codegen with the file and
// the JSON path of the offending key.
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpecs } from './index.ts';
import { fixtureTree, osTempDir } from '../../test/codegen/helpers.ts';

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const int = { type: 'integer', format: 'int32' };

/** A document of kind A in g.io/<v> whose spec has the given properties. */
function doc(v: string, spec: Record<string, unknown>, conversions?: unknown, settings: Record<string, unknown> = {}) {
  return {
    openapi: '3.0.0',
    info: { title: 't', version: v },
    'x-specserver-group-version': { group: 'g.io', version: v, ...settings },
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
      },
    },
  };
}

const hub = doc('v1', { size: int, shares: int, extra: { type: 'object', properties: { x: { type: 'string' } } } });
const spoke = (conversions: unknown) => doc('v1beta1', { oldSize: int, shares: int }, conversions, { enabledByDefault: true });

const temps: (() => void)[] = [];
afterAll(() => temps.forEach((c) => c()));
function load(files: Record<string, unknown>) {
  const t = osTempDir('cg-conv');
  temps.push(t.cleanup);
  return loadSpecs(fixtureTree(t.dir, files));
}

const good = [
  {
    kind: 'A',
    hub: 'v1',
    rules: [
      { rename: 'spec.oldSize', to: 'spec.size' },
      { keepInAnnotation: 'spec.extra', annotation: 'g.io/extra' },
      { zeroAnnotation: 'g.io/zero', field: 'spec.shares' },
    ],
    defaults: [{ field: 'spec.shares', value: 30, zeroIsUnset: true, unlessAnnotation: 'g.io/zero' }],
  },
];

describe('x-specserver-conversions', () => {
  it('puts the declared conversion on the version that declares it, as data', () => {
    const m = load({ 'v1.json': hub, 'v1beta1.json': spoke(good) });
    const byVersion = Object.fromEntries(m.resources.map((r) => [r.version, r.conversion]));
    expect(byVersion.v1).toBeUndefined();
    expect(byVersion.v1beta1).toEqual({
      hub: 'v1',
      rules: [
        { op: 'rename', from: ['spec', 'oldSize'], to: ['spec', 'size'] },
        { op: 'annotation', field: ['spec', 'extra'], annotation: 'g.io/extra' },
        { op: 'zeroAnnotation', annotation: 'g.io/zero', field: ['spec', 'shares'] },
      ],
      defaults: [{ field: ['spec', 'shares'], value: 30, zeroIsUnset: true, unlessAnnotation: 'g.io/zero' }],
    });
  });

  const at = '$.x-specserver-conversions[0]';
  it.each([
    ['not a list', { kind: 'A' }, '$.x-specserver-conversions: x-specserver-conversions must be a list'],
    ['an unknown key', [{ kind: 'A', hub: 'v1', renames: [] }], `${at}.renames: unknown key renames`],
    ['a kind the document does not serve', [{ kind: 'B', hub: 'v1' }], `${at}.kind: kind B is not a resource of g.io/v1beta1`],
    ['a hub serving no such kind', [{ kind: 'A', hub: 'v2' }], `${at}.hub: hub v2: g.io/v2 serves no A`],
    ['its own version as hub', [{ kind: 'A', hub: 'v1beta1' }], `${at}.hub: hub v1beta1 is this document's own version`],
    ['a rename from a field this version lacks', [{ kind: 'A', hub: 'v1', rules: [{ rename: 'spec.nope', to: 'spec.size' }] }], `${at}.rules[0].rename: spec.nope is not a field of A in v1beta1`],
    ['a rename to a field the hub lacks', [{ kind: 'A', hub: 'v1', rules: [{ rename: 'spec.oldSize', to: 'spec.nope' }] }], `${at}.rules[0].to: spec.nope is not a field of A in v1`],
    [
      'keeping a field this version has',
      [{ kind: 'A', hub: 'v1', rules: [{ keepInAnnotation: 'spec.shares', annotation: 'g.io/s' }] }],
      `${at}.rules[0].keepInAnnotation: spec.shares is a field of v1beta1 too`,
    ],
    ['a zero annotation on a non-number', [{ kind: 'A', hub: 'v1', rules: [{ zeroAnnotation: 'g.io/z', field: 'spec.extra' }] }], `${at}.rules[0].field: spec.extra is not a number in v1`],
    ['a rule of no known shape', [{ kind: 'A', hub: 'v1', rules: [{ move: 'spec.a' }] }], `${at}.rules[0]: a rule is one of`],
    ['a path into metadata', [{ kind: 'A', hub: 'v1', rules: [{ rename: 'metadata.name', to: 'spec.size' }] }], `${at}.rules[0].rename: rename may not name metadata`],
    ['a default of the wrong type', [{ kind: 'A', hub: 'v1', defaults: [{ field: 'spec.shares', value: 'x' }] }], `${at}.defaults[0].value: value is string, but spec.shares is integer`],
    ['a default without a value', [{ kind: 'A', hub: 'v1', defaults: [{ field: 'spec.shares' }] }], `${at}.defaults[0].value: value is required`],
    [
      'a kind declared twice',
      [
        { kind: 'A', hub: 'v1' },
        { kind: 'A', hub: 'v1' },
      ],
      '$.x-specserver-conversions[1].kind: kind A is declared twice',
    ],
  ])('refuses %s, naming the file and the JSON path', (_name, conversions, message) => {
    expect(() => load({ 'v1.json': hub, 'v1beta1.json': spoke(conversions) })).toThrow(`v1beta1.json: ${message}`);
  });

  it('refuses a hub that converts itself', () => {
    const v2 = doc('v2', { size: int }, [{ kind: 'A', hub: 'v1beta1' }]);
    expect(() => load({ 'v1.json': hub, 'v1beta1.json': spoke([{ kind: 'A', hub: 'v1' }]), 'v2.json': v2 })).toThrow(
      'v2.json: $.x-specserver-conversions[0].hub: hub v1beta1 declares a conversion of its own',
    );
  });
});
