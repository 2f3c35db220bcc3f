// The test-only specs (Widget in example.dev/v1, and the Gadget CRD) dropped
// into a temporary copy of api-specs/ regenerate into registry entries and
// working validators with no other change; the resources of api-specs/ stay
// exactly as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceDef, SchemaValidator } from '../../generated/api-types.ts';
import { generate } from '../../codegen/generate.ts';
import { copySpecs, fixturesDir, tempDir } from './helpers.ts';

describe('dropping the Widget spec and a CRD into api-specs/', () => {
  const t = tempDir('cg-widget');
  let base: ResourceDef[];
  let resources: ResourceDef[];
  let validators: Record<string, () => Promise<SchemaValidator>>;
  let v3Index: { paths: Record<string, { serverRelativeURL: string }> };

  beforeAll(async () => {
    const specs = copySpecs(t.dir);
    await generate(specs, join(t.dir, 'base'));
    cpSync(join(fixturesDir, 'widget', 'example.dev_v1.json'), join(specs, 'example.dev_v1.json'));
    cpSync(join(fixturesDir, 'crd', 'gadgets.toys.example.dev.yaml'), join(specs, 'crds', 'gadgets.toys.example.dev.yaml'));
    await generate(specs, join(t.dir, 'out'));
    base = (await import(join(t.dir, 'base', 'registry.ts'))).resources;
    resources = (await import(join(t.dir, 'out', 'registry.ts'))).resources;
    validators = (await import(join(t.dir, 'out', 'validators', 'index.ts'))).validators;
    v3Index = JSON.parse(readFileSync(join(t.dir, 'out', 'openapi', 'v3', 'index.json'), 'utf8'));
  }, 120_000);
  afterAll(() => t.cleanup());

  it('adds exactly the Widget and Gadget resources', () => {
    const added = resources.filter((r) => !base.some((b) => b.group === r.group && b.version === r.version && b.resource === r.resource));
    expect(added.map((r) => `${r.group}/${r.version}/${r.resource}`)).toEqual(['example.dev/v1/widgets', 'toys.example.dev/v1/gadgets', 'toys.example.dev/v1beta1/gadgets']);
    const kept = resources.filter((r) => !added.includes(r));
    expect(kept).toEqual(base);
  });

  it('registers the Widget as declared', () => {
    const w = resources.find((r) => r.kind === 'Widget')!;
    expect(w).toEqual({
      group: 'example.dev',
      version: 'v1',
      kind: 'Widget',
      listKind: 'WidgetList',
      resource: 'widgets',
      singular: 'widget',
      namespaced: true,
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'],
      shortNames: ['wd'],
      categories: ['all'],
      subresources: [{ name: 'status', kind: 'Widget', verbs: ['get', 'update', 'patch'] }],
      printerColumns: [
        { name: 'Color', type: 'string', priority: 0, jsonPath: '.spec.color' },
        { name: 'Size', type: 'integer', priority: 1, jsonPath: '.spec.size' },
        { name: 'Age', type: 'date', priority: 0, jsonPath: '.metadata.creationTimestamp' },
      ],
      selectableFields: ['spec.color'],
      allowCreateOnUpdate: false,
      storageVersion: true,
      preferredVersion: true,
      stability: 'GA',
      enabledByDefault: true,
      schema: 'dev.example.v1.Widget',
      custom: false,
      nameRule: 'subdomain',
      virtual: false,
    });
  });

  it('registers each served CRD version as a custom resource', () => {
    const g = resources.filter((r) => r.kind === 'Gadget');
    expect(g.map((r) => [r.version, r.storageVersion, r.preferredVersion, r.stability, r.enabledByDefault, r.custom, r.schema])).toEqual([
      ['v1', true, true, 'GA', true, true, 'dev.example.toys.v1.Gadget'],
      ['v1beta1', false, false, 'beta', true, true, 'dev.example.toys.v1beta1.Gadget'],
    ]);
    expect(g[0].subresources.map((s) => `${s.name}:${s.group ?? ''}/${s.version ?? ''}/${s.kind}`)).toEqual(['scale:autoscaling/v1/Scale', 'status://Gadget']);
    expect(g[0].shortNames).toEqual(['gd']);
    expect(g[0].categories).toEqual(['toys']);
    expect(g[0].selectableFields).toEqual(['spec.mode']);
    expect(g[0].printerColumns.map((c) => c.name)).toEqual(['Mode', 'Replicas']);
    expect(g[1].subresources).toEqual([]);
  });

  it('validates Widgets and Gadgets', async () => {
    const w = await validators['dev.example.v1.Widget']();
    expect(w({ apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'a' }, spec: { color: 'red' } })).toEqual([]);
    expect(w({ apiVersion: 'example.dev/v1', kind: 'Widget', metadata: { name: 'a' }, spec: { color: 'pink', shade: 1 } }).map((i) => `${i.kind} ${i.path}`)).toEqual([
      'unknown spec.shade',
      'enum spec.color',
    ]);
    const g = await validators['dev.example.toys.v1.Gadget']();
    expect(g({ apiVersion: 'toys.example.dev/v1', kind: 'Gadget', metadata: { name: 'a' }, spec: { mode: 'fast', size: '50%', extra: { anything: [1] } } })).toEqual([]);
    expect(
      g({ apiVersion: 'toys.example.dev/v1', kind: 'Gadget', metadata: { name: 'a', bogus: 1 }, spec: { mode: 'fast', replicas: -1, junk: true } })
        .map((i) => `${i.kind} ${i.path}`)
        .sort(),
    ).toEqual(['bounds spec.replicas', 'unknown metadata.bogus', 'unknown spec.junk']);
    const gb = await validators['dev.example.toys.v1beta1.Gadget']();
    expect(gb({ apiVersion: 'toys.example.dev/v1beta1', kind: 'Gadget', metadata: { name: 'a' }, anything: { goes: true } })).toEqual([]);
  });

  it('publishes their OpenAPI v3 documents', () => {
    expect(Object.keys(v3Index.paths)).toEqual(expect.arrayContaining(['apis/example.dev/v1', 'apis/toys.example.dev/v1', 'apis/toys.example.dev/v1beta1']));
  });
});
