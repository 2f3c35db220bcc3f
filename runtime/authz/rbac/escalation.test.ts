// Escalation decisions: who passes without a rule check, what escalate and
// bind are asked with, the no-escalation message, and the GC-only update.
import { describe, expect, it } from 'vitest';
import type { Attributes } from '../attributes.ts';
import type { Authorizer, RuleResolver } from '../authorizer.ts';
import { bindingAuthorized, confirmNoEscalation, escalationAllowed, onlyGCFieldsChanged, roleEscalationAuthorized } from './escalation.ts';
import type { PolicyRule } from './rules.ts';

const alice = { name: 'alice', groups: ['devs', 'system:authenticated'] };

describe('escalationAllowed', () => {
  it.each([
    [['system:masters'], true],
    [['system:authenticated', 'system:masters'], true],
    [['system:authenticated'], false],
    [[], false],
  ])('groups %j: %s', (groups, want) => {
    expect(escalationAllowed({ name: 'u', groups })).toBe(want);
  });
});

function recording(decide: (a: Attributes) => boolean): { authorizer: Authorizer; asked: Attributes[] } {
  const asked: Attributes[] = [];
  return {
    asked,
    authorizer: {
      authorize(a) {
        asked.push(a);
        return { decision: decide(a) ? 'allow' : 'noopinion', reason: '' };
      },
    },
  };
}

describe('roleEscalationAuthorized and bindingAuthorized', () => {
  it('ask escalate on the role of the request', async () => {
    const { authorizer, asked } = recording((a) => a.verb === 'escalate');
    expect(await roleEscalationAuthorized(authorizer, alice, { resource: 'roles', namespace: 'ns', name: '' })).toBe(true);
    expect(asked[0]).toMatchObject({ verb: 'escalate', isResourceRequest: true, apiGroup: 'rbac.authorization.k8s.io', apiVersion: '*', resource: 'roles', namespace: 'ns', name: '' });
  });

  const rows: [string, { apiGroup?: string; kind?: string; name?: string }, string, Partial<Attributes> | undefined][] = [
    ['a ClusterRole', { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, 'ns', { resource: 'clusterroles', name: 'view', namespace: 'ns' }],
    ['a Role', { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, 'ns', { resource: 'roles', name: 'r', namespace: 'ns' }],
    ['a ClusterRole from a ClusterRoleBinding', { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'x' }, '', { resource: 'clusterroles', namespace: '' }],
    ['another kind is never authorized', { kind: 'Group', name: 'g' }, 'ns', undefined],
  ];
  it.each(rows)('bind %s', async (_n, ref, ns, want) => {
    const { authorizer, asked } = recording(() => true);
    expect(await bindingAuthorized(authorizer, alice, ref, ns)).toBe(want !== undefined);
    if (want) expect(asked[0]).toMatchObject({ verb: 'bind', apiGroup: ref.apiGroup, ...want });
    else expect(asked).toEqual([]);
  });

  it('an authorizer that fails does not authorize', async () => {
    const failing: Authorizer = {
      authorize() {
        throw new Error('webhook down');
      },
    };
    expect(await roleEscalationAuthorized(failing, alice, { resource: 'roles', namespace: '', name: '' })).toBe(false);
  });
});

const resolverOf = (rules: PolicyRule[], error?: string): RuleResolver => ({
  rulesFor: () => ({
    resourceRules: rules.filter((r) => r.resources).map((r) => ({ verbs: r.verbs, apiGroups: r.apiGroups ?? [], resources: r.resources ?? [], resourceNames: r.resourceNames })),
    nonResourceRules: rules.filter((r) => r.nonResourceURLs).map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs ?? [] })),
    incomplete: false,
    error,
  }),
});

describe('confirmNoEscalation', () => {
  it('passes when the rules are held', async () => {
    expect(await confirmNoEscalation(resolverOf([{ verbs: ['*'], apiGroups: [''], resources: ['pods'] }]), alice, 'ns', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }])).toBeUndefined();
  });
  it('names the user, its groups and the missing rules, sorted and without repeats', async () => {
    const msg = await confirmNoEscalation(resolverOf([{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]), alice, 'ns', [
      { verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets', 'pods'] },
      { verbs: ['list'], apiGroups: [''], resources: ['secrets'] },
      { verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['a', 'b'] },
    ]);
    expect(msg).toBe(
      'user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["list"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list" "list"]}\n' +
        '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["a"], Verbs:["get"]}\n' +
        '{APIGroups:["apps"], Resources:["deployments"], ResourceNames:["b"], Verbs:["get"]}',
    );
  });
  it("adds the resolver's errors", async () => {
    const msg = await confirmNoEscalation(resolverOf([], 'clusterrole "x" not found'), alice, 'ns', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]);
    expect(msg).toMatch(/Verbs:\["get"\]\}; resolution errors: \[clusterrole "x" not found\]$/);
  });
});

describe('onlyGCFieldsChanged', () => {
  const old = { metadata: { name: 'r', resourceVersion: '5', ownerReferences: [{ uid: '1' }], finalizers: ['a/b'], labels: { x: 'y' } }, rules: [] };
  const rows: [string, Record<string, unknown>, boolean][] = [
    ['no change', structuredClone(old), true],
    ['owner references removed', { ...old, metadata: { ...old.metadata, ownerReferences: undefined } }, true],
    ['finalizers changed', { ...old, metadata: { ...old.metadata, finalizers: [] } }, true],
    ['managed fields recorded', { ...old, metadata: { ...old.metadata, managedFields: [{ manager: 'm' }] } }, true],
    ['a label changed', { ...old, metadata: { ...old.metadata, labels: { x: 'z' } } }, false],
    ['the rules changed', { ...old, rules: [{ verbs: ['get'] }] }, false],
    ['no resourceVersion sent', { ...old, metadata: { ...old.metadata, resourceVersion: undefined } }, false],
  ];
  it.each(rows)('%s: %s', (_n, obj, want) => {
    expect(onlyGCFieldsChanged(JSON.parse(JSON.stringify(obj)), old)).toBe(want);
  });
});
