// A malformed or inconsistent spec fails codegen with a message naming the
// file and the JSON path of the problem (one row per kind of mistake), and
// the CLI exits 1 printing it.
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { loadSpecs } from '../../codegen/load/index.ts';
import { CodegenError } from '../../codegen/load/errors.ts';
import { fixturesDir, fixtureTree, osTempDir, projectRoot } from './helpers.ts';

type Doc = Record<string, any>;
const widget = (): Doc => JSON.parse(readFileSync(join(fixturesDir, 'widget', 'example.dev_v1.json'), 'utf8'));
const crd = readFileSync(join(fixturesDir, 'crd', 'gadgets.toys.example.dev.yaml'), 'utf8');
const S = (d: Doc) => d.components.schemas;
const OM = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
/** A document holding only a copy of the fixture meta's ObjectMeta, changed by `edit`. */
const metaCopy = (edit: (om: Doc) => void): Doc => {
  const om = structuredClone(S(JSON.parse(readFileSync(join(fixturesDir, 'meta', 'meta.json'), 'utf8')))[OM]);
  edit(om);
  return { openapi: '3.0.0', info: { title: 'copy', version: 'v1' }, components: { schemas: { [OM]: om } } };
};

const rows: { name: string; files: () => Record<string, unknown>; file: string; path: string; detail: RegExp }[] = [
  {
    name: 'dangling $ref',
    files: () => {
      const d = widget();
      S(d)['dev.example.v1.WidgetSpec'].properties.size = { $ref: '#/components/schemas/dev.example.v1.Missing' };
      return { 'w.json': d };
    },
    file: 'w.json',
    path: '$.components.schemas["dev.example.v1.WidgetSpec"].properties.size.$ref',
    detail: /dangling reference to "dev\.example\.v1\.Missing"/,
  },
  {
    name: 'list-map-keys on a non-map list',
    files: () => {
      const d = widget();
      S(d)['dev.example.v1.WidgetSpec'].properties.ports['x-kubernetes-list-type'] = 'atomic';
      return { 'w.json': d };
    },
    file: 'w.json',
    path: '$.components.schemas["dev.example.v1.WidgetSpec"].properties.ports.x-kubernetes-list-map-keys',
    detail: /not "map"/,
  },
  {
    name: 'non-scalar map key',
    files: () => {
      const d = widget();
      S(d)['dev.example.v1.WidgetPort'].properties.protocol = { type: 'object', properties: { a: { type: 'string' } } };
      return { 'w.json': d };
    },
    file: 'w.json',
    path: '$.components.schemas["dev.example.v1.WidgetSpec"].properties.ports.x-kubernetes-list-map-keys',
    detail: /map key "protocol" is not a scalar field/,
  },
  {
    name: 'map key that is not a field',
    files: () => {
      const d = widget();
      S(d)['dev.example.v1.WidgetSpec'].properties.ports['x-kubernetes-list-map-keys'] = ['nope'];
      return { 'w.json': d };
    },
    file: 'w.json',
    path: '$.components.schemas["dev.example.v1.WidgetSpec"].properties.ports.x-kubernetes-list-map-keys',
    detail: /"nope" is not a field/,
  },
  {
    name: 'one marker spelled x-svc-* and x-kubernetes-* with different values',
    files: () => {
      const d = widget();
      S(d)['dev.example.v1.WidgetSpec'].properties.ports['x-svc-list-type'] = 'atomic';
      return { 'w.json': d };
    },
    file: 'w.json',
    path: '$.components.schemas["dev.example.v1.WidgetSpec"].properties.ports.x-svc-list-type',
    detail: /x-svc-list-type "atomic" contradicts x-kubernetes-list-type "map": one marker, two spellings, different values/,
  },
  {
    name: 'x-svc-* markers in a CRD manifest that contradict x-kubernetes-*',
    files: () => ({ 'crd.yaml': crd.replace(/x-kubernetes-list-type: map/, 'x-kubernetes-list-type: map\n                  x-svc-list-type: set') }),
    file: 'crd.yaml',
    path: '$.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.slots.x-svc-list-type',
    detail: /x-svc-list-type "set" contradicts x-kubernetes-list-type "map"/,
  },
  {
    name: 'duplicate GVK',
    files: () => {
      const d = widget();
      S(d)['dev.example.v1.Gizmo'] = { ...S(d)['dev.example.v1.Widget'] };
      return { 'w.json': d };
    },
    file: 'w.json',
    path: '$.components.schemas["dev.example.v1.Widget"].x-kubernetes-group-version-kind',
    detail: /duplicate group-version-kind example\.dev\/v1\/Widget: also declared by "dev\.example\.v1\.Gizmo"/,
  },
  {
    name: 'unknown list type',
    files: () => {
      const d = widget();
      S(d)['dev.example.v1.WidgetSpec'].properties.tags['x-kubernetes-list-type'] = 'bag';
      return { 'w.json': d };
    },
    file: 'w.json',
    path: '$.components.schemas["dev.example.v1.WidgetSpec"].properties.tags.x-kubernetes-list-type',
    detail: /unknown x-kubernetes-list-type "bag"/,
  },
  {
    name: 'unknown map type',
    files: () => {
      const d = widget();
      S(d)['dev.example.v1.WidgetSpec'].properties.selector['x-kubernetes-map-type'] = 'sometimes';
      return { 'w.json': d };
    },
    file: 'w.json',
    path: '$.components.schemas["dev.example.v1.WidgetSpec"].properties.selector.x-kubernetes-map-type',
    detail: /unknown x-kubernetes-map-type "sometimes"/,
  },
  {
    name: 'unknown patch strategy',
    files: () => {
      const d = widget();
      S(d)['dev.example.v1.WidgetSpec'].properties.parts['x-kubernetes-patch-strategy'] = 'merge,append';
      return { 'w.json': d };
    },
    file: 'w.json',
    path: '$.components.schemas["dev.example.v1.WidgetSpec"].properties.parts.x-kubernetes-patch-strategy',
    detail: /unknown x-kubernetes-patch-strategy "merge,append"/,
  },
  {
    name: 'non-boolean int-or-string',
    files: () => {
      const d = widget();
      S(d)['dev.example.v1.WidgetSpec'].properties.size['x-kubernetes-int-or-string'] = 'yes';
      return { 'w.json': d };
    },
    file: 'w.json',
    path: '$.components.schemas["dev.example.v1.WidgetSpec"].properties.size.x-kubernetes-int-or-string',
    detail: /must be a boolean/,
  },
  {
    name: 'unknown verb',
    files: () => {
      const d = widget();
      d['x-specserver-resources'][0].verbs.push('explode');
      return { 'w.json': d };
    },
    file: 'w.json',
    path: '$.x-specserver-resources[0].verbs[8]',
    detail: /unknown verb "explode"/,
  },
  {
    name: 'kind without a schema',
    files: () => {
      const d = widget();
      d['x-specserver-resources'][0].kind = 'Sprocket';
      return { 'w.json': d };
    },
    file: 'w.json',
    path: '$.x-specserver-resources[0]',
    detail: /no schema declares x-kubernetes-group-version-kind example\.dev\/v1\/Sprocket/,
  },
  {
    name: 'same schema name, different structure',
    files: () => {
      const a = widget();
      const b = widget();
      S(b)['dev.example.v1.WidgetPart'].properties.count = { type: 'string' };
      delete b['x-specserver-resources'];
      delete b['x-specserver-group-version'];
      return { 'a.json': a, 'b.json': b };
    },
    file: 'b.json',
    path: '$.components.schemas["dev.example.v1.WidgetPart"]',
    detail: /differs in structure from its definition in a\.json/,
  },
  {
    name: "a dropped-in copy of a meta type with a field meta/'s lacks (sorting first)",
    files: () => ({ 'a_copy.json': metaCopy((om) => (om.properties.shard = { type: 'string' })), 'w.json': widget() }),
    file: 'a_copy.json',
    path: `$.components.schemas["${OM}"].properties.shard`,
    detail: /this copy of "io\.k8s\.apimachinery\.pkg\.apis\.meta\.v1\.ObjectMeta" has a field "shard" that its definition in meta\/meta\.json lacks/,
  },
  {
    name: 'a dropped-in copy of a meta type with a field of another type',
    files: () => ({ 'zz_copy.json': metaCopy((om) => (om.properties.name = { type: 'integer' })), 'w.json': widget() }),
    file: 'zz_copy.json',
    path: `$.components.schemas["${OM}"].properties.name`,
    detail: /disagrees with its definition in meta\/meta\.json \(at \$\.properties\.name\)/,
  },
  {
    name: 'CRD with an unknown scope',
    files: () => ({ 'crd.yaml': crd.replace('scope: Namespaced', 'scope: Galaxy') }),
    file: 'crd.yaml',
    path: '$.spec.scope',
    detail: /unknown scope "Galaxy"/,
  },
  {
    name: 'CRD version without a schema',
    files: () => ({
      'crd.yaml': crd.replace(
        '    - name: v1beta1\n      served: true\n      storage: false\n      schema:\n        openAPIV3Schema:\n          type: object\n          x-kubernetes-preserve-unknown-fields: true\n',
        '    - name: v1beta1\n      served: true\n      storage: false\n',
      ),
    }),
    file: 'crd.yaml',
    path: '$.spec.versions[1].schema.openAPIV3Schema',
    detail: /needs schema\.openAPIV3Schema/,
  },
  {
    name: 'invalid JSON',
    files: () => ({ 'broken.json': '{"openapi": ' }),
    file: 'broken.json',
    path: '$',
    detail: /invalid JSON/,
  },
  {
    name: 'neither OpenAPI nor CRD',
    files: () => ({ 'other.yaml': 'apiVersion: v1\nkind: ConfigMap\n' }),
    file: 'other.yaml',
    path: '$',
    detail: /not an OpenAPI v3 document/,
  },
];

describe('malformed specs fail codegen naming file and JSON path', () => {
  const temps: (() => void)[] = [];
  afterAll(() => temps.forEach((c) => c()));

  it('the fixtures themselves load', () => {
    const t = osTempDir('cg-ok');
    temps.push(t.cleanup);
    const model = loadSpecs(fixtureTree(t.dir, { 'w.json': widget(), 'crd.yaml': crd }));
    expect(model.resources.map((r) => `${r.group}/${r.version}/${r.resource}`)).toEqual(['example.dev/v1/widgets', 'toys.example.dev/v1/gadgets', 'toys.example.dev/v1beta1/gadgets']);
  });

  it.each(rows)('$name', (row) => {
    const t = osTempDir('cg-bad');
    temps.push(t.cleanup);
    const specs = fixtureTree(t.dir, row.files());
    let err: unknown;
    try {
      loadSpecs(specs);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CodegenError);
    const e = err as CodegenError;
    expect(e.file).toBe(row.file);
    expect(e.jsonPath).toBe(row.path);
    expect(e.detail).toMatch(row.detail);
    expect(e.message.startsWith(`${row.file}: ${row.path}: `)).toBe(true);
  });

  it('the CLI exits 1 and prints the message', () => {
    const t = osTempDir('cg-cli');
    temps.push(t.cleanup);
    const specs = fixtureTree(t.dir, rows[0].files());
    const r = spawnSync(process.execPath, [join(projectRoot, 'node_modules/tsx/dist/cli.mjs'), join(projectRoot, 'codegen/cli.ts'), '--specs', specs, '--out', join(t.dir, 'out')], {
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`w.json: ${rows[0].path}: dangling reference`);
  });
});
