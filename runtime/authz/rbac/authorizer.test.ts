// The RBAC authorizer and rule resolver over an index: binding scopes
// (ClusterRoleBindings everywhere, RoleBindings in their namespace, to a Role
// or a ClusterRole), upstream's reasons and errors, rulesFor, the index
// following events, and no decision before the index is synced.
import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../auth/user.ts';
import { type Attributes, pathAttributes, resourceAttributes } from '../attributes.ts';
import type { Obj } from '../../storage/interface.ts';
import { AuthorizationModeError, buildAuthorization } from '../modes.ts';
import { decide, rbacMode, rulesFor } from './authorizer.ts';
import { RbacIndex } from './index.ts';
import { CORE, READ, clusterRole, clusterRoleBinding, group, role, roleBinding, rule, serviceAccount, urls, user } from './bootstrap/build.ts';

const alice: UserInfo = { name: 'alice', groups: ['devs', 'system:authenticated'] };
const bob: UserInfo = { name: 'bob', groups: ['system:authenticated'] };
const builder: UserInfo = { name: 'system:serviceaccount:team:builder', groups: ['system:serviceaccounts', 'system:authenticated'] };

const podReader = clusterRole('pod-reader', [rule(READ, CORE, 'pods')]);
const cmWriter = role('team', 'cm-writer', [rule('create update', CORE, 'configmaps')]);
const healthz = clusterRole('healthz', [urls('get', '/healthz /logs/*')]);

function indexOf(objs: Obj[]): RbacIndex {
  const idx = new RbacIndex();
  for (const kind of ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'] as const)
    idx.replace(
      kind,
      objs.filter((o) => o.kind === kind),
    );
  return idx;
}

const get = (u: UserInfo, resource: string, namespace = '', name = ''): Attributes => resourceAttributes(u, 'get', { resource, namespace, name, apiVersion: 'v1' });

describe('decisions', () => {
  const rbCm = roleBinding('team', 'writers', 'cm-writer', [group('devs')]);
  const rbPods = { ...roleBinding('team', 'pod-readers', 'x', [serviceAccount('team', 'builder')]), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pod-reader' } };
  const idx = indexOf([
    podReader,
    cmWriter,
    healthz,
    clusterRoleBinding('alice-reads-pods', 'pod-reader', [user('alice')]),
    clusterRoleBinding('everyone-healthz', 'healthz', [group('system:authenticated')]),
    rbCm,
    rbPods,
    clusterRoleBinding('dangling', 'no-such-role', [user('bob')]),
    roleBinding('team', 'dangling-role', 'missing', [user('bob')]),
  ]);
  const rows: [string, Attributes, string, string][] = [
    ['ClusterRoleBinding to a user, any namespace', get(alice, 'pods', 'elsewhere'), 'allow', 'RBAC: allowed by ClusterRoleBinding "alice-reads-pods" of ClusterRole "pod-reader" to User "alice"'],
    [
      'ClusterRoleBinding at cluster scope',
      resourceAttributes(alice, 'list', { resource: 'pods' }),
      'allow',
      'RBAC: allowed by ClusterRoleBinding "alice-reads-pods" of ClusterRole "pod-reader" to User "alice"',
    ],
    ['verb not granted', resourceAttributes(alice, 'delete', { resource: 'pods', namespace: 'team', name: 'p' }), 'noopinion', ''],
    [
      'RoleBinding to a Role by group, in its namespace',
      resourceAttributes(alice, 'create', { resource: 'configmaps', namespace: 'team' }),
      'allow',
      'RBAC: allowed by RoleBinding "writers/team" of Role "cm-writer" to Group "devs"',
    ],
    ['RoleBinding does not reach another namespace', resourceAttributes(alice, 'create', { resource: 'configmaps', namespace: 'other' }), 'noopinion', ''],
    ['RoleBinding does not reach the cluster scope', resourceAttributes(alice, 'create', { resource: 'configmaps' }), 'noopinion', ''],
    [
      'RoleBinding to a ClusterRole for a service account',
      get(builder, 'pods', 'team', 'p'),
      'allow',
      'RBAC: allowed by RoleBinding "pod-readers/team" of ClusterRole "pod-reader" to ServiceAccount "builder/team"',
    ],
    ['the ClusterRole grants only in the RoleBinding namespace', get(builder, 'pods', 'other', 'p'), 'noopinion', ''],
    ['non-resource URL', pathAttributes(bob, 'get', '/healthz'), 'allow', 'RBAC: allowed by ClusterRoleBinding "everyone-healthz" of ClusterRole "healthz" to Group "system:authenticated"'],
    ['non-resource URL prefix', pathAttributes(alice, 'get', '/logs/x/y'), 'allow', 'RBAC: allowed by ClusterRoleBinding "everyone-healthz" of ClusterRole "healthz" to Group "system:authenticated"'],
    ['missing ClusterRole is an error in the reason', get(bob, 'pods'), 'noopinion', 'RBAC: clusterrole.rbac.authorization.k8s.io "no-such-role" not found'],
    [
      'both missing roles, in a namespace',
      get(bob, 'pods', 'team'),
      'noopinion',
      'RBAC: [clusterrole.rbac.authorization.k8s.io "no-such-role" not found, role.rbac.authorization.k8s.io "missing" not found]',
    ],
    ['nobody bound', get({ name: 'carol', groups: [] }, 'pods', 'team'), 'noopinion', ''],
  ];
  it.each(rows)('%s', (_n, a, decision, reason) => {
    expect(decide(idx, a)).toEqual({ decision, reason });
  });

  it('a missing role does not hide a grant from another binding', () => {
    const i2 = indexOf([podReader, clusterRoleBinding('dangling', 'gone', [user('bob')]), clusterRoleBinding('ok', 'pod-reader', [user('bob')])]);
    expect(decide(i2, get(bob, 'pods')).decision).toBe('allow');
  });
  it('an unsupported roleRef kind is an error', () => {
    const odd = { ...clusterRoleBinding('odd', 'x', [user('bob')]), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Thing', name: 'x' } };
    expect(decide(indexOf([odd]), get(bob, 'pods')).reason).toBe('RBAC: unsupported role reference kind: "Thing"');
  });
});

describe('the index follows events', () => {
  it('a binding added, changed and deleted', () => {
    const idx = indexOf([podReader, cmWriter]);
    const a = get(bob, 'pods', 'team');
    expect(decide(idx, a).decision).toBe('noopinion');
    const b = roleBinding('team', 'b', 'x', [user('bob')]);
    b.roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'pod-reader' };
    idx.upsert('RoleBinding', b);
    expect(decide(idx, a).decision).toBe('allow');
    // the same binding now names someone else: bob loses it
    idx.upsert('RoleBinding', { ...b, subjects: [user('alice')] });
    expect(decide(idx, a).decision).toBe('noopinion');
    expect(decide(idx, get(alice, 'pods', 'team')).decision).toBe('allow');
    idx.remove('RoleBinding', b);
    expect(decide(idx, get(alice, 'pods', 'team')).decision).toBe('noopinion');
    expect(idx.counts().RoleBinding).toBe(0);
  });
  it('a role changed or deleted', () => {
    const idx = indexOf([podReader, clusterRoleBinding('r', 'pod-reader', [user('bob')])]);
    idx.upsert('ClusterRole', clusterRole('pod-reader', [rule('get', CORE, 'services')]));
    expect(decide(idx, get(bob, 'pods')).decision).toBe('noopinion');
    expect(decide(idx, get(bob, 'services')).decision).toBe('allow');
    idx.remove('ClusterRole', podReader);
    expect(decide(idx, get(bob, 'services')).reason).toBe('RBAC: clusterrole.rbac.authorization.k8s.io "pod-reader" not found');
  });
  it('a full re-list replaces what was there', () => {
    const idx = indexOf([podReader, clusterRoleBinding('r', 'pod-reader', [user('bob')])]);
    idx.replace('ClusterRoleBinding', []);
    expect(decide(idx, get(bob, 'pods')).decision).toBe('noopinion');
  });
  it('a binding naming the same subject twice is filed once', () => {
    const idx = indexOf([podReader, clusterRoleBinding('twice', 'pod-reader', [user('bob'), user('bob'), group('system:authenticated')])]);
    expect(idx.bindingsFor(bob, '')).toHaveLength(1);
  });
});

describe('rulesFor', () => {
  const idx = indexOf([
    podReader,
    cmWriter,
    healthz,
    clusterRoleBinding('r', 'pod-reader', [user('alice')]),
    clusterRoleBinding('h', 'healthz', [user('alice')]),
    roleBinding('team', 'w', 'cm-writer', [user('alice')]),
    clusterRoleBinding('gone', 'nope', [user('alice')]),
  ]);
  it('cluster rules and the namespace rules, with the errors', () => {
    expect(rulesFor(idx, alice, 'team')).toEqual({
      resourceRules: [
        { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] },
        { verbs: ['create', 'update'], apiGroups: [''], resources: ['configmaps'] },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/logs/*'] }],
      incomplete: false,
      error: 'clusterrole.rbac.authorization.k8s.io "nope" not found',
    });
    expect(rulesFor(idx, alice, 'other').resourceRules).toHaveLength(1);
  });
});

describe('before the index is synced', () => {
  it('answers wait for the first lists of every kind', async () => {
    const idx = new RbacIndex();
    const mode = rbacMode(idx);
    let answered = false;
    const pending = Promise.resolve(mode.authorizer.authorize(get(bob, 'pods'))).then((r) => ((answered = true), r));
    idx.replace('ClusterRole', [podReader]);
    idx.replace('ClusterRoleBinding', [clusterRoleBinding('r', 'pod-reader', [user('bob')])]);
    idx.replace('Role', []);
    await Promise.resolve();
    expect(answered).toBe(false);
    idx.replace('RoleBinding', []);
    expect((await pending).decision).toBe('allow');
  });
});

describe('--authorization-mode=RBAC', () => {
  it('builds the mode from the index it is handed, after system:masters', async () => {
    const idx = indexOf([podReader, clusterRoleBinding('r', 'pod-reader', [user('bob')])]);
    const built = buildAuthorization(['RBAC'], { rbac: idx });
    expect(built.modes).toEqual(['RBAC']);
    expect(await built.authorizer.authorize(get(bob, 'pods'))).toEqual({ decision: 'allow', reason: 'RBAC: allowed by ClusterRoleBinding "r" of ClusterRole "pod-reader" to User "bob"' });
    expect((await built.authorizer.authorize(get(alice, 'pods'))).decision).toBe('noopinion');
    expect((await built.authorizer.authorize(get({ name: 'root', groups: ['system:masters'] }, 'secrets'))).decision).toBe('allow');
    expect((await built.ruleResolver.rulesFor(bob, 'x')).resourceRules).toEqual([{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }]);
  });
  it('refuses to build without an index', () => {
    expect(() => buildAuthorization(['RBAC'])).toThrow(AuthorizationModeError);
  });
});
