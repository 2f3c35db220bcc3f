// The authorization deciders until the authorization modes land, and
// kube-apiserver's Forbidden messages.
import { describe, expect, it } from 'vitest';
import { ANONYMOUS } from '../auth/user.ts';
import { AuthorizationModeError, alwaysAllow, alwaysDeny, authenticatedOnly, authorizerFor, forbidden, publicInfoPath } from './authorization.ts';
import { parseRequestInfo } from './request-info.ts';

const info = (method: string, path: string, query = '') => parseRequestInfo(method, path, new URLSearchParams(query));
const alice = { name: 'alice', groups: ['system:authenticated'] };

describe('forbidden messages', () => {
  const rows: [string, string, string, string][] = [
    ['GET', '/api/v1/namespaces/default/configmaps', 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"', ''],
    ['GET', '/api/v1/secrets', 'secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" at the cluster scope', ''],
    ['DELETE', '/apis/apps/v1/namespaces/ns/deployments/web', 'deployments.apps "web" is forbidden: User "alice" cannot delete resource "deployments" in API group "apps" in the namespace "ns"', ''],
    ['PUT', '/api/v1/namespaces/ns/pods/p/status', 'pods "p" is forbidden: User "alice" cannot update resource "pods/status" in API group "" in the namespace "ns"', ''],
    ['GET', '/metrics', 'forbidden: User "alice" cannot get path "/metrics"', ''],
    ['GET', '/api/v1/nodes', 'nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope: no rule', 'no rule'],
  ];
  it.each(rows)('%s %s', (method, path, want, reason) => {
    const e = forbidden(alice, info(method, path), reason);
    expect(e.code).toBe(403);
    expect(e.status()).toMatchObject({ reason: 'Forbidden', message: want });
  });
});

describe('the default decider', () => {
  const anon =
    (method: string, path: string, query = '') =>
    () =>
      authenticatedOnly.authorize(ANONYMOUS, info(method, path, query));
  it.each(['/healthz', '/livez', '/readyz', '/readyz/etcd', '/version', '/api', '/apis', '/apis/apps', '/apis/apps/v1', '/api/v1', '/openapi/v2', '/openapi/v3/apis/apps/v1'])(
    'lets anonymous read %s',
    (p) => {
      expect(anon('GET', p)).not.toThrow();
    },
  );
  it.each([
    ['GET', '/api/v1/namespaces/default/secrets'],
    ['GET', '/api/v1/namespaces'],
    ['POST', '/api/v1/namespaces/default/configmaps'],
    ['GET', '/metrics'],
    ['GET', '/apis/apps/v1/deployments', 'watch=1'],
    ['POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews'],
  ])('refuses anonymous %s %s', (method, path, query = '') => {
    expect(anon(method, path, query)).toThrow(expect.objectContaining({ code: 403 }));
  });
  it('lets an authenticated user do anything', () => {
    expect(() => authenticatedOnly.authorize(alice, info('DELETE', '/api/v1/namespaces/default/secrets/s'))).not.toThrow();
  });
  it('publicInfoPath: no prefix tricks', () => {
    expect(publicInfoPath('/healthzfoo')).toBe(false);
    expect(publicInfoPath('/apis-x')).toBe(false);
    expect(publicInfoPath('/version/')).toBe(true);
  });
});

describe('--authorization-mode', () => {
  it('picks the modes this build has, and names the ones it has not', () => {
    expect(authorizerFor([])).toBe(authenticatedOnly);
    expect(authorizerFor(['AlwaysAllow'])).toBe(alwaysAllow);
    expect(authorizerFor(['AlwaysDeny', 'AlwaysAllow'])).toBe(alwaysDeny);
    expect(() => authorizerFor(['RBAC'])).toThrow(AuthorizationModeError);
    expect(() => authorizerFor(['Node', 'RBAC'])).toThrow(/--authorization-mode Node is not supported/);
  });
  it('AlwaysDeny refuses even an admin', () => {
    expect(() => alwaysDeny.authorize({ name: 'root', groups: ['system:masters'] }, info('GET', '/api/v1/namespaces'))).toThrow(expect.objectContaining({ code: 403 }));
  });
});
