// A conversion whose hub is another group's (hubGroup): the kind becomes
// one set of objects with the hub group's resource, stored there (its own
// group's version is not a storage version), and its field-selector labels
// map through the renames onto the hub's; each mistake fails codegen with
// the file and the JSON path.
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpecs } from './index.ts';
import { fixtureTree, osTempDir } from '../../test/codegen/helpers.ts';

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const ptr = { type: 'object', properties: { kind: { type: 'string' }, name: { type: 'string' } } };

/** A document of kind A in <group>/v1 with top-level properties. */
function doc(group: string, props: Record<string, unknown>, resource: Record<string, unknown>, conversions?: unknown) {
  const id = group.replace(/\W/g, '');
  return {
    openapi: '3.0.0',
    info: { title: 't', version: 'v1' },
    'x-specserver-group-version': { group, version: 'v1' },
    'x-specserver-resources': [{ kind: 'A', plural: 'as', verbs: ['get', 'list', 'create'], ...resource }],
    ...(conversions !== undefined ? { 'x-specserver-conversions': conversions } : {}),
    components: {
      schemas: {
        [`io.${id}.v1.A`]: {
          type: 'object',
          properties: { metadata: ref(M + 'ObjectMeta'), ...props },
          'x-kubernetes-group-version-kind': [{ group, version: 'v1', kind: 'A' }],
        },
      },
    },
  };
}

const hub = doc('h.io', { target: ptr, text: { type: 'string' }, kind2: { type: 'string' } }, { selectableFields: ['target.kind', 'target.name', 'kind2'] });
const rules = [
  { rename: 'about', to: 'target' },
  { rename: 'note', to: 'text' },
];
const spoke = (resource: Record<string, unknown>, conversions: unknown = [{ kind: 'A', hub: 'v1', hubGroup: 'h.io', rules }]) =>
  doc('g.io', { about: ptr, note: { type: 'string' }, kind2: { type: 'string' } }, resource, conversions);

const temps: (() => void)[] = [];
afterAll(() => temps.forEach((c) => c()));
function load(files: Record<string, unknown>) {
  const t = osTempDir('cg-cross');
  temps.push(t.cleanup);
  return loadSpecs(fixtureTree(t.dir, files));
}

describe('a hub in another group', () => {
  it('stores the kind with the hub group and maps its field labels through the renames', () => {
    const m = load({ 'h.json': hub, 'g.json': spoke({ selectableFields: ['about.kind', 'kind2'] }) });
    const g = m.resources.find((r) => r.group === 'g.io')!;
    const h = m.resources.find((r) => r.group === 'h.io')!;
    expect(g.storageVersion).toBe(false);
    expect(h.storageVersion).toBe(true);
    expect(g.conversion).toEqual({
      hub: 'v1',
      hubGroup: 'h.io',
      rules: [
        { op: 'rename', from: ['about'], to: ['target'] },
        { op: 'rename', from: ['note'], to: ['text'] },
      ],
      defaults: [],
      fieldLabels: { 'about.kind': 'target.kind' },
    });
  });

  const at = '$.x-specserver-conversions[0]';
  it.each([
    ['a hub group serving no such kind', {}, [{ kind: 'A', hub: 'v1', hubGroup: 'nope.io', rules }], `${at}.hub: hub v1: nope.io/v1 serves no A`],
    ['another resource name', { plural: 'bs' }, undefined, `${at}.hubGroup: g.io/v1 bs and its hub h.io/v1 as are not one resource`],
    ['another scope', { scope: 'Cluster' }, undefined, `${at}.hubGroup: g.io/v1 as and its hub h.io/v1 as differ in scope`],
    ['a hubGroup that is not a string', {}, [{ kind: 'A', hub: 'v1', hubGroup: 3 }], `${at}.hubGroup: hubGroup must be a string`],
    ['a selectable field the hub lacks', { selectableFields: ['about.name', 'note'] }, undefined, `${at}.kind: selectable field note of g.io/v1 A is not one of its hub's (text there)`],
  ])('refuses %s', (_name, resource, conversions, message) => {
    expect(() => load({ 'h.json': hub, 'g.json': spoke(resource, conversions) })).toThrow(`g.json: ${message}`);
  });
});
