import { describe, expect, it } from 'vitest';
import type { OpenAPISchema } from '../model/types.ts';
import { CodegenError } from './errors.ts';
import { packageOf, servedPackages, settleSchemas, type SchemaDef } from './shared-types.ts';

const OM = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const DO = 'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions';
const TOL = 'io.k8s.api.core.v1.Toleration';
const gvk = (group: string, version: string, kind: string) => ({ group, version, kind });

function def(name: string, file: string, schema: OpenAPISchema, where: { meta?: boolean; home?: boolean } = {}): SchemaDef {
  return { name, schema, file, jsonPath: `$.components.schemas["${name}"]`, custom: false, meta: where.meta ?? false, home: where.home ?? where.meta ?? false };
}
const ours = { type: 'object', properties: { name: { type: 'string' }, creationTimestamp: { type: 'string', format: 'date-time' } } };

function settle(...defs: SchemaDef[]) {
  return settleSchemas(new Map([[defs[0].name, defs]]));
}

describe('settleSchemas', () => {
  it.each([
    { name: 'meta/ wins over a copy that sorts first', defs: [def(OM, 'a_node.json', ours), def(OM, 'meta/meta_v1.json', ours, { meta: true })], file: 'meta/meta_v1.json' },
    { name: 'meta/ wins over a copy that sorts after', defs: [def(OM, 'meta/meta_v1.json', ours, { meta: true }), def(OM, 'zz_node.json', ours)], file: 'meta/meta_v1.json' },
    {
      name: "the document serving the package wins over another's copy",
      defs: [
        def(TOL, 'a_node.json', { type: 'object', properties: { key: { type: 'string' } } }),
        def(TOL, 'core_v1.json', { type: 'object', properties: { key: { type: 'string' } } }, { home: true }),
      ],
      file: 'core_v1.json',
    },
    { name: 'without a home, the first by path', defs: [def(TOL, 'a.json', { type: 'object' }), def(TOL, 'b.json', { type: 'object' })], file: 'a.json' },
  ])('$name', ({ defs, file }) => {
    const { schemas, notes } = settle(...defs);
    expect(schemas.get(defs[0].name)!.file).toBe(file);
    expect(notes).toEqual([]);
  });

  it("ignores a copy's removed clusterName, with a note, and keeps ours", () => {
    const copy = { ...ours, properties: { ...ours.properties, clusterName: { type: 'string', description: 'The name of the cluster.' } } };
    const { schemas, notes } = settle(def(OM, 'a_node.json', copy), def(OM, 'meta/meta_v1.json', ours, { meta: true }));
    expect(schemas.get(OM)!.schema).toBe(ours);
    expect(notes).toEqual([
      `a_node.json: $.components.schemas["${OM}"].properties.clusterName: field "clusterName" of ${OM} is not part of the API (removed or deprecated upstream); ignored, the definition in meta/meta_v1.json is used`,
    ]);
  });

  it('ignores a field the copy describes as deprecated, with a note', () => {
    const copy = { type: 'object', properties: { key: { type: 'string' }, old: { type: 'string', description: 'Deprecated: use key.' } } };
    const { notes } = settle(def(TOL, 'core_v1.json', { type: 'object', properties: { key: { type: 'string' } } }, { home: true }), def(TOL, 'zz.json', copy));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain('field "old"');
  });

  it('accepts a copy that lacks a field (an older release)', () => {
    const { schemas, notes } = settle(def(OM, 'meta/meta_v1.json', ours, { meta: true }), def(OM, 'zz.json', { type: 'object', properties: { name: { type: 'string' } } }));
    expect(schemas.get(OM)!.schema).toBe(ours);
    expect(notes).toEqual([]);
  });

  it.each([
    {
      name: 'a field only the copy has',
      copy: { ...ours, properties: { ...ours.properties, shard: { type: 'string' } } },
      message: `a_x.json: $.components.schemas["${OM}"].properties.shard: this copy of "${OM}" has a field "shard" that its definition in meta/meta_v1.json lacks`,
    },
    {
      name: 'a field of another type',
      copy: { ...ours, properties: { ...ours.properties, name: { type: 'integer' } } },
      message: `a_x.json: $.components.schemas["${OM}"].properties.name: this copy of "${OM}" disagrees with its definition in meta/meta_v1.json (at $.properties.name)`,
    },
    {
      name: 'a nested field only the copy has',
      copy: { ...ours, properties: { ...ours.properties, labels: { type: 'object', properties: { x: { type: 'string' } } } } },
      message: null,
    },
  ])('refuses a copy with $name, naming both files', ({ copy, message }) => {
    const home = { ...ours, properties: { ...ours.properties, labels: { type: 'object', properties: {} } } };
    const run = () => settle(def(OM, 'a_x.json', copy), def(OM, 'meta/meta_v1.json', home, { meta: true }));
    if (message === null) {
      expect(run).toThrow(/properties\.labels\.properties\.x: this copy of .* has a field "x"/);
      return;
    }
    expect(run).toThrow(CodegenError);
    expect(run).toThrow(message);
  });

  it("never joins a copy's group-version-kinds into the home definition", () => {
    const home = { type: 'object', 'x-kubernetes-group-version-kind': [gvk('', 'v1', 'DeleteOptions')] };
    const copy = { type: 'object', 'x-kubernetes-group-version-kind': [gvk('flowcontrol.apiserver.k8s.io', 'v1alpha1', 'DeleteOptions')] };
    const { schemas } = settle(def(DO, 'a_x.json', copy), def(DO, 'meta/meta_v1.json', home, { meta: true }));
    expect(schemas.get(DO)!.schema['x-kubernetes-group-version-kind']).toEqual([gvk('', 'v1', 'DeleteOptions')]);
  });

  it('joins the group-version-kinds of definitions of the same standing', () => {
    const a = { type: 'object', 'x-kubernetes-group-version-kind': [gvk('', 'v1', 'DeleteOptions')] };
    const b = { type: 'object', 'x-kubernetes-group-version-kind': [gvk('apps', 'v1', 'DeleteOptions')] };
    const { schemas } = settle(def(DO, 'meta/a.json', a, { meta: true }), def(DO, 'meta/b.json', b, { meta: true }));
    expect(schemas.get(DO)!.schema['x-kubernetes-group-version-kind']).toEqual([gvk('', 'v1', 'DeleteOptions'), gvk('apps', 'v1', 'DeleteOptions')]);
    expect(a['x-kubernetes-group-version-kind']).toHaveLength(1);
  });
});

describe('servedPackages', () => {
  it('is the packages of the kinds (one group-version-kind each), not of shared types listing many', () => {
    const schemas = {
      'io.k8s.api.node.v1.RuntimeClass': { 'x-kubernetes-group-version-kind': [gvk('node.k8s.io', 'v1', 'RuntimeClass')] },
      'io.k8s.api.node.v1.Scheduling': { type: 'object' },
      'io.k8s.api.core.v1.Toleration': { type: 'object' },
      [DO]: { 'x-kubernetes-group-version-kind': [gvk('', 'v1', 'DeleteOptions'), gvk('node.k8s.io', 'v1', 'DeleteOptions')] },
    };
    expect([...servedPackages(schemas)]).toEqual(['io.k8s.api.node.v1']);
    expect(packageOf('io.k8s.api.core.v1.Toleration')).toBe('io.k8s.api.core.v1');
  });
});
