// Role, ClusterRole and binding rules, one row per rule (code, field path,
// message as upstream's), the binding defaults, and the immutable roleRef.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { call, causeMessages, server } from './helpers.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const G = 'rbac.authorization.k8s.io';
let n = 0;
const uniq = (p: string) => `${p}-${++n}`;
const pods = { verbs: ['get'], apiGroups: [''], resources: ['pods'] };

type Row = [string, string, Record<string, unknown>, number, string?];

describe('roles', () => {
  const rows: Row[] = [
    ['a valid Role', 'Role', { rules: [pods] }, 201],
    ['a rule without verbs', 'Role', { rules: [{ verbs: [], apiGroups: [''], resources: ['pods'] }] }, 422, 'rules[0].verbs: Required value: verbs must contain at least one value'],
    ['a rule without groups', 'Role', { rules: [{ verbs: ['get'], resources: ['pods'] }] }, 422, 'rules[0].apiGroups: Required value: resource rules must supply at least one api group'],
    ['a rule without resources', 'Role', { rules: [{ verbs: ['get'], apiGroups: [''] }] }, 422, 'rules[0].resources: Required value: resource rules must supply at least one resource'],
    [
      'URLs in a Role',
      'Role',
      { rules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] },
      422,
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: namespaced rules cannot apply to non-resource URLs',
    ],
    ['URLs in a ClusterRole', 'ClusterRole', { rules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] }, 201],
    [
      'URLs and resources in one rule',
      'ClusterRole',
      { rules: [{ verbs: ['get'], nonResourceURLs: ['/x'], apiGroups: [''], resources: ['pods'] }] },
      422,
      'rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs',
    ],
    [
      'an empty aggregationRule',
      'ClusterRole',
      { aggregationRule: {} },
      422,
      'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ],
    [
      'a bad selector',
      'ClusterRole',
      { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'a b': 'c' } }] } },
      422,
      'aggregationRule.clusterRoleSelectors[0].matchLabels: Invalid value: "a b"',
    ],
    ['a name with a slash', 'ClusterRole', { metadata: { name: 'a/b' } }, 422, `metadata.name: Invalid value: "a/b": may not contain '/'`],
  ];
  it.each(rows)('%s', async (_n, kind, body, code, msg) => {
    const path = kind === 'Role' ? `${RBAC}/namespaces/default/roles` : `${RBAC}/clusterroles`;
    const r = await call(s, 'POST', path, { apiVersion: `${G}/v1`, kind, ...body, metadata: { name: uniq('r'), ...((body.metadata as object) ?? {}) } });
    expect(r.code, JSON.stringify(r.body)).toBe(code);
    if (msg)
      expect(
        causeMessages(r).some((m) => m.startsWith(msg)),
        JSON.stringify(causeMessages(r)),
      ).toBe(true);
  });
});

describe('bindings', () => {
  const user = { kind: 'User', name: 'u' };
  const rows: Row[] = [
    ['defaults: a User subject gets the RBAC apiGroup', 'RoleBinding', { roleRef: { apiGroup: G, kind: 'Role', name: 'r' }, subjects: [user, { kind: 'ServiceAccount', name: 'sa' }] }, 201],
    ['a ClusterRole from a RoleBinding', 'RoleBinding', { roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' } }, 201],
    ['another roleRef kind', 'RoleBinding', { roleRef: { apiGroup: G, kind: 'Group', name: 'x' } }, 422, 'roleRef.kind: Unsupported value: "Group": supported values: "Role", "ClusterRole"'],
    ['a Role from a ClusterRoleBinding', 'ClusterRoleBinding', { roleRef: { apiGroup: G, kind: 'Role', name: 'x' } }, 422, 'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"'],
    ['another roleRef group', 'RoleBinding', { roleRef: { apiGroup: 'x.io', kind: 'Role', name: 'r' } }, 422, `roleRef.apiGroup: Unsupported value: "x.io": supported values: "${G}"`],
    ['no roleRef name', 'RoleBinding', { roleRef: { apiGroup: G, kind: 'Role', name: '' } }, 422, 'roleRef.name: Required value'],
    [
      'a subject of another kind',
      'RoleBinding',
      { roleRef: { apiGroup: G, kind: 'Role', name: 'r' }, subjects: [{ kind: 'Robot', name: 'x' }] },
      422,
      'subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
    ],
    ['a subject without a name', 'RoleBinding', { roleRef: { apiGroup: G, kind: 'Role', name: 'r' }, subjects: [{ kind: 'User', name: '' }] }, 422, 'subjects[0].name: Required value'],
    [
      'a service account with an apiGroup',
      'RoleBinding',
      { roleRef: { apiGroup: G, kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'sa', apiGroup: G }] },
      422,
      `subjects[0].apiGroup: Unsupported value: "${G}": supported values: ""`,
    ],
    [
      'a cluster-wide service account needs its namespace',
      'ClusterRoleBinding',
      { roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', name: 'sa' }] },
      422,
      'subjects[0].namespace: Required value',
    ],
  ];
  it.each(rows)('%s', async (_n, kind, body, code, msg) => {
    const path = kind === 'RoleBinding' ? `${RBAC}/namespaces/default/rolebindings` : `${RBAC}/clusterrolebindings`;
    const r = await call(s, 'POST', path, { apiVersion: `${G}/v1`, kind, metadata: { name: uniq('b') }, ...body });
    expect(r.code, JSON.stringify(r.body)).toBe(code);
    if (msg)
      expect(
        causeMessages(r).some((m) => m.startsWith(msg)),
        JSON.stringify(causeMessages(r)),
      ).toBe(true);
    if (code === 201 && kind === 'RoleBinding' && (body.subjects as unknown[] | undefined)?.length) {
      expect(r.body.subjects).toEqual([
        { kind: 'User', name: 'u', apiGroup: G },
        { kind: 'ServiceAccount', name: 'sa' },
      ]);
    }
  });

  it('roleRef cannot change', async () => {
    const path = `${RBAC}/namespaces/default/rolebindings`;
    const name = uniq('fixed');
    const created = await call(s, 'POST', path, { apiVersion: `${G}/v1`, kind: 'RoleBinding', metadata: { name }, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' } });
    expect(created.code).toBe(201);
    const r = await call(s, 'PUT', `${path}/${name}`, { ...created.body, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'edit' } });
    expect(r.code).toBe(422);
    expect(r.body.message).toBe(`RoleBinding.${G} "${name}" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"${G}", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef`);
    // subjects may change
    expect((await call(s, 'PUT', `${path}/${name}`, { ...created.body, subjects: [{ kind: 'Group', name: 'g', apiGroup: G }] })).code).toBe(200);
  });
});
