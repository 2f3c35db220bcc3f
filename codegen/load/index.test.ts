import { afterAll, describe, expect, it } from 'vitest';
import { loadSpecs } from './index.ts';
import { fixtureTree, osTempDir } from '../../test/codegen/helpers.ts';

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });

/** A document declaring the given kinds (each with a trivial schema) in group g, version v. */
function doc(g: string, v: string, kinds: string[], settings?: Record<string, unknown>) {
  const schemas: Record<string, unknown> = {};
  for (const k of kinds) {
    schemas[`test.${g}.${v}.${k}`] = { type: 'object', properties: { metadata: ref(M + 'ObjectMeta') }, 'x-kubernetes-group-version-kind': [{ group: g, version: v, kind: k }] };
  }
  return {
    openapi: '3.0.0',
    info: { title: 't', version: v },
    ...(settings ? { 'x-specserver-group-version': { group: g, version: v, ...settings } } : {}),
    'x-specserver-resources': kinds.map((k) => ({ kind: k, plural: `${k.toLowerCase()}s`, verbs: ['get', 'create'] })),
    components: { schemas },
  };
}

const temps: (() => void)[] = [];
afterAll(() => temps.forEach((c) => c()));
function load(files: Record<string, unknown>) {
  const t = osTempDir('cg-load');
  temps.push(t.cleanup);
  return loadSpecs(fixtureTree(t.dir, files));
}
const facts = (m: ReturnType<typeof load>) =>
  m.resources.map((r) => `${r.group}/${r.version}/${r.resource} ${r.stability} ${r.enabledByDefault ? 'on' : 'off'}${r.preferredVersion ? ' preferred' : ''}${r.storageVersion ? ' storage' : ''}`);

describe('registry facts from group-version settings', () => {
  it.each([
    {
      name: 'GA on, beta introduced before 1.22 on, later beta off, alpha off',
      files: {
        'a.json': doc('g.io', 'v1', ['A']),
        'b.json': doc('g.io', 'v1beta1', ['A'], { introduced: '1.21' }),
        'c.json': doc('g.io', 'v1beta2', ['A'], { introduced: '1.25' }),
        'd.json': doc('g.io', 'v1alpha1', ['A']),
      },
      want: ['g.io/v1/as GA on preferred storage', 'g.io/v1alpha1/as alpha off', 'g.io/v1beta1/as beta on', 'g.io/v1beta2/as beta off'],
    },
    {
      name: 'the document can enable a beta, and the newest stable enabled version is preferred',
      files: {
        'b.json': doc('g.io', 'v1beta1', ['A']),
        'c.json': doc('g.io', 'v1beta2', ['A', 'B'], { enabledByDefault: true }),
      },
      want: ['g.io/v1beta1/as beta off', 'g.io/v1beta2/as beta on preferred storage', 'g.io/v1beta2/bs beta on preferred storage'],
    },
    {
      name: 'explicit preferred; storage follows preferred when it serves the resource, else the best enabled version',
      files: {
        'a.json': doc('g.io', 'v1', ['A']),
        'b.json': doc('g.io', 'v1beta1', ['A', 'B'], { introduced: '1.10', preferred: true }),
      },
      want: ['g.io/v1/as GA on', 'g.io/v1beta1/as beta on preferred storage', 'g.io/v1beta1/bs beta on preferred storage'],
    },
    {
      name: 'a resource only in a non-preferred version is stored there',
      files: {
        'a.json': doc('g.io', 'v1', ['A']),
        'b.json': doc('g.io', 'v1beta1', ['B']),
      },
      want: ['g.io/v1/as GA on preferred storage', 'g.io/v1beta1/bs beta off storage'],
    },
  ])('$name', ({ files, want }) => {
    expect(facts(load(files))).toEqual(want);
  });

  it('carries deprecation from the group-version settings', () => {
    const m = load({ 'a.json': doc('g.io', 'v1beta3', ['A'], { deprecatedIn: '1.29', removedIn: '1.32' }) });
    expect(m.resources[0].deprecation).toEqual({ deprecatedIn: '1.29', removedIn: '1.32' });
  });

  it('names the replacement kind in the replacing group-version', () => {
    const m = load({ 'a.json': doc('g.io', 'v1beta3', ['A'], { deprecatedIn: '1.29', replacement: 'g.io/v1' }) });
    expect(m.resources[0].deprecation).toEqual({ deprecatedIn: '1.29', replacement: { group: 'g.io', version: 'v1', kind: 'A' } });
    const core = load({ 'a.json': doc('g.io', 'v1beta1', ['A'], { deprecatedIn: '1.20', replacement: 'v1' }) });
    expect(core.resources[0].deprecation?.replacement).toEqual({ group: '', version: 'v1', kind: 'A' });
  });

  it.each([
    { settings: { deprecatedIn: 'v1.29' }, error: /deprecatedIn must be a release/ },
    { settings: { deprecatedIn: '1.29', removedIn: '1' }, error: /removedIn must be a release/ },
    { settings: { deprecatedIn: '1.29', replacement: 'g.io/V1' }, error: /replacement must be a group-version/ },
    { settings: { replacement: 'g.io/v1' }, error: /replacement needs deprecatedIn/ },
  ])('refuses life-cycle settings $settings', ({ settings, error }) => {
    expect(() => load({ 'a.json': doc('g.io', 'v1beta3', ['A'], settings) })).toThrow(error);
  });

  it('defaults compact entries as docs/spec-format.md says', () => {
    const d = doc('g.io', 'v1', ['Review']);
    (d['x-specserver-resources'][0] as Record<string, unknown>).verbs = ['create'];
    const r = load({ 'a.json': d }).resources[0];
    expect(r).toMatchObject({ singular: 'review', namespaced: true, shortNames: [], categories: [], allowCreateOnUpdate: false, nameRule: 'subdomain', virtual: true, listKind: 'ReviewList' });
  });

  it('takes the group-version from the kinds when the document does not say', () => {
    expect(facts(load({ 'a.json': doc('h.io', 'v2', ['A']) }))).toEqual(['h.io/v2/as GA on preferred storage']);
  });
});
