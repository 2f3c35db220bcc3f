import { describe, expect, it } from 'vitest';
import { crdResourceDefs, readCrd } from './crd.ts';

const fail = (at: string, msg: string): never => {
  throw new Error(`${at}: ${msg}`);
};

const version = (name: string, extra: Record<string, unknown> = {}) => ({ name, served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } }, ...extra });

const crd = (spec: Record<string, unknown>) => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' }, spec });

const base = { group: 'example.com', scope: 'Namespaced', names: { kind: 'Widget', plural: 'widgets' } };

describe('readCrd and crdResourceDefs', () => {
  it.each<{ name: string; versions: Record<string, unknown>[]; want: { version: string; storageVersion: boolean; preferredVersion: boolean; stability: string }[] }>([
    {
      name: 'one version',
      versions: [version('v1', { storage: true })],
      want: [{ version: 'v1', storageVersion: true, preferredVersion: true, stability: 'GA' }],
    },
    {
      name: 'preferred is the highest priority served version, storage the flagged one',
      versions: [version('v1beta1', { storage: true }), version('v1'), version('v2alpha1')],
      want: [
        { version: 'v1beta1', storageVersion: true, preferredVersion: false, stability: 'beta' },
        { version: 'v1', storageVersion: false, preferredVersion: true, stability: 'GA' },
        { version: 'v2alpha1', storageVersion: false, preferredVersion: false, stability: 'alpha' },
      ],
    },
    {
      name: 'versions not served are left out',
      versions: [version('v1', { storage: true }), version('v2', { served: false })],
      want: [{ version: 'v1', storageVersion: true, preferredVersion: true, stability: 'GA' }],
    },
  ])('$name', ({ versions, want }) => {
    const defs = crdResourceDefs(readCrd(crd({ ...base, versions }), '$', fail));
    expect(defs.map((d) => ({ version: d.version, storageVersion: d.storageVersion, preferredVersion: d.preferredVersion, stability: d.stability }))).toEqual(want);
    for (const d of defs)
      expect(d).toMatchObject({
        group: 'example.com',
        kind: 'Widget',
        listKind: 'WidgetList',
        resource: 'widgets',
        singular: 'widget',
        namespaced: true,
        custom: true,
        schema: `com.example.${d.version}.Widget`,
      });
  });

  it.each([
    { name: 'its own text', versions: [version('v1beta1', { deprecated: true, deprecationWarning: 'use v1, please' }), version('v1', { storage: true })], want: 'use v1, please' },
    {
      name: 'the default names the best undeprecated served version above it',
      versions: [version('v1alpha1', { deprecated: true }), version('v1beta1'), version('v1', { storage: true }), version('v2', { served: false })],
      want: 'example.com/v1alpha1 Widget is deprecated; use example.com/v1 Widget',
    },
    { name: 'the default without a better version', versions: [version('v1', { deprecated: true, storage: true }), version('v1beta1')], want: 'example.com/v1 Widget is deprecated' },
    {
      name: 'deprecated versions are no replacement',
      versions: [version('v1beta1', { deprecated: true, storage: true }), version('v1', { deprecated: true })],
      want: 'example.com/v1beta1 Widget is deprecated',
    },
  ])('a deprecated version warns: $name', ({ versions, want }) => {
    const defs = crdResourceDefs(readCrd(crd({ ...base, versions }), '$', fail));
    expect(defs[0].deprecation).toEqual({ warning: want });
    expect(defs.slice(1).map((d) => d.deprecation)).not.toContainEqual({ warning: want });
  });

  it('reads subresources, printer columns, selectable fields and names', () => {
    const v = version('v1', {
      storage: true,
      subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
      additionalPrinterColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 1 }],
      selectableFields: [{ jsonPath: '.spec.color' }],
    });
    const [def] = crdResourceDefs(readCrd(crd({ ...base, scope: 'Cluster', names: { ...base.names, shortNames: ['wd'], categories: ['all'], listKind: 'Widgets' }, versions: [v] }), '$', fail));
    expect(def).toMatchObject({
      namespaced: false,
      listKind: 'Widgets',
      shortNames: ['wd'],
      categories: ['all'],
      selectableFields: ['spec.color'],
      printerColumns: [{ name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 1 }],
      subresources: [
        {
          name: 'scale',
          kind: 'Scale',
          group: 'autoscaling',
          version: 'v1',
          verbs: ['get', 'update', 'patch'],
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
        },
        { name: 'status', kind: 'Widget', verbs: ['get', 'update', 'patch'] },
      ],
    });
  });

  it('fills apiVersion, kind and metadata into the kind schema and builds its List', () => {
    const [v] = readCrd(crd({ ...base, versions: [version('v1', { storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' } } } } })] }), '$', fail);
    expect(Object.keys(v.schemas[0].schema.properties as object).sort()).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
    expect(v.schemas[1].name).toBe('com.example.v1.WidgetList');
    expect(v.schemas[0].schema['x-kubernetes-group-version-kind']).toEqual([{ group: 'example.com', kind: 'Widget', version: 'v1' }]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no group', { ...base, group: '', versions: [version('v1')] }, '$.spec.group: group must be a non-empty string'],
    ['no versions', { ...base, versions: [] }, '$.spec.versions: spec.versions must be a non-empty list'],
    ['bad scope', { ...base, scope: 'Everywhere', versions: [version('v1')] }, '$.spec.scope: unknown scope "Everywhere" (want Namespaced or Cluster)'],
    ['no schema', { ...base, versions: [{ name: 'v1', served: true, storage: true }] }, '$.spec.versions[0].schema.openAPIV3Schema: every served version needs schema.openAPIV3Schema'],
    [
      'scale path without a dot',
      { ...base, versions: [version('v1', { subresources: { scale: { specReplicasPath: 'spec.replicas', statusReplicasPath: '.status.replicas' } } })] },
      "$.spec.versions[0].subresources.scale.specReplicasPath: specReplicasPath must be a JSON path starting with '.'",
    ],
  ])('reports %s at its path', (_name, spec, want) => {
    expect(() => readCrd(crd(spec), '$', fail)).toThrow(want);
  });
});
