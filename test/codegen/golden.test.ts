// Golden tests, one per generator: a tiny inline spec tree in, the exact
// output out (test/codegen/golden/, JSON pretty-printed for reading).
// Update deliberately with `npx vitest run test/codegen/golden.test.ts -u`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSpecs } from '../../codegen/load/index.ts';
import { generateFiles } from '../../codegen/generate.ts';

const M = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });

const meta = {
  openapi: '3.0.0',
  info: { title: 'tiny meta', version: 'v1' },
  components: {
    schemas: {
      [M + 'ObjectMeta']: { type: 'object', properties: { name: { type: 'string' }, labels: { type: 'object', additionalProperties: { type: 'string' } } } },
      [M + 'ListMeta']: { type: 'object', properties: { resourceVersion: { type: 'string' } } },
      [M + 'Status']: { type: 'object', properties: { code: { type: 'integer', format: 'int32' } }, 'x-kubernetes-group-version-kind': [{ group: '', version: 'v1', kind: 'Status' }] },
      [M + 'DeleteOptions']: { type: 'object', properties: { dryRun: { type: 'array', items: { type: 'string' } } } },
      [M + 'Patch']: { type: 'object' },
      [M + 'WatchEvent']: { type: 'object', required: ['type', 'object'], properties: { type: { type: 'string' }, object: { type: 'object' } } },
    },
  },
};

const tiny = {
  openapi: '3.0.0',
  info: { title: 'tiny.dev/v1', version: 'v1' },
  'x-specserver-group-version': { group: 'tiny.dev', version: 'v1' },
  'x-specserver-resources': [
    {
      kind: 'Gizmo',
      plural: 'gizmos',
      scope: 'Cluster',
      verbs: ['get', 'list', 'create', 'delete'],
      shortNames: ['gz'],
      subresources: [{ name: 'status', verbs: ['get', 'update'] }],
      printerColumns: [{ name: 'Mode', type: 'string', jsonPath: '.spec.mode', formatter: 'upper' }],
    },
  ],
  components: {
    schemas: {
      'dev.tiny.v1.Gizmo': {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          metadata: ref(M + 'ObjectMeta'),
          spec: {
            type: 'object',
            required: ['mode'],
            properties: {
              mode: { type: 'string', enum: ['on', 'off'] },
              ports: {
                type: 'array',
                items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer', format: 'int32' } } },
                'x-kubernetes-patch-strategy': 'merge',
                'x-kubernetes-patch-merge-key': 'name',
              },
            },
          },
        },
        'x-kubernetes-group-version-kind': [{ group: 'tiny.dev', version: 'v1', kind: 'Gizmo' }],
      },
      'dev.tiny.v1.GizmoList': {
        type: 'object',
        required: ['items'],
        properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: ref(M + 'ListMeta'), items: { type: 'array', items: ref('dev.tiny.v1.Gizmo') } },
        'x-kubernetes-group-version-kind': [{ group: 'tiny.dev', version: 'v1', kind: 'GizmoList' }],
      },
    },
  },
};

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: dials.crd.tiny.dev}
spec:
  group: crd.tiny.dev
  scope: Namespaced
  names: {kind: Dial, plural: dials}
  versions:
    - name: v1alpha1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                level: {type: integer, maximum: 11}
                marks: {type: array, items: {type: string}}
`;

let files: Map<string, string>;
let dir = '';

afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cg-golden-'));
  mkdirSync(join(dir, 'meta'));
  writeFileSync(join(dir, 'meta', 'meta.json'), JSON.stringify(meta));
  writeFileSync(join(dir, 'tiny.dev_v1.json'), JSON.stringify(tiny));
  writeFileSync(join(dir, 'dials.yaml'), crd);
  files = generateFiles(loadSpecs(dir));
});

const pretty = (name: string, text: string) => (name.endsWith('.json') ? `${JSON.stringify(JSON.parse(text), null, 2)}\n` : text);

describe('golden outputs', () => {
  it('produces exactly these files', () => {
    expect([...files.keys()]).toEqual([
      'api-types.ts',
      'merge-schema.json',
      'merge-schema.ts',
      'openapi/index.ts',
      'openapi/v2.json',
      'openapi/v3/apis__crd.tiny.dev__v1alpha1.json',
      'openapi/v3/apis__tiny.dev__v1.json',
      'openapi/v3/index.json',
      'registry.ts',
      'validators/crd.tiny.dev_v1alpha1.Dial.ts',
      'validators/index.ts',
      'validators/runtime.ts',
      'validators/tiny.dev_v1.Gizmo.ts',
    ]);
  });

  it('api-types.ts is the contract below the header', () => {
    const template = readFileSync(join(import.meta.dirname, '../../codegen/templates/api-types.ts'), 'utf8');
    expect(files.get('api-types.ts')).toBe(`// generated by npm run codegen, do not edit\n${template}`);
    expect(files.get('validators/runtime.ts')).toContain("from '../api-types.ts'");
  });

  it.each([
    ['registry.ts'],
    ['merge-schema.ts'],
    ['merge-schema.json'],
    ['validators/index.ts'],
    ['validators/tiny.dev_v1.Gizmo.ts'],
    ['openapi/v2.json'],
    ['openapi/v3/apis__tiny.dev__v1.json'],
    ['openapi/v3/apis__crd.tiny.dev__v1alpha1.json'],
    ['openapi/v3/index.json'],
    ['openapi/index.ts'],
  ])('%s', async (name) => {
    await expect(pretty(name, files.get(name)!)).toMatchFileSnapshot(`golden/${name.replace(/\//g, '__')}.golden`);
  });
});

// A second version of Gizmo declaring its conversion to v1: registry.ts carries it as data.
describe('golden conversions', () => {
  let convFiles: Map<string, string>;
  let convDir = '';
  afterAll(() => rmSync(convDir, { recursive: true, force: true }));
  beforeAll(() => {
    convDir = mkdtempSync(join(tmpdir(), 'cg-golden-conv-'));
    mkdirSync(join(convDir, 'meta'));
    writeFileSync(join(convDir, 'meta', 'meta.json'), JSON.stringify(meta));
    writeFileSync(join(convDir, 'tiny.dev_v1.json'), JSON.stringify(tiny));
    const g = tiny.components.schemas['dev.tiny.v1.Gizmo'];
    const beta = {
      ...tiny,
      info: { title: 'tiny.dev/v1beta1', version: 'v1beta1' },
      'x-specserver-group-version': { group: 'tiny.dev', version: 'v1beta1', enabledByDefault: true },
      'x-specserver-resources': [{ kind: 'Gizmo', plural: 'gizmos', scope: 'Cluster', verbs: ['get', 'create'] }],
      'x-specserver-conversions': [
        {
          kind: 'Gizmo',
          hub: 'v1',
          rules: [
            { rename: 'spec.state', to: 'spec.mode' },
            { keepInAnnotation: 'spec.ports', annotation: 'tiny.dev/ports' },
          ],
          defaults: [{ field: 'spec.state', value: 'on' }],
        },
      ],
      components: {
        schemas: {
          'dev.tiny.v1beta1.Gizmo': {
            ...g,
            properties: { ...g.properties, spec: { type: 'object', properties: { state: { type: 'string' } } } },
            'x-kubernetes-group-version-kind': [{ group: 'tiny.dev', version: 'v1beta1', kind: 'Gizmo' }],
          },
        },
      },
    };
    writeFileSync(join(convDir, 'tiny.dev_v1beta1.json'), JSON.stringify(beta));
    convFiles = generateFiles(loadSpecs(convDir));
  });

  it('registry.ts', async () => {
    await expect(convFiles.get('registry.ts')!).toMatchFileSnapshot('golden/conversions__registry.ts.golden');
  });
});
