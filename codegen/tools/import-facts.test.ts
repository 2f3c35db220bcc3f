// Table-driven tests of the import tool's pure pieces on small synthetic
// inputs (the tool itself is run by hand, never by tests).

import { describe, expect, it } from 'vitest';
import { collectOps, parseResourcePath, refsOf, resourceFacts, sortKeys, toV3Facts, closure } from './import-facts.ts';

describe('parseResourcePath', () => {
  it.each([
    ['/api/v1/namespaces/{namespace}/pods', { group: '', version: 'v1', plural: 'pods', namespaced: true, subresource: undefined }],
    ['/api/v1/pods', { group: '', version: 'v1', plural: 'pods', namespaced: false, subresource: undefined }],
    ['/api/v1/namespaces/{namespace}/pods/{name}/status', { group: '', version: 'v1', plural: 'pods', namespaced: true, subresource: 'status' }],
    ['/api/v1/namespaces/{name}', { group: '', version: 'v1', plural: 'namespaces', namespaced: false, subresource: undefined }],
    ['/api/v1/namespaces/{name}/finalize', { group: '', version: 'v1', plural: 'namespaces', namespaced: false, subresource: 'finalize' }],
    ['/apis/apps/v1/watch/namespaces/{namespace}/deployments/{name}', { group: 'apps', version: 'v1', plural: 'deployments', namespaced: true, subresource: undefined }],
    ['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale', { group: 'apps', version: 'v1', plural: 'deployments', namespaced: true, subresource: 'scale' }],
    ['/api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}', { group: '', version: 'v1', plural: 'pods', namespaced: true, subresource: 'proxy' }],
  ])('%s', (path, expected) => {
    expect(parseResourcePath(path)).toEqual(expected);
  });

  it.each(['/version/', '/apis/apps/v1/', '/.well-known/openid-configuration/'])('%s is not a resource path', (path) => {
    expect(parseResourcePath(path)).toBeUndefined();
  });
});

describe('toV3Facts', () => {
  it.each([
    ['drops descriptions everywhere', { description: 'x', type: 'object', properties: { a: { description: 'y', type: 'string' } } }, { type: 'object', properties: { a: { type: 'string' } } }],
    ['rewrites refs', { $ref: '#/definitions/A' }, { $ref: '#/components/schemas/A' }],
    ['wraps a ref with sibling markers in allOf', { $ref: '#/definitions/A', description: 'd', 'x-kubernetes-map-type': 'atomic' }, { allOf: [{ $ref: '#/components/schemas/A' }], 'x-kubernetes-map-type': 'atomic' }],
    ['keeps a ref with only a description plain', { $ref: '#/definitions/A', description: 'd' }, { $ref: '#/components/schemas/A' }],
    ['keeps a property called description', { properties: { description: { type: 'string' } } }, { properties: { description: { type: 'string' } } }],
    ['keeps markers and items', { type: 'array', items: { $ref: '#/definitions/B' }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
      { type: 'array', items: { $ref: '#/components/schemas/B' }, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] }],
  ])('%s', (_n, input, expected) => {
    expect(toV3Facts(input as never)).toEqual(expected);
  });
});

describe('helpers', () => {
  it('sortKeys orders keys recursively and keeps arrays in order', () => {
    expect(JSON.stringify(sortKeys({ b: 1, a: { d: [3, 1], c: 2 } }))).toBe('{"a":{"c":2,"d":[3,1]},"b":1}');
  });

  it('refsOf and closure follow references transitively', () => {
    const defs = {
      A: { properties: { b: { $ref: '#/definitions/B' } } },
      B: { items: { $ref: '#/components/schemas/C' } },
      C: { type: 'string' },
      D: { type: 'string' },
    };
    expect([...refsOf(defs.A)]).toEqual(['B']);
    expect([...closure(defs, ['A'])].sort()).toEqual(['A', 'B', 'C']);
    expect(() => closure(defs, ['Missing'])).toThrow(/missing definition Missing/);
  });
});

describe('resourceFacts', () => {
  const gvk = (kind: string, group = 'apps') => ({ group, version: 'v1', kind });
  const swagger = {
    paths: {
      '/apis/apps/v1/namespaces/{namespace}/widgets': {
        get: { 'x-kubernetes-action': 'list', 'x-kubernetes-group-version-kind': gvk('Widget') },
        post: { 'x-kubernetes-action': 'post', 'x-kubernetes-group-version-kind': gvk('Widget') },
        delete: { 'x-kubernetes-action': 'deletecollection', 'x-kubernetes-group-version-kind': gvk('Widget') },
      },
      '/apis/apps/v1/namespaces/{namespace}/widgets/{name}': {
        get: { 'x-kubernetes-action': 'get', 'x-kubernetes-group-version-kind': gvk('Widget') },
        put: { 'x-kubernetes-action': 'put', 'x-kubernetes-group-version-kind': gvk('Widget') },
      },
      '/apis/apps/v1/watch/widgets': {
        get: { 'x-kubernetes-action': 'watchlist', 'x-kubernetes-group-version-kind': gvk('Widget') },
      },
      '/apis/apps/v1/namespaces/{namespace}/widgets/{name}/scale': {
        get: { 'x-kubernetes-action': 'get', 'x-kubernetes-group-version-kind': gvk('Scale', 'autoscaling') },
        patch: { 'x-kubernetes-action': 'patch', 'x-kubernetes-group-version-kind': gvk('Scale', 'autoscaling') },
      },
      '/apis/apps/v1/namespaces/{namespace}/widgets/{name}/exec': {
        get: { 'x-kubernetes-action': 'connect', 'x-kubernetes-group-version-kind': gvk('WidgetExecOptions') },
        post: { 'x-kubernetes-action': 'connect', 'x-kubernetes-group-version-kind': gvk('WidgetExecOptions') },
        head: { 'x-kubernetes-action': 'connect', 'x-kubernetes-group-version-kind': gvk('WidgetExecOptions') },
      },
    },
  };
  const ops = collectOps(swagger as never);

  it('collects verbs, scope and subresources', () => {
    expect(resourceFacts(ops, 'apps', 'v1', 'Widget')).toEqual({
      kind: 'Widget', plural: 'widgets', namespaced: true,
      verbs: ['create', 'deletecollection', 'get', 'list', 'update', 'watch'],
      subresources: [
        { name: 'exec', kind: 'WidgetExecOptions', verbs: ['create', 'get'] },
        { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch'] },
      ],
    });
  });

  it('fails for a kind no path serves', () => {
    expect(() => resourceFacts(ops, 'apps', 'v1', 'Gadget')).toThrow(/expected one plural/);
  });
});
