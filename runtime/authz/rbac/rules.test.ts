// RBAC rule matching, table-driven against upstream's RuleAllows cases.
import { describe, expect, it } from 'vitest';
import { pathAttributes, resourceAttributes } from '../attributes.ts';
import { type PolicyRule, ruleAllows } from './rules.ts';

const u = { name: 'u', groups: [] };
const res = (verb: string, apiGroup: string, resource: string, subresource = '', name = '') => resourceAttributes(u, verb, { apiGroup, resource, subresource, name, namespace: 'ns' });

describe('ruleAllows', () => {
  const rows: [string, PolicyRule, ReturnType<typeof res>, boolean][] = [
    ['exact', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('get', '', 'pods'), true],
    ['other verb', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('list', '', 'pods'), false],
    ['other group', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('get', 'apps', 'pods'), false],
    ['no groups at all', { verbs: ['get'], resources: ['pods'] }, res('get', '', 'pods'), false],
    ['star verb, group and resource', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, res('delete', 'apps', 'deployments', 'scale'), true],
    ['resource does not cover its subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('get', '', 'pods', 'log'), false],
    ['combined resource/subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res('get', '', 'pods', 'log'), true],
    ['subresource rule does not cover the resource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res('get', '', 'pods'), false],
    ['*/subresource', { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }, res('update', 'apps', 'deployments', 'scale'), true],
    ['*/subresource is not a prefix match', { verbs: ['update'], apiGroups: ['*'], resources: ['*/scale'] }, res('update', 'apps', 'deployments', 'xscale'), false],
    ['resourceNames hold the name', { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }, res('get', '', 'secrets', '', 'a'), true],
    ['resourceNames without the name', { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }, res('get', '', 'secrets', '', 'b'), false],
    ['resourceNames and a list (no name)', { verbs: ['list'], apiGroups: [''], resources: ['secrets'], resourceNames: ['a'] }, res('list', '', 'secrets'), false],
    ['a resource rule does not allow paths', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, pathAttributes(u, 'get', '/healthz'), false],
    ['exact path', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, pathAttributes(u, 'get', '/healthz'), true],
    ['path prefix with *', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, pathAttributes(u, 'get', '/healthz/etcd'), true],
    ['prefix * needs the prefix', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, pathAttributes(u, 'get', '/healthz'), false],
    ['star path', { verbs: ['*'], nonResourceURLs: ['*'] }, pathAttributes(u, 'post', '/anything'), true],
    ['path rule, other verb', { verbs: ['get'], nonResourceURLs: ['*'] }, pathAttributes(u, 'post', '/x'), false],
    ['a path rule does not allow resources', { verbs: ['*'], nonResourceURLs: ['*'] }, res('get', '', 'pods'), false],
  ];
  it.each(rows)('%s', (_n, rule, a, want) => {
    expect(ruleAllows(a, rule)).toBe(want);
  });
});
