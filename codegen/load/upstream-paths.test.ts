import { describe, expect, it } from 'vitest';
import { parsePath, readUpstreamPaths } from './upstream-paths.ts';
import { CodegenError } from './errors.ts';

describe('parsePath', () => {
  it.each([
    ['/api/v1/pods', { group: '', version: 'v1', plural: 'pods', namespaced: false, item: false, sub: undefined, watch: false }],
    ['/api/v1/namespaces/{namespace}/pods/{name}/status', { group: '', version: 'v1', plural: 'pods', namespaced: true, item: true, sub: 'status', watch: false }],
    ['/api/v1/namespaces/{name}', { group: '', version: 'v1', plural: 'namespaces', namespaced: false, item: true, sub: undefined, watch: false }],
    ['/apis/apps/v1/watch/namespaces/{namespace}/deployments', { group: 'apps', version: 'v1', plural: 'deployments', namespaced: true, item: false, sub: undefined, watch: true }],
    ['/api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}', { group: '', version: 'v1', plural: 'pods', namespaced: true, item: true, sub: 'proxy', watch: false }],
  ])('%s', (p, want) => expect(parsePath(p)).toEqual(want));

  it.each(['/apis/apps/v1/', '/version', '/apis/apps/v1/{weird}'])('%s is not a resource path', (p) => expect(parsePath(p)).toBeNull());
});

const resp = (name: string) => ({ responses: { '200': { content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } } } });
const schemas: Record<string, { gvk: { group: string; version: string; kind: string }[]; items?: string }> = {
  'x.Thing': { gvk: [{ group: 'x.io', version: 'v1', kind: 'Thing' }] },
  'x.ThingList': { gvk: [{ group: 'x.io', version: 'v1', kind: 'ThingList' }], items: 'x.Thing' },
  'x.Scale': { gvk: [{ group: 'autoscaling', version: 'v1', kind: 'Scale' }] },
  'meta.Status': { gvk: [{ group: '', version: 'v1', kind: 'Status' }] },
};
const gvkOf = (n: string) => schemas[n]?.gvk ?? [];
const itemsOf = (n: string) => schemas[n]?.items;

describe('readUpstreamPaths', () => {
  it('infers verbs, scope, kind and subresources without x-kubernetes-action', () => {
    const paths = {
      '/apis/x.io/v1/': { get: {} },
      '/apis/x.io/v1/things': { get: resp('x.ThingList') },
      '/apis/x.io/v1/namespaces/{namespace}/things': { get: resp('x.ThingList'), post: resp('x.Thing'), delete: resp('meta.Status') },
      '/apis/x.io/v1/namespaces/{namespace}/things/{name}': { get: resp('x.Thing'), put: resp('x.Thing'), patch: resp('x.Thing'), delete: resp('meta.Status') },
      '/apis/x.io/v1/namespaces/{namespace}/things/{name}/scale': { get: resp('x.Scale'), patch: resp('x.Scale') },
      '/apis/x.io/v1/watch/namespaces/{namespace}/things': { get: {} },
    };
    const r = readUpstreamPaths('f.json', paths, gvkOf, itemsOf);
    expect(r.group).toBe('x.io');
    expect(r.version).toBe('v1');
    expect(r.resources).toHaveLength(1);
    expect(r.resources[0]).toMatchObject({
      kind: 'Thing',
      plural: 'things',
      singular: 'thing',
      namespaced: true,
      verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'],
      subresources: [{ name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch'] }],
      gvk: { group: 'x.io', version: 'v1', kind: 'Thing' },
    });
  });

  it('takes x-kubernetes-action and x-kubernetes-group-version-kind when present', () => {
    const gvk = { group: 'x.io', version: 'v1', kind: 'Thing' };
    const r = readUpstreamPaths(
      'f.json',
      {
        '/apis/x.io/v1/things': { post: { 'x-kubernetes-action': 'post', 'x-kubernetes-group-version-kind': gvk } },
      },
      () => [],
      () => undefined,
    );
    expect(r.resources[0]).toMatchObject({ kind: 'Thing', namespaced: false, verbs: ['create'], virtual: true });
  });

  it('fails on an unknown action and on a resource of unknown kind', () => {
    expect(() => readUpstreamPaths('f.json', { '/apis/x.io/v1/things': { get: { 'x-kubernetes-action': 'frobnicate' } } }, gvkOf, itemsOf)).toThrow(CodegenError);
    expect(() => readUpstreamPaths('f.json', { '/apis/x.io/v1/things': { get: {} } }, gvkOf, itemsOf)).toThrow(/f\.json: \$\.paths\["\/apis\/x\.io\/v1\/things"\]: cannot tell the kind/);
  });
});
