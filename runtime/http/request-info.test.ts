import { describe, expect, it } from 'vitest';
import { parseRequestInfo, pathSegments, routingPath, splitTarget } from './request-info.ts';

const q = (s = '') => new URLSearchParams(s);

describe('parseRequestInfo', () => {
  const rows: [string, string, string, Partial<ReturnType<typeof parseRequestInfo>>][] = [
    ['GET', '/api/v1/namespaces/default/configmaps', '', { verb: 'list', namespace: 'default', resource: 'configmaps', name: '', apiGroup: '', apiVersion: 'v1' }],
    ['GET', '/api/v1/namespaces/default/configmaps/a', '', { verb: 'get', name: 'a' }],
    ['GET', '/api/v1/namespaces/default/configmaps', 'watch=1', { verb: 'watch' }],
    ['GET', '/api/v1/namespaces/default/configmaps', 'watch=true', { verb: 'watch' }],
    ['GET', '/api/v1/namespaces/default/configmaps', 'watch=0', { verb: 'list' }],
    ['GET', '/api/v1/watch/namespaces/default/configmaps', '', { verb: 'watch', namespace: 'default', resource: 'configmaps' }],
    ['GET', '/api/v1/configmaps', '', { verb: 'list', namespace: '', resource: 'configmaps' }],
    ['GET', '/api/v1/namespaces', '', { verb: 'list', resource: 'namespaces', name: '' }],
    ['GET', '/api/v1/namespaces/kube-system', '', { verb: 'get', resource: 'namespaces', name: 'kube-system', namespace: 'kube-system' }],
    ['PUT', '/api/v1/namespaces/ns1/finalize', '', { verb: 'update', resource: 'namespaces', name: 'ns1', subresource: 'finalize' }],
    ['PUT', '/api/v1/namespaces/ns1/status', '', { verb: 'update', resource: 'namespaces', name: 'ns1', subresource: 'status' }],
    ['PATCH', '/apis/apps/v1/namespaces/x/deployments/d/scale', '', { verb: 'patch', apiGroup: 'apps', resource: 'deployments', name: 'd', subresource: 'scale', namespace: 'x' }],
    ['POST', '/apis/apps/v1/namespaces/x/deployments', '', { verb: 'create', name: '' }],
    ['DELETE', '/api/v1/namespaces/x/pods', '', { verb: 'deletecollection' }],
    ['DELETE', '/api/v1/namespaces/x/pods/p', '', { verb: 'delete', name: 'p' }],
    ['GET', '/api/v1/nodes/n1', '', { verb: 'get', resource: 'nodes', name: 'n1', namespace: '' }],
    // the method in any case: upper case in `method`; the verb of a non-resource path is the lower-cased method
    ['get', '/api/v1/nodes/n1', '', { method: 'GET', verb: 'get' }],
    ['Delete', '/api/v1/nodes/n1', '', { method: 'DELETE', verb: 'delete' }],
    ['OPTIONS', '/api/v1/nodes/n1', '', { method: 'OPTIONS', verb: '' }],
    ['PROPFIND', '/api/v1/nodes/n1', '', { method: 'PROPFIND', verb: '' }],
    // as upstream: a named GET with ?watch stays a get; any watch value but false/0 is a watch
    ['GET', '/api/v1/namespaces/default/configmaps/a', 'watch=1', { verb: 'get', name: 'a' }],
    ['GET', '/api/v1/namespaces/default/configmaps', 'watch=FALSE', { verb: 'list' }],
    ['GET', '/api/v1/namespaces/default/configmaps', 'watch=', { verb: 'watch' }],
    // the shape is kept: the all-namespaces collection, watch paths, non-GET on watch paths
    ['DELETE', '/api/v1/configmaps', '', { verb: 'deletecollection', namespace: '', namespacePath: false, parts: ['configmaps'] }],
    ['DELETE', '/api/v1/namespaces/x/configmaps', '', { verb: 'deletecollection', namespace: 'x', namespacePath: true }],
    ['GET', '/api/v1/watch/configmaps', '', { verb: 'watch', watchPath: true, namespacePath: false }],
    ['DELETE', '/api/v1/watch/namespaces/x/configmaps', '', { verb: 'delete', watchPath: true, namespacePath: true }],
    ['GET', '/api/v1/namespaces/x/namespaces', '', { resource: 'namespaces', namespace: 'x', namespacePath: true, name: '' }],
    // raw segments are decoded one by one; a literal '#' is part of the name, not a fragment
    ['DELETE', '/api/v1/namespaces/x/configmaps/#', '', { verb: 'delete', name: '#' }],
    ['DELETE', '/api/v1/namespaces/x/configmaps/%23', '', { verb: 'delete', name: '#' }],
    ['GET', '/api/v1/namespaces/x/configmaps/a%20b', '', { name: 'a b' }],
    ['GET', '/api/v1/namespaces/x/configmaps/%C3%A9', '', { name: 'é' }],
    ['GET', '/api/v1/namespaces/x/configmaps/\u00c3\u00a9', '', { name: 'é' }],
    ['GET', '/api/v1/namespaces/x/configmaps/%ff', '', { name: '\ufffd' }],
    // a dot segment in the name is kept for the router to refuse (400), never resolved
    ['DELETE', '/api/v1/namespaces/x/configmaps/..', '', { verb: 'delete', name: '..' }],
    ['DELETE', '/api/v1/namespaces/x/configmaps/%2e%2E', '', { verb: 'delete', name: '..' }],
    ['DELETE', '/api/v1/namespaces/x/configmaps/./', '', { verb: 'delete', name: '.' }],
    // a proxy's forwarded path: more parts, not interpreted (empty, dot and escaped-slash segments included)
    ['GET', '/api/v1/namespaces/x/services/s/proxy/a/b', '', { verb: 'get', resource: 'services', name: 's', subresource: 'proxy', parts: ['services', 's', 'proxy', 'a', 'b'] }],
    ['POST', '/api/v1/nodes/n:4194/proxy/a//b', '', { verb: 'create', name: 'n:4194', subresource: 'proxy', parts: ['nodes', 'n:4194', 'proxy', 'a', '', 'b'] }],
    ['PUT', '/api/v1/namespaces/x/pods/p/proxy/../a', '', { verb: 'update', subresource: 'proxy', parts: ['pods', 'p', 'proxy', '..', 'a'] }],
    ['PATCH', '/api/v1/namespaces/x/pods/p/proxy/a%2Fb/', '', { verb: 'patch', parts: ['pods', 'p', 'proxy', 'a/b'] }],
    ['DELETE', '/api/v1/namespaces/x/pods/p/proxy//', '', { verb: 'delete', parts: ['pods', 'p', 'proxy', ''] }],
    // as upstream: HEAD is a get; a method without a verb (OPTIONS) is authorized with an empty one
    ['HEAD', '/api/v1/namespaces/x/pods/p/proxy', '', { verb: 'get', method: 'HEAD', subresource: 'proxy' }],
    ['OPTIONS', '/api/v1/namespaces/x/pods/p/proxy/a', '', { verb: '', method: 'OPTIONS', subresource: 'proxy' }],
    ['OPTIONS', '/api/v1/namespaces/x/configmaps', '', { verb: '', method: 'OPTIONS' }],
  ];
  it.each(rows)('%s %s?%s', (method, path, query, want) => {
    const info = parseRequestInfo(method, path, q(query));
    expect(info.isResourceRequest).toBe(true);
    expect(info.pathError).toBeUndefined();
    expect(info).toMatchObject(want);
  });

  it.each([
    ['HEAD', '/healthz', 'HEAD', 'head'],
    ['Post', '/version', 'POST', 'post'],
    ['PROPFIND', '/version', 'PROPFIND', 'propfind'],
  ])('non-resource %s %s: method %s, verb %s', (method, path, upper, verb) => {
    expect(parseRequestInfo(method, path, q())).toMatchObject({ isResourceRequest: false, method: upper, verb });
  });

  // paths that address nothing as written: refused, never normalised into another path
  it.each([
    ['DELETE', '/api/v1/namespaces/x/configmaps/a/..', 404],
    ['DELETE', '/api/v1/namespaces/x/configmaps/a/%2e%2e', 404],
    ['DELETE', '/api/v1/namespaces/x/configmaps/a/.', 404],
    ['DELETE', '/api/v1/namespaces/../configmaps', 404],
    ['DELETE', '/api/v1/namespaces/x/../configmaps', 404],
    ['DELETE', '/api/v1/../v1/namespaces/x/configmaps', 404],
    ['DELETE', '/apis/apps/%2E%2E/namespaces/x/deployments', 404],
    ['DELETE', '/apis/./v1/namespaces/x/deployments', 404],
    ['DELETE', '/api/v1/namespaces/x/../p', 404],
    ['GET', '/api/v1/namespaces/x/pods/p/../a', 404],
    ['GET', '/api/v1/namespaces/x/pods/p/log/.', 404],
    ['DELETE', '/api/v1/namespaces//configmaps', 404],
    ['DELETE', '/api/v1/namespaces/x/configmaps//', 404],
    ['DELETE', '//api/v1/namespaces/x/configmaps', 404],
    ['DELETE', '/api/v1/namespaces/x%2Fconfigmaps', 404],
    ['DELETE', '/api/v1/namespaces/x/configmaps/a%2F..', 404],
    ['DELETE', '/api/v1/namespaces/x/configmaps/a%zz', 400],
    ['DELETE', '/api/v1/namespaces/x/configmaps/a%2', 400],
    // only a proxy's own path is left uninterpreted
    ['GET', '/api/v1/namespaces/x/pods/p/status/a//b', 404],
    ['GET', '/api/v1/namespaces/x/pods/p/exec/..', 404],
    ['GET', '/api/v1/namespaces/x/pods/p//proxy/a', 404],
    ['GET', '/api/v1/namespaces/x/pods/p/proxy/a%zz', 400],
    ['GET', '/healthz/../api/v1/namespaces/x/secrets', 404],
    ['GET', '/openapi/../api', 404],
    ['GET', '*', 404],
  ])('%s %s → %i', (method, path, code) => {
    expect(parseRequestInfo(method, path, q()).pathError?.code).toBe(code);
  });

  it('names the bad escape', () => {
    expect(parseRequestInfo('GET', '/api/v1/namespaces/x/configmaps/a%zz', q()).pathError?.message).toBe('invalid URL escape "%zz"');
  });

  it.each([
    ['/api/v1/x?watch=1', { path: '/api/v1/x', query: 'watch=1' }],
    ['/api/v1/x/#?a=b#c', { path: '/api/v1/x/#', query: 'a=b#c' }],
    ['http://h:1/api/v1/x/..?q', { path: '/api/v1/x/..', query: 'q' }],
    ['http://h:1', { path: '/', query: '' }],
    ['//h:1/x?y', { path: '//h:1/x', query: 'y' }],
  ])('splitTarget %s', (target, want) => {
    expect(splitTarget(target)).toEqual(want);
  });

  it.each([['/api'], ['/api/v1'], ['/apis'], ['/apis/apps'], ['/apis/apps/v1'], ['/healthz'], ['/openapi/v2'], ['/']])('non-resource %s', (path) => {
    expect(parseRequestInfo('GET', path, q()).isResourceRequest).toBe(false);
  });
});

describe('pathSegments', () => {
  it.each([
    ['/', ['']],
    ['/api', ['api']],
    ['/api/', ['api', '']],
    ['/api/v1/namespaces/default/configmaps/bench', ['api', 'v1', 'namespaces', 'default', 'configmaps', 'bench']],
    ['//a//b/', ['', 'a', '', 'b', '']],
    ['/a%2Fb/c', ['a%2Fb', 'c']],
  ])('%s', (path, segs) => {
    expect(pathSegments(path)).toEqual(segs);
    expect(pathSegments(path)).toEqual(path.slice(1).split('/'));
  });
});

describe('routingPath', () => {
  it.each([
    ['/version', '/version'],
    ['/vers%69on', '/version'],
    ['/healthz%2Fping', '/healthz%2Fping'],
    ['/a%25b', '/a%25b'],
    ['/a%zzb%69', '/a%zzbi'],
    ['/caf%C3%A9', '/caf\u00e9'],
    ['/bad%C3', '/bad%C3'],
  ])('%s routes as %s', (raw, want) => {
    expect(routingPath(raw)).toBe(want);
  });
});
