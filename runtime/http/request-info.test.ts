import { describe, expect, it } from 'vitest';
import { parseRequestInfo } from './request-info.ts';

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
  ];
  it.each(rows)('%s %s?%s', (method, path, query, want) => {
    const info = parseRequestInfo(method, path, q(query));
    expect(info.isResourceRequest).toBe(true);
    expect(info).toMatchObject(want);
  });

  it.each([['/api'], ['/api/v1'], ['/apis'], ['/apis/apps'], ['/apis/apps/v1'], ['/healthz'], ['/openapi/v2'], ['/']])(
    'non-resource %s', (path) => {
      expect(parseRequestInfo('GET', path, q()).isResourceRequest).toBe(false);
    });
});
