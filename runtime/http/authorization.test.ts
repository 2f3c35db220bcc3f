// The authorization stage (what the chain's answers become) and
// kube-apiserver's Forbidden messages.
import { describe, expect, it } from 'vitest';
import type { Attributes } from '../authz/attributes.ts';
import type { AuthorizationResult } from '../authz/authorizer.ts';
import { authorizeRequest, forbidden, impersonationBy } from './authorization.ts';
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

describe('the stage', () => {
  const user = { name: 'bob', groups: ['system:authenticated'] };
  const rows: [string, AuthorizationResult, number | undefined, string][] = [
    ['allow lets the request on', { decision: 'allow', reason: '' }, undefined, ''],
    [
      'no opinion is a 403 with the reason',
      { decision: 'noopinion', reason: 'no RBAC policy matched' },
      403,
      'cannot get resource "pods" in API group "" in the namespace "ns": no RBAC policy matched',
    ],
    ['deny is a 403', { decision: 'deny', reason: '' }, 403, 'User "bob" cannot get resource "pods"'],
    ['an error without an allow is a 500', { decision: 'noopinion', reason: '', error: 'webhook down' }, 500, 'Internal error occurred: webhook down'],
  ];
  it.each(rows)('%s (an authorizer deciding later)', async (_n, result, code, msg) => {
    let seen: Attributes | undefined;
    const p = authorizeRequest({ authorize: async (a) => ((seen = a), result) }, user, info('GET', '/api/v1/namespaces/ns/pods/p'));
    expect(p).toBeInstanceOf(Promise);
    if (code === undefined) await expect(p).resolves.toBeUndefined();
    else await expect(p).rejects.toMatchObject({ code, message: expect.stringContaining(msg) });
    expect(seen).toMatchObject({ user, verb: 'get', isResourceRequest: true, namespace: 'ns', resource: 'pods', name: 'p', apiVersion: 'v1' });
  });
  it.each(rows)('%s (an authorizer deciding at once: no promise)', (_n, result, code, msg) => {
    const run = () => authorizeRequest({ authorize: () => result }, user, info('GET', '/api/v1/namespaces/ns/pods/p'));
    if (code === undefined) expect(run()).toBeUndefined();
    else expect(run).toThrow(expect.objectContaining({ code, message: expect.stringContaining(msg) }));
  });
  it('impersonation checks are asked with verb impersonate', async () => {
    const asked: Attributes[] = [];
    const decide = impersonationBy({ authorize: (a) => (asked.push(a), { decision: a.resource === 'users' ? 'allow' : 'noopinion', reason: 'nope' }) });
    expect(await decide({ verb: 'impersonate', group: '', version: '', resource: 'users', name: 'alice' }, user)).toEqual({ allowed: true, reason: 'nope' });
    expect(await decide({ verb: 'impersonate', group: 'authentication.k8s.io', version: 'v1', resource: 'userextras', subresource: 'scopes', name: 'x' }, user)).toMatchObject({ allowed: false });
    expect(asked[1]).toMatchObject({ verb: 'impersonate', apiGroup: 'authentication.k8s.io', resource: 'userextras', subresource: 'scopes', name: 'x' });
  });
});
