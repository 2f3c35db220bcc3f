// The bootstrap policy's meaning, checked decision by decision: users (an
// admin in system:masters, a user bound to view cluster-wide, a user bound to
// edit in one namespace, a service account bound to view in its namespace, a
// bootstrap-token user, anonymous) × verbs × resources × namespaces, and the
// non-resource paths, each compared with the expectation written below; then a
// kubelet (system:node:n1) through the default chain, Node then RBAC; and who
// may approve and sign for the certificate signers.
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, type UserInfo } from '../../../auth/user.ts';
import type { Obj } from '../../../storage/interface.ts';
import { pathAttributes, resourceAttributes } from '../../attributes.ts';
import { buildAuthorization } from '../../modes.ts';
import { NodeGraph } from '../../node/graph.ts';
import { decide } from '../authorizer.ts';
import { RbacIndex } from '../index.ts';
import { clusterRoleBinding, roleBinding, serviceAccount, user } from './build.ts';
import { bootstrapPolicy } from './policy.ts';

const admin: UserInfo = { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };
const viewer: UserInfo = { name: 'vera', groups: ['system:authenticated'] };
const editor: UserInfo = { name: 'eddie', groups: ['system:authenticated'] };
const robot: UserInfo = { name: 'system:serviceaccount:team:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] };
const bootstrapper: UserInfo = { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'] };

function index(): RbacIndex {
  const p = bootstrapPolicy();
  const toClusterRole = (b: ReturnType<typeof roleBinding>, name: string) => ({ ...b, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name } });
  const idx = new RbacIndex();
  idx.replace('ClusterRole', p.clusterRoles);
  idx.replace('Role', p.roles);
  idx.replace('ClusterRoleBinding', [...p.clusterRoleBindings, clusterRoleBinding('vera-view', 'view', [user('vera')])]);
  idx.replace('RoleBinding', [
    ...p.roleBindings,
    toClusterRole(roleBinding('dev', 'eddie-edit', '', [user('eddie')]), 'edit'),
    // a service account subject without a namespace: the binding's
    toClusterRole(roleBinding('team', 'builder-view', '', [{ ...serviceAccount('team', 'builder'), namespace: undefined }]), 'view'),
  ]);
  return idx;
}

const VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const READS = ['get', 'list', 'watch'];
const WRITES = ['create', 'update', 'patch', 'delete', 'deletecollection'];
/** [group, resource/subresource] */
const RESOURCES: [string, string][] = [
  ['', 'pods'],
  ['', 'pods/log'],
  ['', 'pods/exec'],
  ['', 'secrets'],
  ['', 'configmaps'],
  ['', 'serviceaccounts/token'],
  ['', 'nodes'],
  ['apps', 'deployments'],
  ['apps', 'deployments/scale'],
  ['rbac.authorization.k8s.io', 'roles'],
  ['rbac.authorization.k8s.io', 'clusterroles'],
  ['certificates.k8s.io', 'certificatesigningrequests'],
  ['authorization.k8s.io', 'selfsubjectaccessreviews'],
  ['authorization.k8s.io', 'subjectaccessreviews'],
];
const NAMESPACES = ['', 'dev', 'team', 'kube-system'];
const PATHS = ['/healthz', '/livez', '/readyz', '/version', '/api', '/api/v1', '/apis', '/apis/apps/v1', '/openapi/v2', '/metrics', '/logs', '/.well-known/openid-configuration', '/openid/v1/jwks'];

// what view and edit grant among the resources above
const VIEWABLE = new Set(['/pods', '/pods/log', '/configmaps', 'apps/deployments', 'apps/deployments/scale']);
const EDIT_READABLE = new Set([...VIEWABLE, '/secrets', '/pods/exec']);
const EDIT_WRITABLE = new Set(['/pods', '/pods/exec', '/secrets', '/configmaps', 'apps/deployments', 'apps/deployments/scale']);

/** What every authenticated user may do: the self reviews and discovery. */
function authenticatedMay(verb: string, group: string, resource: string, path?: string): boolean {
  if (path !== undefined) return verb === 'get' && ['/healthz', '/livez', '/readyz', '/version', '/api', '/api/v1', '/apis', '/apis/apps/v1', '/openapi/v2'].includes(path);
  return verb === 'create' && group === 'authorization.k8s.io' && resource === 'selfsubjectaccessreviews';
}

function expected(u: UserInfo, verb: string, group: string, resource: string, ns: string, path?: string): boolean {
  if (u === admin) return true;
  if (u === ANONYMOUS) return path !== undefined && verb === 'get' && ['/healthz', '/livez', '/readyz', '/version'].includes(path);
  if (authenticatedMay(verb, group, resource, path)) return true;
  if (path !== undefined) return u === robot && verb === 'get' && ['/.well-known/openid-configuration', '/openid/v1/jwks'].includes(path);
  const gr = `${group}/${resource}`;
  if (u === viewer) return READS.includes(verb) && VIEWABLE.has(gr);
  if (u === robot) return ns === 'team' && READS.includes(verb) && VIEWABLE.has(gr);
  if (u === editor) {
    if (ns !== 'dev') return false;
    if (READS.includes(verb) && EDIT_READABLE.has(gr)) return true;
    if (WRITES.includes(verb) && EDIT_WRITABLE.has(gr)) return true;
    return verb === 'create' && gr === '/serviceaccounts/token';
  }
  return false; // the bootstrap-token user: nothing beyond every authenticated user's
}

describe('decision matrix over the bootstrap policy', () => {
  const idx = index();
  const users: [string, UserInfo][] = [
    ['admin', admin],
    ['view user', viewer],
    ['edit user in dev', editor],
    ['service account bound in team', robot],
    ['bootstrap token user', bootstrapper],
    ['anonymous', ANONYMOUS],
  ];
  it.each(users)('%s: 0 wrong decisions', (_n, u) => {
    const wrong: string[] = [];
    let n = 0;
    for (const verb of VERBS) {
      for (const [group, gr] of RESOURCES) {
        const [resource, subresource = ''] = gr.split('/');
        for (const ns of NAMESPACES) {
          n++;
          const got = decide(idx, resourceAttributes(u, verb, { apiGroup: group, resource, subresource, namespace: ns, name: 'x' })).decision === 'allow';
          if (got !== expected(u, verb, group, gr, ns)) wrong.push(`${verb} ${group}/${gr} in ${JSON.stringify(ns)}: got ${got}`);
        }
      }
    }
    for (const path of PATHS) {
      for (const verb of ['get', 'post']) {
        n++;
        const got = decide(idx, pathAttributes(u, verb, path)).decision === 'allow';
        if (got !== expected(u, verb, '', '', '', path)) wrong.push(`${verb} ${path}: got ${got}`);
      }
    }
    expect(n).toBe(VERBS.length * RESOURCES.length * NAMESPACES.length + PATHS.length * 2);
    expect(wrong).toEqual([]);
  });
});

// a kubelet: one pod in dev bound to it, using Secret x, ConfigMap x and ServiceAccount x
const kubelet: UserInfo = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const NODE_RULES: [string, string[]][] = [
  ['/pods', ['get', 'list', 'watch', 'create', 'delete']],
  ['/nodes', ['get', 'list', 'watch', 'create', 'update', 'patch']],
  ['certificates.k8s.io/certificatesigningrequests', ['create', 'get', 'list', 'watch']],
  ['authorization.k8s.io/subjectaccessreviews', ['create']],
];
function kubeletExpected(verb: string, group: string, gr: string, ns: string, path?: string): boolean {
  if (authenticatedMay(verb, group, gr.split('/').pop()!, path)) return true;
  if (path !== undefined) return false;
  // decided by the graph: only what the pod bound to n1 references, in its namespace
  const key = `${group}/${gr}`;
  if (key === '/secrets' || key === '/configmaps') return ns === 'dev' && READS.includes(verb);
  if (key === '/serviceaccounts/token') return ns === 'dev' && verb === 'create';
  return NODE_RULES.some(([r, verbs]) => r === key && verbs.includes(verb));
}

describe('decision matrix of a kubelet under the default chain (Node, RBAC)', () => {
  it('system:node:n1: 0 wrong decisions', async () => {
    const graph = new NodeGraph();
    graph.addPod({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web', namespace: 'dev' },
      spec: {
        nodeName: 'n1',
        serviceAccountName: 'x',
        containers: [{ name: 'c', image: 'i', envFrom: [{ configMapRef: { name: 'x' } }] }],
        volumes: [{ name: 'v', secret: { secretName: 'x' } }],
      },
    });
    const chain = buildAuthorization([], { rbac: index(), nodeGraph: graph }).authorizer;
    const wrong: string[] = [];
    for (const verb of VERBS) {
      for (const [group, gr] of RESOURCES) {
        const [resource, subresource = ''] = gr.split('/');
        for (const ns of NAMESPACES) {
          const got = (await chain.authorize(resourceAttributes(kubelet, verb, { apiGroup: group, resource, subresource, namespace: ns, name: 'x' }))).decision === 'allow';
          if (got !== kubeletExpected(verb, group, gr, ns)) wrong.push(`${verb} ${group}/${gr} in ${JSON.stringify(ns)}: got ${got}`);
        }
      }
    }
    for (const path of PATHS) {
      for (const verb of ['get', 'post']) {
        const got = (await chain.authorize(pathAttributes(kubelet, verb, path))).decision === 'allow';
        if (got !== kubeletExpected(verb, '', '', '', path)) wrong.push(`${verb} ${path}: got ${got}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('the policy itself', () => {
  const p = bootstrapPolicy();
  const names = (objs: Obj[]): string[] => objs.map((o) => o.metadata.name);
  it('every object carries the bootstrap label and the autoupdate annotation', () => {
    for (const o of [...p.clusterRoles, ...p.clusterRoleBindings, ...p.roles, ...p.roleBindings]) {
      expect(o.metadata.labels['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
      expect(o.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate']).toBe('true');
    }
  });
  it('names are unique and every binding names a role of the policy', () => {
    expect(new Set(names(p.clusterRoles)).size).toBe(p.clusterRoles.length);
    expect(new Set(names(p.clusterRoleBindings)).size).toBe(p.clusterRoleBindings.length);
    for (const b of p.clusterRoleBindings) expect(names(p.clusterRoles)).toContain(b.roleRef.name);
    for (const b of p.roleBindings) expect(p.roles.some((r) => r.metadata.name === b.roleRef.name && r.metadata.namespace === b.metadata.namespace)).toBe(true);
  });
  it('admin, edit and view aggregate (and hold their gathered rules)', () => {
    const byName = Object.fromEntries(p.clusterRoles.map((r) => [r.metadata.name, r]));
    expect(byName.admin.aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] });
    expect(byName.edit.metadata.labels['rbac.authorization.k8s.io/aggregate-to-admin']).toBe('true');
    expect(byName.view.metadata.labels['rbac.authorization.k8s.io/aggregate-to-edit']).toBe('true');
    expect(byName.view.rules).toEqual(byName['system:aggregate-to-view'].rules);
    expect(byName.edit.rules.length).toBe(byName['system:aggregate-to-edit'].rules.length + byName.view.rules.length);
    expect(byName.admin.rules.length).toBe(byName.edit.rules.length + byName['system:aggregate-to-admin'].rules.length);
  });
});

describe('approve and sign on certificate signers', () => {
  const csrController: UserInfo = {
    name: 'system:serviceaccount:kube-system:certificate-controller',
    groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'],
  };
  const approver: UserInfo = { name: 'appy', groups: ['system:authenticated'] };
  const idx = index();
  const p = bootstrapPolicy();
  idx.replace('ClusterRoleBinding', [...p.clusterRoleBindings, clusterRoleBinding('appy', 'system:certificates.k8s.io:kube-apiserver-client-approver', [user('appy')])]);
  const SIGNERS = [
    'kubernetes.io/kube-apiserver-client',
    'kubernetes.io/kube-apiserver-client-kubelet',
    'kubernetes.io/kubelet-serving',
    'kubernetes.io/legacy-unknown',
    'kubernetes.io/*',
    'example.com/x',
  ];
  const allowed = (u: UserInfo, verb: string) =>
    SIGNERS.filter((name) => decide(idx, resourceAttributes(u, verb, { apiGroup: 'certificates.k8s.io', apiVersion: '*', resource: 'signers', name })).decision === 'allow');
  it.each([
    ['the certificate controller signs for the four kubernetes.io signers', csrController, 'sign', SIGNERS.slice(0, 4)],
    ['the certificate controller approves kubelet client requests only', csrController, 'approve', ['kubernetes.io/kube-apiserver-client-kubelet']],
    ['a user bound to kube-apiserver-client-approver approves that signer', approver, 'approve', ['kubernetes.io/kube-apiserver-client']],
    ['and signs nothing', approver, 'sign', []],
    ['an admin, anything', admin, 'approve', SIGNERS],
    ['a viewer, nothing', viewer, 'approve', []],
  ])('%s', (_, u, verb, want) => {
    expect(allowed(u, verb)).toEqual(want);
  });
});
