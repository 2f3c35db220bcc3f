// --authorization-mode=RBAC through app.request(): users named by bearer
// tokens this test's authenticator knows; the bootstrap policy after start
// and after a restart on the same data (a user's autoupdate "false" edit
// kept); view reads but cannot write; edit in one namespace only; a
// ServiceAccount bound by a RoleBinding; upstream's 403 text; the access
// reviews; bindings created and deleted at runtime taking effect through
// the watch.
import { nodeRules } from '../../runtime/authz/node/node-rules.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestAuthenticator } from '../../runtime/auth/authenticator.ts';
import type { UserInfo } from '../../runtime/auth/user.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { until } from '../semantics/helpers.ts';

const USERS: Record<string, UserInfo> = {
  admin: { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
  vera: { name: 'vera', groups: ['system:authenticated'] },
  eddie: { name: 'eddie', groups: ['system:authenticated'] },
  builder: { name: 'system:serviceaccount:team:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'] },
  nobody: { name: 'nobody', groups: ['system:authenticated'] },
};
const tokens: RequestAuthenticator = {
  authenticate: async (req) => {
    const m = /^Bearer (\w+)$/.exec(req.header('authorization') ?? '');
    const u = m && USERS[m[1]];
    return u ? { user: u } : undefined;
  },
};

const RBAC = '/apis/rbac.authorization.k8s.io/v1';

async function call(s: RunningServer, who: string | undefined, method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { ...extra };
  if (who) headers.authorization = `Bearer ${who}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await s.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json };
}

const ns = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });
const binding = (kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, role: string, subject: object, namespace?: string) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind,
  metadata: namespace ? { name, namespace } : { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
  subjects: [subject],
});

describe('RBAC mode', () => {
  let s: RunningServer;
  const as = (who: string | undefined, method: string, path: string, body?: unknown) => call(s, who, method, path, body);
  // the index follows the watch: wait until a decision reflects a write
  const allowedSoon = (who: string, path: string) => until(async () => (await as(who, 'GET', path)).status !== 403);

  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['RBAC'], insecureServeHTTP: true, authenticators: [tokens] });
    for (const n of ['dev', 'prod', 'team']) expect((await as('admin', 'POST', '/api/v1/namespaces', ns(n))).status).toBe(201);
    expect((await as('admin', 'POST', '/api/v1/namespaces/dev/configmaps', cm('c1'))).status).toBe(201);
    expect((await as('admin', 'POST', '/api/v1/namespaces/prod/configmaps', cm('c1'))).status).toBe(201);
    expect(
      (await as('admin', 'POST', `${RBAC}/clusterrolebindings`, binding('ClusterRoleBinding', 'vera-view', 'view', { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'vera' }))).status,
    ).toBe(201);
    expect(
      (await as('admin', 'POST', `${RBAC}/namespaces/dev/rolebindings`, binding('RoleBinding', 'eddie-edit', 'edit', { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'eddie' }, 'dev')))
        .status,
    ).toBe(201);
    expect((await as('admin', 'POST', `${RBAC}/namespaces/team/rolebindings`, binding('RoleBinding', 'builder-view', 'view', { kind: 'ServiceAccount', name: 'builder' }, 'team'))).status).toBe(201);
    await allowedSoon('builder', '/api/v1/namespaces/team/configmaps');
    await allowedSoon('vera', '/api/v1/namespaces/dev/configmaps');
    await allowedSoon('eddie', '/api/v1/namespaces/dev/configmaps');
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('creates the bootstrap policy at start', async () => {
    const roles = await as('admin', 'GET', `${RBAC}/clusterroles`);
    const names = roles.json.items.map((r: any) => r.metadata.name);
    for (const n of ['cluster-admin', 'admin', 'edit', 'view', 'system:basic-user', 'system:discovery', 'system:public-info-viewer', 'system:controller:namespace-controller'])
      expect(names).toContain(n);
    const crb = await as('admin', 'GET', `${RBAC}/clusterrolebindings/cluster-admin`);
    expect(crb.json.subjects).toEqual([{ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'system:masters' }]);
    // system:node holds the Node authorizer's rules; its binding has no subjects (nodes are the Node mode's)
    const node = await as('admin', 'GET', `${RBAC}/clusterroles/system:node`);
    expect(node.json.rules).toEqual(nodeRules());
    const nodeBinding = await as('admin', 'GET', `${RBAC}/clusterrolebindings/system:node`);
    expect(nodeBinding.json.roleRef.name).toBe('system:node');
    expect(nodeBinding.json.subjects).toBeUndefined();
    const lease = await as('admin', 'GET', `${RBAC}/namespaces/kube-system/roles/system::leader-locking-kube-scheduler`);
    expect(lease.status).toBe(200);
    const ready = await s.app.request('/readyz?verbose');
    expect(await ready.text()).toContain('[+]poststarthook/rbac/bootstrap-roles ok');
  });

  it('a view user reads everywhere but cannot write; the 403 says why', async () => {
    expect((await as('vera', 'GET', '/api/v1/namespaces/prod/configmaps/c1')).status).toBe(200);
    expect((await as('vera', 'GET', '/api/v1/configmaps')).status).toBe(200);
    const denied = await as('vera', 'POST', '/api/v1/namespaces/dev/configmaps', cm('c2'));
    expect(denied.status).toBe(403);
    expect(denied.json).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      message: 'configmaps is forbidden: User "vera" cannot create resource "configmaps" in API group "" in the namespace "dev"',
      details: { kind: 'configmaps' },
    });
    expect((await as('vera', 'GET', '/api/v1/namespaces/dev/secrets')).status).toBe(403);
  });

  it('an edit user writes in its namespace only', async () => {
    expect((await as('eddie', 'POST', '/api/v1/namespaces/dev/configmaps', cm('by-eddie'))).status).toBe(201);
    expect((await as('eddie', 'DELETE', '/api/v1/namespaces/dev/configmaps/by-eddie')).status).toBe(200);
    expect((await as('eddie', 'GET', '/api/v1/namespaces/dev/secrets')).status).toBe(200);
    const other = await as('eddie', 'POST', '/api/v1/namespaces/prod/configmaps', cm('by-eddie'));
    expect(other.status).toBe(403);
    expect(other.json.message).toBe('configmaps is forbidden: User "eddie" cannot create resource "configmaps" in API group "" in the namespace "prod"');
    expect((await as('eddie', 'GET', '/api/v1/configmaps')).status).toBe(403);
    // edit cannot grant: roles are admin's
    expect((await as('eddie', 'GET', `${RBAC}/namespaces/dev/roles`)).status).toBe(403);
  });

  it('a service account bound by a RoleBinding (namespace defaulted to the binding)', async () => {
    expect((await as('builder', 'GET', '/api/v1/namespaces/team/configmaps')).status).toBe(200);
    expect((await as('builder', 'GET', '/api/v1/namespaces/dev/configmaps')).status).toBe(403);
  });

  it('everyone authenticated gets discovery and the self reviews, nothing else', async () => {
    expect((await as('nobody', 'GET', '/apis')).status).toBe(200);
    expect((await as('nobody', 'GET', '/version')).status).toBe(200);
    const metrics = await as('nobody', 'GET', '/metrics');
    expect(metrics.status).toBe(403);
    expect(metrics.json.message).toBe('forbidden: User "nobody" cannot get path "/metrics"');
    // anonymous: health and version only
    expect((await as(undefined, 'GET', '/healthz')).status).toBe(200);
    expect((await as(undefined, 'GET', '/apis')).status).toBe(403);
  });

  it('SelfSubjectAccessReview names the binding that allows', async () => {
    const review = (verb: string, namespace: string) => ({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb, resource: 'configmaps', namespace } },
    });
    const yes = await as('eddie', 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', review('create', 'dev'));
    expect(yes.status).toBe(201);
    expect(yes.json.status).toEqual({ allowed: true, reason: 'RBAC: allowed by RoleBinding "eddie-edit/dev" of ClusterRole "edit" to User "eddie"' });
    const no = await as('eddie', 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', review('create', 'prod'));
    expect(no.json.status).toEqual({ allowed: false });
  });

  it('SelfSubjectRulesReview lists cluster and namespace rules', async () => {
    const r = await as('eddie', 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'dev' } });
    expect(r.status).toBe(201);
    expect(r.json.status.incomplete).toBe(false);
    expect(r.json.status.resourceRules).toContainEqual({ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] });
    expect(r.json.status.resourceRules).toContainEqual({
      verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'],
      apiGroups: ['apps'],
      resources: ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'],
    });
    expect(r.json.status.nonResourceRules).toContainEqual({ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] });
    const elsewhere = await as('eddie', 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectRulesReview',
      spec: { namespace: 'prod' },
    });
    expect(elsewhere.json.status.resourceRules.length).toBeLessThan(r.json.status.resourceRules.length);
  });

  it('impersonation is checked by RBAC: edit may act as service accounts of its namespace only', async () => {
    const asSA = (ns: string) => call(s, 'eddie', 'GET', '/api/v1/namespaces/dev/configmaps', undefined, { 'Impersonate-User': `system:serviceaccount:${ns}:default` });
    // allowed to impersonate; the account itself may not list configmaps
    const inDev = await asSA('dev');
    expect(inDev.status).toBe(403);
    expect(inDev.json.message).toBe('configmaps is forbidden: User "system:serviceaccount:dev:default" cannot list resource "configmaps" in API group "" in the namespace "dev"');
    const inProd = await asSA('prod');
    expect(inProd.status).toBe(403);
    expect(inProd.json.message).toBe('serviceaccounts "default" is forbidden: User "eddie" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "prod"');
    const user = await call(s, 'eddie', 'GET', '/api/v1/namespaces/dev/configmaps', undefined, { 'Impersonate-User': 'vera' });
    expect(user.json.message).toBe('users "vera" is forbidden: User "eddie" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('a binding created at runtime takes effect, and stops when deleted', async () => {
    const path = '/api/v1/namespaces/prod/configmaps/c1';
    expect((await as('nobody', 'GET', path)).status).toBe(403);
    const b = binding('RoleBinding', 'nobody-view', 'view', { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'nobody' }, 'prod');
    expect((await as('admin', 'POST', `${RBAC}/namespaces/prod/rolebindings`, b)).status).toBe(201);
    await until(async () => (await as('nobody', 'GET', path)).status === 200);
    expect((await as('admin', 'DELETE', `${RBAC}/namespaces/prod/rolebindings/nobody-view`)).status).toBe(200);
    await until(async () => (await as('nobody', 'GET', path)).status === 403);
  });

  it('a binding to a missing role: the reason names it', async () => {
    const b = binding('ClusterRoleBinding', 'nobody-ghost', 'ghost', { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'nobody' });
    expect((await as('admin', 'POST', `${RBAC}/clusterrolebindings`, b)).status).toBe(201);
    const msg = 'secrets is forbidden: User "nobody" cannot list resource "secrets" in API group "" in the namespace "dev": RBAC: clusterrole.rbac.authorization.k8s.io "ghost" not found';
    await until(async () => (await as('nobody', 'GET', '/api/v1/namespaces/dev/secrets')).json.message === msg);
  });
});

describe('the bootstrap policy across restarts', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rbac-'));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a user edit of an autoupdate "false" role, restores an autoupdate one, and rewrites nothing up to date', async () => {
    let schedulerRules: number | undefined;
    let s = await startServer({ dataDir: dir, authorizationMode: ['RBAC'], insecureServeHTTP: true, authenticators: [tokens] });
    try {
      // (roles without an aggregationRule: the aggregation controller rewrites the rules of admin, edit and view whatever their annotation)
      const heapster = (await call(s, 'admin', 'GET', `${RBAC}/clusterroles/system:heapster`)).json;
      // a user takes over system:heapster: one rule only, autoupdate off
      heapster.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate'] = 'false';
      heapster.rules = [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }];
      expect((await call(s, 'admin', 'PUT', `${RBAC}/clusterroles/system:heapster`, heapster)).status).toBe(200);
      // and strips system:kube-scheduler, which stays autoupdate
      const sched = (await call(s, 'admin', 'GET', `${RBAC}/clusterroles/system:kube-scheduler`)).json;
      schedulerRules = sched.rules.length;
      sched.rules = [];
      sched.metadata.labels.mine = 'yes';
      expect((await call(s, 'admin', 'PUT', `${RBAC}/clusterroles/system:kube-scheduler`, sched)).status).toBe(200);
      // and deletes a binding
      expect((await call(s, 'admin', 'DELETE', `${RBAC}/clusterrolebindings/system:discovery`)).status).toBe(200);
    } finally {
      await s.stop();
    }
    const notes: string[] = [];
    s = await startServer({ dataDir: dir, authorizationMode: ['RBAC'], insecureServeHTTP: true, authenticators: [tokens], log: (m) => notes.push(m) });
    try {
      expect(notes.filter((n) => n.includes('autoupdate'))).toEqual([
        expect.stringMatching(/^ClusterRole system:heapster is not updated \(autoupdate "false"\); it lacks \d+ expected rule\(s\) or subject\(s\)$/),
      ]);
      const heapster = (await call(s, 'admin', 'GET', `${RBAC}/clusterroles/system:heapster`)).json;
      expect(heapster.rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
      const sched = (await call(s, 'admin', 'GET', `${RBAC}/clusterroles/system:kube-scheduler`)).json;
      expect(sched.metadata.labels.mine).toBe('yes');
      // restored as single-verb sub-rules, so at least as many rules as before
      expect(sched.rules.length).toBeGreaterThanOrEqual(schedulerRules!);
      expect((await call(s, 'admin', 'GET', `${RBAC}/clusterrolebindings/system:discovery`)).status).toBe(200);
      expect((await call(s, 'nobody', 'GET', '/apis')).status).toBe(200);
      // a restart on the reconciled set writes none of the four kinds: every resourceVersion stays
      const versions = async () => {
        const out: string[][] = [];
        for (const kind of ['clusterroles', 'clusterrolebindings', 'roles', 'rolebindings']) {
          const items = (await call(s, 'admin', 'GET', `${RBAC}/${kind}`)).json.items;
          expect(items.length).toBeGreaterThan(0);
          out.push(...items.map((r: any) => [kind, r.metadata.namespace ?? '', r.metadata.name, r.metadata.resourceVersion]));
        }
        return out;
      };
      const before = await versions();
      await s.stop();
      s = await startServer({ dataDir: dir, authorizationMode: ['RBAC'], insecureServeHTTP: true, authenticators: [tokens], log: () => {} });
      expect(await versions()).toEqual(before);
    } finally {
      await s.stop();
    }
  });
});
