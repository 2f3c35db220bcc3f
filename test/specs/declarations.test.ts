// Consistency of the api-specs tree on its own: every document is well formed
// and named after its group-version, every $ref resolves, a schema defined in
// several documents is the same everywhere, no upstream prose was carried
// over, and the resource declarations are valid and carry the presentation
// facts kubectl users rely on (short names, categories, columns).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Schema } from './schema-compare.ts';
import { allSchemas, declaredResources, loadSpecs, referenceDir } from './spec-tree.ts';

const docs = loadSpecs();
const schemas = allSchemas(docs);
const VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection']);

function walk(value: unknown, visit: (node: Record<string, unknown>, path: string) => void, path = ''): void {
  if (Array.isArray(value)) value.forEach((v, i) => walk(v, visit, `${path}[${i}]`));
  else if (value && typeof value === 'object') {
    visit(value as Record<string, unknown>, path);
    for (const [k, v] of Object.entries(value)) walk(v, visit, `${path}/${k}`);
  }
}

const stripDescriptions = (v: unknown): unknown => JSON.parse(JSON.stringify(v, (k, x) => (k === 'description' ? undefined : x)));

describe('api-specs documents', () => {
  it('has the expected files', () => {
    const files = docs.map((d) => d.file);
    for (const f of ['core_v1.json', 'apps_v1.json', 'node.k8s.io_v1.json', 'flowcontrol.apiserver.k8s.io_v1beta3.json', 'meta/meta_v1.json']) expect(files).toContain(f);
    expect(docs.length).toBeGreaterThan(20);
  });

  it.each(docs.map((d) => [d.file, d.doc] as const))('%s is an OpenAPI 3 document named after its group-version', (file, doc) => {
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components?.schemas).toBeTypeOf('object');
    if (file.startsWith('meta/')) {
      expect(doc['x-specserver-resources']).toBeUndefined();
      return;
    }
    const gvks = new Set<string>();
    for (const s of Object.values(doc.components.schemas as Record<string, Schema>)) {
      const list = (s['x-kubernetes-group-version-kind'] as any[]) ?? [];
      if (list.length === 1) gvks.add(`${list[0].group || 'core'}_${list[0].version}`);
    }
    expect(gvks.has(file.replace(/\.json$/, ''))).toBe(true);
  });

  it('holds the shared apimachinery types in meta/', () => {
    const meta = docs.filter((d) => d.file.startsWith('meta/')).flatMap((d) => Object.keys(d.doc.components.schemas));
    const m = (n: string) => `io.k8s.apimachinery.pkg.apis.meta.v1.${n}`;
    for (const n of [
      'ObjectMeta',
      'ListMeta',
      'Status',
      'StatusCause',
      'StatusDetails',
      'Time',
      'MicroTime',
      'Duration',
      'LabelSelector',
      'LabelSelectorRequirement',
      'OwnerReference',
      'ManagedFieldsEntry',
      'FieldsV1',
      'Preconditions',
      'DeleteOptions',
      'WatchEvent',
      'Condition',
      'Table',
      'TableColumnDefinition',
      'TableRow',
      'TableRowCondition',
      'PartialObjectMetadata',
      'PartialObjectMetadataList',
      'APIResource',
      'APIResourceList',
      'APIGroup',
      'APIGroupList',
      'APIVersions',
      'GroupVersionForDiscovery',
      'ServerAddressByClientCIDR',
    ])
      expect(meta).toContain(m(n));
    for (const n of [
      'io.k8s.apimachinery.pkg.api.resource.Quantity',
      'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
      'io.k8s.apimachinery.pkg.runtime.RawExtension',
      'io.k8s.api.autoscaling.v1.Scale',
    ])
      expect(meta).toContain(n);
    const table = schemas[m('Table')];
    expect(Object.keys(table.properties as object).sort()).toEqual(['apiVersion', 'columnDefinitions', 'kind', 'metadata', 'rows']);
    expect(schemas[m('TableColumnDefinition')].required).toEqual(['name', 'type', 'format', 'description', 'priority']);
  });

  it('resolves every $ref', () => {
    const broken: string[] = [];
    for (const { file, doc } of docs) {
      walk(doc, (node, path) => {
        if (typeof node.$ref === 'string') {
          const name = node.$ref.replace('#/components/schemas/', '');
          if (!node.$ref.startsWith('#/components/schemas/') || !schemas[name]) broken.push(`${file}${path}: ${node.$ref}`);
        }
      });
    }
    expect(broken).toEqual([]);
  });

  it('defines a repeated schema identically everywhere', () => {
    const seen = new Map<string, { file: string; text: string }>();
    const conflicts: string[] = [];
    for (const { file, doc } of docs) {
      for (const [name, s] of Object.entries(doc.components?.schemas ?? {})) {
        const text = JSON.stringify(stripDescriptions(s));
        const prev = seen.get(name);
        if (prev && prev.text !== text) conflicts.push(`${name}: ${prev.file} vs ${file}`);
        if (!prev) seen.set(name, { file, text });
      }
    }
    expect(conflicts).toEqual([]);
  });

  it('carries no field descriptions, and a short one of our own on each served kind', () => {
    const nested: string[] = [];
    for (const { file, doc } of docs) {
      for (const [name, s] of Object.entries((doc.components?.schemas ?? {}) as Record<string, Schema>)) {
        const below = (x: unknown, path: string): void => {
          if (!x || typeof x !== 'object') return;
          const n = x as Schema;
          if (path && 'description' in n) nested.push(`${file} ${name}${path}`);
          for (const [k, v] of Object.entries((n.properties ?? {}) as Record<string, Schema>)) below(v, `${path}.${k}`);
          below(n.items, `${path}[items]`);
          below(n.additionalProperties, `${path}[additionalProperties]`);
          ((n.allOf ?? []) as Schema[]).forEach((a, i) => below(a, `${path}[allOf ${i}]`));
        };
        below(s, '');
        if (typeof s.description === 'string') expect(s.description.length, name).toBeLessThan(120);
      }
    }
    expect(nested).toEqual([]);
    for (const r of declaredResources(docs)) {
      const name = Object.keys(schemas).find((n) => {
        const g = (schemas[n]['x-kubernetes-group-version-kind'] as any[]) ?? [];
        return g.length === 1 && g[0].kind === r.kind && g[0].group === r.group && g[0].version === r.version;
      });
      expect(schemas[name!].description, `${r.group}/${r.version} ${r.kind}`).toBeTypeOf('string');
    }
  });

  it.skipIf(!referenceDir())('shares no description text with the reference', () => {
    const swagger = JSON.parse(readFileSync(join(referenceDir()!, 'openapi/swagger-v1.31.json'), 'utf8'));
    const upstream = new Set<string>();
    walk(swagger.definitions, (node) => {
      if (typeof node.description === 'string') upstream.add(node.description);
    });
    const copied: string[] = [];
    for (const { file, doc } of docs) {
      walk(doc.components?.schemas, (node, path) => {
        if (typeof node.description === 'string' && upstream.has(node.description)) copied.push(`${file}${path}`);
      });
    }
    expect(copied).toEqual([]);
  });
});

describe('resource declarations', () => {
  const decls = docs.flatMap(({ file, doc }) => ((doc['x-specserver-resources'] ?? []) as any[]).map((d) => ({ file, d })));
  const byPlural = (file: string, plural: string) => decls.find((x) => x.file === file && x.d.plural === plural)?.d;

  it('are valid', () => {
    const problems: string[] = [];
    for (const { file, d } of decls) {
      const where = `${file} ${d.kind}`;
      if (!d.verbs.every((v: string) => VERBS.has(v))) problems.push(`${where}: bad verb`);
      if (d.virtual && JSON.stringify(d.verbs) !== '["create"]') problems.push(`${where}: virtual kinds only create`);
      if (!['subdomain', 'label', 'path-segment'].includes(d.nameRule)) problems.push(`${where}: nameRule`);
      if (!['Namespaced', 'Cluster'].includes(d.scope)) problems.push(`${where}: scope`);
      for (const s of d.subresources) if (!s.verbs.every((v: string) => VERBS.has(v))) problems.push(`${where}/${s.name}: bad verb`);
      for (const c of d.printerColumns) {
        if (c.name === 'Name') problems.push(`${where}: Name column`);
        if (!['string', 'integer', 'number', 'boolean', 'date'].includes(c.type)) problems.push(`${where}.${c.name}: type ${c.type}`);
        if (!String(c.jsonPath).startsWith('.')) problems.push(`${where}.${c.name}: jsonPath`);
      }
    }
    expect(problems).toEqual([]);
    expect(decls.length).toBeGreaterThan(55);
  });

  it.each([
    ['core_v1.json', 'services', ['svc'], ['all']],
    ['core_v1.json', 'pods', ['po'], ['all']],
    ['core_v1.json', 'replicationcontrollers', ['rc'], ['all']],
    ['core_v1.json', 'podtemplates', [], []],
    ['core_v1.json', 'configmaps', ['cm'], []],
    ['core_v1.json', 'namespaces', ['ns'], []],
    ['core_v1.json', 'limitranges', ['limits'], []],
    ['core_v1.json', 'resourcequotas', ['quota'], []],
    ['core_v1.json', 'componentstatuses', ['cs'], []],
    ['core_v1.json', 'events', ['ev'], []],
    ['events.k8s.io_v1.json', 'events', ['ev'], []],
    ['apps_v1.json', 'deployments', ['deploy'], ['all']],
    ['apps_v1.json', 'statefulsets', ['sts'], ['all']],
    ['batch_v1.json', 'jobs', [], ['all']],
    ['batch_v1.json', 'cronjobs', ['cj'], ['all']],
    ['autoscaling_v2.json', 'horizontalpodautoscalers', ['hpa'], ['all']],
    ['apiextensions.k8s.io_v1.json', 'customresourcedefinitions', ['crd', 'crds'], ['api-extensions']],
    ['apiregistration.k8s.io_v1.json', 'apiservices', [], ['api-extensions']],
    ['admissionregistration.k8s.io_v1.json', 'validatingadmissionpolicies', [], ['api-extensions']],
    ['networking.k8s.io_v1.json', 'networkpolicies', ['netpol'], []],
    ['scheduling.k8s.io_v1.json', 'priorityclasses', ['pc'], []],
    ['storage.k8s.io_v1.json', 'storageclasses', ['sc'], []],
    ['policy_v1.json', 'poddisruptionbudgets', ['pdb'], []],
  ])('%s %s: short names %j, categories %j', (file, plural, shortNames, categories) => {
    const d = byPlural(file, plural);
    expect(d, `${file} ${plural}`).toBeDefined();
    expect(d.shortNames).toEqual(shortNames);
    expect(d.categories).toEqual(categories);
  });

  it('puts exactly the upstream kinds in category all (in every version serving them)', () => {
    const all = [...new Set(decls.filter(({ d }) => d.categories.includes('all')).map(({ d }) => d.plural))].sort();
    expect(all).toEqual(['cronjobs', 'daemonsets', 'deployments', 'horizontalpodautoscalers', 'jobs', 'pods', 'replicasets', 'replicationcontrollers', 'services', 'statefulsets']);
  });

  it.each([
    ['core_v1.json', 'services', ['Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age'], ['Selector']],
    ['core_v1.json', 'pods', ['Ready', 'Status', 'Restarts', 'Age'], ['IP', 'Node', 'Nominated Node', 'Readiness Gates']],
    ['apps_v1.json', 'deployments', ['Ready', 'Up-to-date', 'Available', 'Age'], ['Containers', 'Images', 'Selector']],
    ['core_v1.json', 'configmaps', ['Data', 'Age'], []],
    ['core_v1.json', 'replicationcontrollers', ['Desired', 'Current', 'Ready', 'Age'], ['Containers', 'Images', 'Selector']],
    ['core_v1.json', 'secrets', ['Type', 'Data', 'Age'], []],
    ['core_v1.json', 'namespaces', ['Status', 'Age'], []],
  ])('%s %s columns', (file, plural, normal, wide) => {
    const d = byPlural(file, plural);
    expect(d.printerColumns.filter((c: any) => !c.priority).map((c: any) => c.name)).toEqual(normal);
    expect(d.printerColumns.filter((c: any) => c.priority).map((c: any) => c.name)).toEqual(wide);
    const age = d.printerColumns.find((c: any) => c.name === 'Age');
    expect(age).toMatchObject({ type: 'date', jsonPath: '.metadata.creationTimestamp' });
  });

  it.each([
    ['core_v1.json', 'secrets', { selectableFields: ['type'], nameRule: 'subdomain' }],
    ['core_v1.json', 'namespaces', { selectableFields: ['status.phase'], nameRule: 'label', scope: 'Cluster' }],
    ['core_v1.json', 'services', { selectableFields: ['spec.clusterIP', 'spec.type'], nameRule: 'label' }],
    ['core_v1.json', 'nodes', { selectableFields: ['spec.unschedulable'] }],
    ['core_v1.json', 'endpoints', { allowCreateOnUpdate: true }],
    ['core_v1.json', 'events', { allowCreateOnUpdate: true }],
    ['coordination.k8s.io_v1.json', 'leases', { allowCreateOnUpdate: true }],
    ['apps_v1.json', 'replicasets', { selectableFields: ['status.replicas'] }],
    ['batch_v1.json', 'jobs', { selectableFields: ['status.successful'] }],
    ['rbac.authorization.k8s.io_v1.json', 'clusterroles', { nameRule: 'path-segment', scope: 'Cluster' }],
    ['authorization.k8s.io_v1.json', 'subjectaccessreviews', { virtual: true, verbs: ['create'] }],
    ['authentication.k8s.io_v1.json', 'tokenreviews', { virtual: true, verbs: ['create'] }],
  ])('%s %s', (file, plural, expected) => {
    expect(byPlural(file, plural)).toMatchObject(expected);
  });

  it('declares group-version settings where the defaults are wrong', () => {
    const gv = (f: string) => docs.find((d) => d.file === f)?.doc['x-specserver-group-version'];
    expect(gv('networking.k8s.io_v1beta1.json')).toMatchObject({ introduced: '1.31', enabledByDefault: false });
    expect(gv('flowcontrol.apiserver.k8s.io_v1beta3.json')).toMatchObject({ introduced: '1.26', enabledByDefault: true, deprecatedIn: '1.29', removedIn: '1.32' });
    expect(gv('core_v1.json')).toBeUndefined();
  });

  it('keeps the node.k8s.io document in the upstream paths shape', () => {
    const doc = docs.find((d) => d.file === 'node.k8s.io_v1.json')!.doc;
    expect(doc['x-specserver-resources']).toBeUndefined();
    const op = doc.paths['/apis/node.k8s.io/v1/runtimeclasses/{name}'].get;
    expect(op['x-kubernetes-action']).toBe('get');
    expect(op['x-kubernetes-group-version-kind']).toEqual({ group: 'node.k8s.io', kind: 'RuntimeClass', version: 'v1' });
  });
});
