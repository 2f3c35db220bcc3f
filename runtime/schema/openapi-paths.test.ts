import { describe, expect, it } from 'vitest';
import type { ResourceDef } from '../../generated/api-types.ts';
import { groupVersionPaths, opGroupVersion, resourcePaths, tagOf, type SchemaIndex } from './openapi-paths.ts';

describe('naming', () => {
  it.each([
    ['', 'v1', 'CoreV1', 'core_v1'],
    ['apps', 'v1', 'AppsV1', 'apps_v1'],
    ['rbac.authorization.k8s.io', 'v1', 'RbacAuthorizationV1', 'rbac.authorization_v1'.replace(/\./g, '_')],
    ['flowcontrol.apiserver.k8s.io', 'v1beta3', 'FlowcontrolApiserverV1beta3', 'flowcontrol_apiserver_v1beta3'],
    ['example.dev', 'v1', 'ExampleDevV1', 'example_dev_v1'],
  ])('%s/%s', (g, v, op, tag) => {
    expect(opGroupVersion(g, v)).toBe(op);
    expect(tagOf(g, v)).toBe(tag);
  });
});

const gvk = (group: string, version: string, kind: string) => [{ group, version, kind }];
const schema = (name: string, g: string, v: string, k: string): [string, { gvk: { group: string; version: string; kind: string }[] }] => [name, { gvk: gvk(g, v, k) }];
const schemas = new Map([
  schema('core.Pod', '', 'v1', 'Pod'),
  schema('core.PodList', '', 'v1', 'PodList'),
  schema('core.PodExecOptions', '', 'v1', 'PodExecOptions'),
  schema('io.k8s.apimachinery.pkg.apis.meta.v1.Status', '', 'v1', 'Status'),
]);
const model: SchemaIndex = {
  has: (n) => schemas.has(n),
  forGvk: (g, v, k) => [...schemas].find(([, s]) => s.gvk[0].group === g && s.gvk[0].version === v && s.gvk[0].kind === k)?.[0],
};
const pod: ResourceDef = {
  group: '',
  version: 'v1',
  kind: 'Pod',
  listKind: 'PodList',
  resource: 'pods',
  singular: 'pod',
  namespaced: true,
  verbs: ['get', 'list', 'watch', 'create', 'delete'],
  shortNames: [],
  categories: [],
  printerColumns: [],
  selectableFields: [],
  subresources: [
    { name: 'exec', kind: 'PodExecOptions', verbs: ['get', 'create'] },
    { name: 'log', kind: 'Pod', verbs: ['get'] },
    { name: 'proxy', kind: 'PodExecOptions', verbs: ['get'] },
  ],
  allowCreateOnUpdate: false,
  storageVersion: true,
  preferredVersion: true,
  stability: 'GA',
  enabledByDefault: true,
  schema: 'core.Pod',
  custom: false,
  nameRule: 'subdomain',
  virtual: false,
};

describe('resourcePaths', () => {
  const items = resourcePaths(model, pod);
  const ops = Object.fromEntries(items.map((i) => [i.path, i.ops.map((o) => `${o.method} ${o.operationId} ${o.action} ${o.response ?? 'string'}`)]));

  it('has the upstream path set', () => {
    expect(ops).toEqual({
      '/api/v1/namespaces/{namespace}/pods': ['get listCoreV1NamespacedPod list core.PodList', 'post createCoreV1NamespacedPod post core.Pod'],
      '/api/v1/namespaces/{namespace}/pods/{name}': ['get readCoreV1NamespacedPod get core.Pod', 'delete deleteCoreV1NamespacedPod delete io.k8s.apimachinery.pkg.apis.meta.v1.Status'],
      '/api/v1/namespaces/{namespace}/pods/{name}/exec': ['get connectCoreV1GetNamespacedPodExec connect string', 'post connectCoreV1PostNamespacedPodExec connect string'],
      '/api/v1/namespaces/{namespace}/pods/{name}/log': ['get readCoreV1NamespacedPodLog get string'],
      '/api/v1/namespaces/{namespace}/pods/{name}/proxy': [
        'get connectCoreV1GetNamespacedPodProxy connect string',
        'head connectCoreV1HeadNamespacedPodProxy connect string',
        'options connectCoreV1OptionsNamespacedPodProxy connect string',
      ],
      '/api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}': [
        'get connectCoreV1GetNamespacedPodProxyWithPath connect string',
        'head connectCoreV1HeadNamespacedPodProxyWithPath connect string',
        'options connectCoreV1OptionsNamespacedPodProxyWithPath connect string',
      ],
      '/api/v1/watch/namespaces/{namespace}/pods': ['get watchCoreV1NamespacedPodList watchlist string'],
      '/api/v1/watch/namespaces/{namespace}/pods/{name}': ['get watchCoreV1NamespacedPod watch string'],
      '/api/v1/watch/pods': ['get watchCoreV1PodListForAllNamespaces watchlist string'],
      '/api/v1/pods': ['get listCoreV1PodForAllNamespaces list core.PodList'],
    });
  });

  it('tags operations with the kind they serve', () => {
    const exec = items.find((i) => i.path.endsWith('/exec'))!.ops[0];
    expect(exec.gvk).toEqual({ group: '', version: 'v1', kind: 'PodExecOptions' });
    expect(items[0].ops[0].gvk).toEqual({ group: '', version: 'v1', kind: 'Pod' });
  });

  it('sorts and merges the group-version paths, discovery first', () => {
    const all = groupVersionPaths(model, '', 'v1', [pod]).map((i) => i.path);
    expect(all[0]).toBe('/api/v1/');
    expect(all).toEqual([...all].sort());
  });
});
