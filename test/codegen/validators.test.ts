// Behaviour of the generated validators, compiled from the test-only Widget
// spec and Gadget CRD: every unknown field reported with its path, types,
// enums, required fields, bounds, formats, int-or-string, Quantity,
// preserve-unknown-fields and embedded-resource subtrees, JSON null.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SchemaIssue, SchemaValidator } from '../../generated/api-types.ts';
import { generate } from '../../codegen/generate.ts';
import { validatorRoots } from '../../codegen/emit/validators.ts';
import { loadSpecs } from '../../codegen/load/index.ts';
import { fixturesDir, fixtureTree, specsDir, tempDir } from './helpers.ts';

const t = tempDir('cg-validators');
let widget: SchemaValidator;
let gadget: SchemaValidator;
let validators: Record<string, () => Promise<SchemaValidator>>;

beforeAll(async () => {
  const specs = fixtureTree(t.dir, {
    'example.dev_v1.json': readFileSync(join(fixturesDir, 'widget', 'example.dev_v1.json'), 'utf8'),
    'gadgets.yaml': readFileSync(join(fixturesDir, 'crd', 'gadgets.toys.example.dev.yaml'), 'utf8'),
  });
  await generate(specs, join(t.dir, 'out'));
  validators = (await import(join(t.dir, 'out', 'validators', 'index.ts'))).validators;
  widget = await validators['dev.example.v1.Widget']();
  gadget = await validators['dev.example.toys.v1.Gadget']();
}, 120_000);
afterAll(() => t.cleanup());

const W = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'example.dev/v1',
  kind: 'Widget',
  metadata: { name: 'w' },
  spec: { color: 'red', ...spec },
  ...extra,
});
const brief = (issues: SchemaIssue[]) => issues.map((i) => `${i.kind} ${i.path}`).sort();

describe('Widget validator', () => {
  it.each<{ name: string; value: unknown; want: string[] }>([
    { name: 'minimal valid', value: W({}), want: [] },
    {
      name: 'everything valid',
      value: W(
        {
          size: 100,
          weight: '1.5Gi',
          replicas: '50%',
          payload: 'aGVsbG8=',
          labels: { a: 'b' },
          selector: { x: 'y' },
          tags: ['a'],
          parts: [{ name: 'p', count: 2 }],
          ports: [{ port: 80 }],
          notes: ['n'],
          config: { deep: { any: [1, 'x'] } },
          template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { whatever: 1 } },
          extension: { kind: 'Any', stuff: true },
        },
        { status: { phase: 'Ready', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2024-01-02T03:04:05Z' }] } },
      ),
      want: [],
    },
    {
      name: 'every unknown field, with paths',
      value: W(
        {
          bogus: 1,
          parts: [
            { name: 'a', extra: 1 },
            { name: 'b', more: 2 },
          ],
        },
        { top: 1, metadata: { name: 'w', nope: true, ownerReferences: [{ apiVersion: 'v1', kind: 'K', name: 'n', uid: 'u', zzz: 1 }] }, status: { huh: 1 } },
      ),
      want: [
        'unknown metadata.nope',
        'unknown metadata.ownerReferences[0].zzz',
        'unknown spec.bogus',
        'unknown spec.parts[0].extra',
        'unknown spec.parts[1].more',
        'unknown status.huh',
        'unknown top',
      ],
    },
    { name: 'required', value: { apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { parts: [{}] } }, want: ['required spec.color', 'required spec.parts[0].name'] },
    { name: 'enum', value: W({ color: 'pink' }), want: ['enum spec.color'] },
    { name: 'types', value: W({ size: 'big', tags: 'a', labels: { a: 1 }, notes: [1] }), want: ['type spec.labels[a]', 'type spec.notes[0]', 'type spec.size', 'type spec.tags'] },
    { name: 'declared bounds', value: W({ size: 101 }), want: ['bounds spec.size'] },
    { name: 'int32 bounds', value: W({ parts: [{ name: 'a', count: 2147483648 }] }), want: ['bounds spec.parts[0].count'] },
    { name: 'int64 accepts large integers but not fractions', value: W({}, { status: { observedGeneration: 1.5 } }), want: ['type status.observedGeneration'] },
    { name: 'int-or-string accepts an integer', value: W({ replicas: 3 }), want: [] },
    { name: 'int-or-string rejects other types', value: W({ replicas: true }), want: ['type spec.replicas'] },
    { name: 'Quantity accepts a number', value: W({ weight: 2 }), want: [] },
    { name: 'Quantity rejects an object', value: W({ weight: {} }), want: ['type spec.weight'] },
    { name: 'Quantity rejects a malformed string', value: W({ weight: 'lots' }), want: ['format spec.weight'] },
    { name: 'byte must be base64', value: W({ payload: 'not base64!' }), want: ['format spec.payload'] },
    { name: 'date-time format', value: W({}, { metadata: { name: 'w', creationTimestamp: 'yesterday' } }), want: ['format metadata.creationTimestamp'] },
    { name: 'null reads as absent', value: W({ size: null, labels: null }, { status: null }), want: [] },
    { name: 'apiVersion and kind must be strings', value: { apiVersion: 1, kind: [], metadata: { name: 'w' }, spec: { color: 'red' } }, want: ['type apiVersion', 'type kind'] },
  ])('$name', ({ value, want }) => expect(brief(widget(value))).toEqual(want));

  it('messages name the path as kube-apiserver does', () => {
    expect(widget(W({ bogus: 1 }))).toEqual([{ kind: 'unknown', path: 'spec.bogus', message: 'unknown field "spec.bogus"' }]);
    expect(widget(W({ color: 'pink' }))[0].message).toBe('Unsupported value: "pink": supported values: "blue", "green", "red"');
  });
});

describe('Gadget (CRD) validator', () => {
  const G = (spec: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'toys.example.dev/v1',
    kind: 'Gadget',
    metadata: { name: 'g' },
    spec: { mode: 'fast', ...spec },
    ...extra,
  });
  it.each<{ name: string; value: unknown; want: string[] }>([
    { name: 'valid', value: G({ replicas: 2, size: 3, items: [{ name: 'a', value: 'b' }], slots: [{ id: 1 }], settings: { a: 'b' }, extra: { x: { y: 1 } } }), want: [] },
    { name: 'int-or-string', value: G({ size: '10%' }), want: [] },
    {
      name: 'unknown fields in the schema, not in preserved subtrees',
      value: G({ extra: { free: 1 }, items: [{ name: 'a', nope: 1 }] }, { metadata: { name: 'g', labels: { a: 'b' } }, status: { replicas: 1, what: 1 } }),
      want: ['unknown spec.items[0].nope', 'unknown status.what'],
    },
    {
      name: 'bounds, enum and required',
      value: { apiVersion: 'toys.example.dev/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: { replicas: -1, slots: [{ label: 'x' }] } },
      want: ['bounds spec.replicas', 'required spec.mode', 'required spec.slots[0].id'],
    },
    { name: 'map values', value: G({ settings: { a: 1 } }), want: ['type spec.settings[a]'] },
  ])('$name', ({ value, want }) => expect(brief(gadget(value))).toEqual(want));

  it('has validators for lists too, and loads each group-version lazily', async () => {
    expect(Object.keys(validators).sort()).toEqual([
      'dev.example.toys.v1.Gadget',
      'dev.example.toys.v1.GadgetList',
      'dev.example.toys.v1beta1.Gadget',
      'dev.example.toys.v1beta1.GadgetList',
      'dev.example.v1.Widget',
      'dev.example.v1.WidgetList',
    ]);
    const list = await validators['dev.example.v1.WidgetList']();
    expect(brief(list({ apiVersion: 'example.dev/v1', kind: 'WidgetList', metadata: {}, items: [{ metadata: { name: 'a' }, spec: { color: 'no' } }] }))).toEqual(['enum items[0].spec.color']);
  });
});

describe('many failing items', () => {
  // every item of a long list fails in a nested validator: the errors are gathered
  // in place (no copy per call) and at most MAX_SCHEMA_ISSUES are reported
  it.each([10, 999, 5000, 200_000])('%i bad parts give min(n, 1000) issues, first ones first', (n) => {
    const issues = widget(W({ parts: Array.from({ length: n }, () => ({ name: 1 })) }));
    expect(issues.length).toBe(Math.min(n, 1000));
    expect(issues[0].path).toBe('spec.parts[0].name');
    expect(issues[issues.length - 1].path).toBe(`spec.parts[${Math.min(n, 1000) - 1}].name`);
  });
  it('the generated modules never concatenate error lists', () => {
    const code = readFileSync(join(t.dir, 'out', 'validators', 'example.dev_v1.Widget.ts'), 'utf8');
    expect(code).toContain('appendErrors(');
    expect(code).not.toContain('vErrors.concat(');
  });
});

describe('validator modules', () => {
  // the project's own specs: a kind with its List in a module of its own, the kinds embedding a PodSpec in their group-version's
  const modules = validatorRoots(loadSpecs(specsDir));
  const kindsIn = (file: string) => (modules.get(file) ?? []).map((n) => n.split('.').pop()).sort();
  it.each([
    ['core_v1.Endpoints', ['Endpoints', 'EndpointsList']],
    ['core_v1.Namespace', ['Namespace', 'NamespaceList']],
    ['core_v1.ConfigMap', ['ConfigMap', 'ConfigMapList']],
    ['discovery.k8s.io_v1.EndpointSlice', ['EndpointSlice', 'EndpointSliceList']],
    ['rbac.authorization.k8s.io_v1.ClusterRole', ['ClusterRole', 'ClusterRoleList']],
    ['core_v1', ['Pod', 'PodList']],
    ['apps_v1', ['DaemonSet', 'DaemonSetList', 'Deployment', 'DeploymentList', 'ReplicaSet', 'ReplicaSetList', 'StatefulSet', 'StatefulSetList']],
    ['apps_v1.ControllerRevision', ['ControllerRevision', 'ControllerRevisionList']],
    ['batch_v1', ['CronJob', 'CronJobList', 'Job', 'JobList']],
  ])('%s holds %j', (file, kinds) => {
    // a kind's own module holds exactly it and its List; a group-version's module at least the kinds listed
    if (/_v\w+\.[A-Z]/.test(file)) expect(kindsIn(file)).toEqual(kinds);
    else expect(kindsIn(file)).toEqual(expect.arrayContaining(kinds));
  });
  it('every kind module holds one kind and its List; Pod is in no kind module', () => {
    for (const [file, roots] of modules) {
      if (!/_v\w+\.[A-Z]/.test(file)) continue;
      const kind = file.split('.').pop()!;
      expect(
        roots.every((n) => [kind, `${kind}List`].includes(n.split('.').pop()!)),
        file,
      ).toBe(true);
      expect(roots).not.toContain('io.k8s.api.core.v1.Pod');
    }
  });
});
