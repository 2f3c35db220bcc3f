// The cut of the OpenAPI documents to the served set: which resource a path
// names, which paths are kept, and that definitions are the closure of the
// kept paths (nothing dangling, nothing unreachable).
import { describe, expect, it } from 'vitest';
import { pathServed, pathTarget, servedSet, servedV2, servedV3 } from './served.ts';

describe('pathTarget', () => {
  it.each([
    ['/api/v1/', { group: '', version: 'v1', resource: undefined }],
    ['/api/v1/pods', { group: '', version: 'v1', resource: 'pods' }],
    ['/api/v1/namespaces', { group: '', version: 'v1', resource: 'namespaces' }],
    ['/api/v1/namespaces/{name}', { group: '', version: 'v1', resource: 'namespaces' }],
    ['/api/v1/namespaces/{name}/finalize', { group: '', version: 'v1', resource: 'namespaces' }],
    ['/api/v1/watch/namespaces/{name}', { group: '', version: 'v1', resource: 'namespaces' }],
    ['/api/v1/namespaces/{namespace}/pods/{name}/status', { group: '', version: 'v1', resource: 'pods' }],
    ['/api/v1/watch/namespaces/{namespace}/configmaps', { group: '', version: 'v1', resource: 'configmaps' }],
    ['/apis/apps/v1/', { group: 'apps', version: 'v1', resource: undefined }],
    ['/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale', { group: 'apps', version: 'v1', resource: 'deployments' }],
    ['/apis/networking.k8s.io/v1beta1/watch/ipaddresses/{name}', { group: 'networking.k8s.io', version: 'v1beta1', resource: 'ipaddresses' }],
    ['/version/', undefined],
    ['/apis/', undefined],
    ['/apis/apps/', undefined],
  ])('%s', (path, want) => {
    expect(pathTarget(path)).toEqual(want);
  });

  it('keeps paths outside the group-versions and a group-version path while any of its resources is served', () => {
    const set = servedSet([{ group: 'apps', version: 'v1', resource: 'deployments' }]);
    expect(pathServed('/version/', set)).toBe(true);
    expect(pathServed('/apis/apps/v1/', set)).toBe(true);
    expect(pathServed('/apis/apps/v1/deployments', set)).toBe(true);
    expect(pathServed('/apis/apps/v1/daemonsets', set)).toBe(false);
    expect(pathServed('/apis/batch/v1/', set)).toBe(false);
  });
});

const ref2 = (n: string) => ({ $ref: `#/definitions/${n}` });
const op = (n: string) => ({ responses: { '200': { description: 'OK', schema: ref2(n) } } });

describe('servedV2', () => {
  const doc = {
    definitions: {
      A: { properties: { b: ref2('B'), list: { items: ref2('C') } } },
      B: { type: 'string' },
      C: { additionalProperties: ref2('D') },
      D: { allOf: [ref2('B')] },
      E: { properties: { default: ref2('F') }, default: { $ref: 'not a schema position' } },
      F: { type: 'object' },
      G: { type: 'integer' },
    },
    info: { title: 'Kubernetes' },
    paths: {
      '/apis/x/v1/': { get: op('G') },
      '/apis/x/v1/as': { get: op('A') },
      '/apis/x/v1/es': { get: op('E') },
    },
    swagger: '2.0',
  };

  it('keeps served paths, the definitions they reach, and every other key in its place', () => {
    const out = servedV2(doc, servedSet([{ group: 'x', version: 'v1', resource: 'as' }]));
    expect(Object.keys(out)).toEqual(['definitions', 'info', 'paths', 'swagger']);
    expect(Object.keys(out.paths as object)).toEqual(['/apis/x/v1/', '/apis/x/v1/as']);
    expect(Object.keys(out.definitions as object)).toEqual(['A', 'B', 'C', 'D', 'G']);
  });

  it('follows properties named like keywords, not values', () => {
    const out = servedV2(doc, servedSet([{ group: 'x', version: 'v1', resource: 'es' }]));
    expect(Object.keys(out.definitions as object)).toEqual(['E', 'F', 'G']);
  });

  it('an empty served set keeps no definition', () => {
    const out = servedV2(doc, servedSet([]));
    expect(out.paths).toEqual({});
    expect(out.definitions).toEqual({});
  });
});

describe('servedV3', () => {
  it('cuts paths and component schemas, reading refs in request bodies and responses', () => {
    const ref3 = (n: string) => ({ $ref: `#/components/schemas/${n}` });
    const doc = {
      components: { schemas: { A: { properties: { b: ref3('B') } }, B: {}, C: {}, Opts: {} } },
      openapi: '3.0.0',
      paths: {
        '/apis/x/v1/as': { post: { requestBody: { content: { '*/*': { schema: ref3('Opts') } } }, responses: { '200': { content: { 'application/json': { schema: ref3('A') } } } } } },
        '/apis/x/v1/cs': { get: { responses: { '200': { content: { 'application/json': { schema: ref3('C') } } } } } },
      },
    };
    const out = servedV3(doc, servedSet([{ group: 'x', version: 'v1', resource: 'as' }]));
    expect(Object.keys(out.paths as object)).toEqual(['/apis/x/v1/as']);
    expect(Object.keys((out.components as { schemas: object }).schemas)).toEqual(['A', 'B', 'Opts']);
  });
});
