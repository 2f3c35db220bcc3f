// End-to-end: authorization with real kubectl against a server process in
// its default mode (Node,RBAC): a user bound to `view` reads but cannot
// write; `edit` in one namespace only; `kubectl auth can-i` (with --list and
// --as) answers from the real chain; escalation and binding without `bind`
// are refused with upstream's messages; an aggregated ClusterRole picks up a
// labelled role; `kubectl auth reconcile` applies roles; a kubelet certificate
// reads only what its pods reference (Node mode); anonymous requests
// see only the public paths.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCertificate } from '../../runtime/auth/pki/certs.ts';
import { certUser, curl, curlAnswer, kubeconfigFor, kubeconfigServerURL, serverCA } from '../support/auth-clients.ts';
import { kubectlFor, ok, type Kubectl } from '../support/kubectl.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

const token = (name: string) => `${name}-${randomBytes(12).toString('hex')}`;
const users = { viewer: token('viewer'), editor: token('editor'), rbacman: token('rbacman'), nobody: token('nobody') };

let dir: string;
let server: ServerProcess;
let admin: Kubectl;
const as: Record<keyof typeof users, Kubectl> = {} as Record<keyof typeof users, Kubectl>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'authz-e2e-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(
    tokens,
    Object.entries(users)
      .map(([name, t]) => `${t},${name},uid-${name}`)
      .join('\n') + '\n',
  );
  server = await startServerProcess(['--token-auth-file', tokens]);
  const home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
  const withHome =
    (k: Kubectl): Kubectl =>
    (args, opts = {}) =>
      k(args, { ...opts, env: { HOME: home, ...(opts.env ?? {}) } });
  admin = withHome(kubectlFor(server.kubeconfig));
  for (const [name, t] of Object.entries(users)) as[name as keyof typeof users] = withHome(kubectlFor(kubeconfigFor(server, { token: t })));
  ok(await admin(['create', 'namespace', 'team']));
  ok(await admin(['create', 'clusterrolebinding', 'viewer-view', '--clusterrole=view', '--user=viewer']));
  ok(await admin(['create', 'rolebinding', 'editor-edit', '--clusterrole=edit', '--user=editor', '-n', 'team']));
  // rbacman may manage roles and bindings in team, but holds no other permission there
  ok(await admin(['create', 'role', 'rbac-manager', '--verb=create,get,list,update', '--resource=roles.rbac.authorization.k8s.io,rolebindings.rbac.authorization.k8s.io', '-n', 'team']));
  ok(await admin(['create', 'rolebinding', 'rbacman', '--role=rbac-manager', '--user=rbacman', '-n', 'team']));
});
afterAll(async () => {
  await server?.stop();
});

describe('RBAC decisions through kubectl', () => {
  it('the admin kubeconfig works: system:masters is bound to cluster-admin', async () => {
    expect(ok(await admin(['get', 'clusterrolebinding', 'cluster-admin', '-o', 'jsonpath={.subjects[0].name}']))).toBe('system:masters');
    expect(ok(await admin(['auth', 'can-i', '*', '*'])).trim()).toBe('yes');
  });

  it('view: reads but cannot create, with upstream message', async () => {
    ok(await as.viewer(['get', 'configmaps', '-A']));
    const r = await as.viewer(['create', 'configmap', 'x', '-n', 'default', '--from-literal=a=b']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('configmaps is forbidden: User "viewer" cannot create resource "configmaps" in API group "" in the namespace "default"');
    // view does not include secrets
    const s = await as.viewer(['get', 'secrets', '-n', 'default']);
    expect(s.stderr).toContain('secrets is forbidden: User "viewer" cannot list resource "secrets" in API group "" in the namespace "default"');
  });

  it('edit in one namespace only', async () => {
    ok(await as.editor(['create', 'configmap', 'c1', '-n', 'team', '--from-literal=a=b']));
    const r = await as.editor(['create', 'configmap', 'c1', '-n', 'default', '--from-literal=a=b']);
    expect(r.stderr).toContain('User "editor" cannot create resource "configmaps" in API group "" in the namespace "default"');
  });

  it('kubectl auth can-i, with --as and --list', async () => {
    expect((await as.editor(['auth', 'can-i', 'create', 'configmaps', '-n', 'team'])).stdout.trim()).toBe('yes');
    const no = await as.editor(['auth', 'can-i', 'create', 'configmaps', '-n', 'default']);
    expect(no.stdout.trim()).toBe('no');
    expect(no.code).toBe(1);
    expect((await admin(['auth', 'can-i', 'list', 'secrets', '--as', 'viewer'])).stdout.trim()).toBe('no');
    expect((await admin(['auth', 'can-i', 'list', 'pods', '--as', 'viewer', '-n', 'team'])).stdout.trim()).toBe('yes');
    const list = ok(await as.editor(['auth', 'can-i', '--list', '-n', 'team']));
    expect(list).toMatch(/^configmaps\s+\[\]\s+\[\]\s+\[create delete deletecollection patch update get list watch\]$/m);
    expect(list).toMatch(/^\s+\[\/api\]\s+\[\]\s+\[get\]$/m);
    expect(list).toMatch(/^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
    // a user who may not impersonate
    const imp = await as.viewer(['auth', 'can-i', 'get', 'pods', '--as', 'editor']);
    expect(imp.stderr).toContain('users "editor" is forbidden: User "viewer" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('escalation is refused; binding needs bind or the permissions', async () => {
    const esc = await as.rbacman(['create', 'role', 'secret-reader', '--verb=get', '--resource=secrets', '-n', 'team']);
    expect(esc.code).not.toBe(0);
    expect(esc.stderr).toContain('is attempting to grant RBAC permissions not currently held');
    // a role within its own permissions is fine
    ok(await as.rbacman(['create', 'role', 'role-reader', '--verb=get', '--resource=roles.rbac.authorization.k8s.io', '-n', 'team']));
    const bind = await as.rbacman(['create', 'rolebinding', 'nobody-admin', '--clusterrole=admin', '--user=nobody', '-n', 'team']);
    expect(bind.code).not.toBe(0);
    expect(bind.stderr).toMatch(/forbidden/);
    ok(await admin(['create', 'role', 'binder', '--verb=bind', '--resource=clusterroles.rbac.authorization.k8s.io', '--resource-name=admin', '-n', 'team']));
    ok(await admin(['create', 'rolebinding', 'rbacman-binder', '--role=binder', '--user=rbacman', '-n', 'team']));
    ok(await as.rbacman(['create', 'rolebinding', 'nobody-admin', '--clusterrole=admin', '--user=nobody', '-n', 'team']));
    expect((await as.nobody(['auth', 'can-i', 'get', 'secrets', '-n', 'team'])).stdout.trim()).toBe('yes');
  });

  it('an aggregated ClusterRole picks up a labelled role', async () => {
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'secrets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] }],
    };
    ok(await admin(['apply', '-f', '-'], { input: JSON.stringify(role) }));
    // the controller works asynchronously: poll its result (bounded by the test's own timeout, not a guess at speed)
    for (;;) {
      const rules = JSON.parse(ok(await admin(['get', 'clusterrole', 'view', '-o', 'json']))).rules as { resources?: string[] }[];
      if (rules.some((r) => r.resources?.includes('secrets'))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // the RBAC index follows the role's update
    for (;;) {
      if ((await admin(['auth', 'can-i', 'list', 'secrets', '--as', 'viewer'])).stdout.trim() === 'yes') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    ok(await as.viewer(['get', 'secrets', '-n', 'default']));
  });

  it('kubectl auth reconcile creates, then reports nothing to change', async () => {
    const manifest = JSON.stringify({
      apiVersion: 'v1',
      kind: 'List',
      items: [
        { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'reconciled' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'reconciled' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'reconciled' },
          subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'nobody' }],
        },
      ],
    });
    const first = ok(await admin(['auth', 'reconcile', '-f', '-'], { input: manifest }));
    expect(first).toContain('clusterrole.rbac.authorization.k8s.io/reconciled reconciled');
    expect((await as.nobody(['auth', 'can-i', 'get', 'pods', '-n', 'default'])).stdout.trim()).toBe('yes');
    const again = ok(await admin(['auth', 'reconcile', '-f', '-'], { input: manifest }));
    expect(again).toContain('clusterrole.rbac.authorization.k8s.io/reconciled reconciled');
  });

  it('Node mode: a kubelet certificate reads the Secret of a Pod bound to its node, not another', async () => {
    const kubelet = async (node: string) =>
      kubectlFor(kubeconfigFor(server, certUser(await issueCertificate(serverCA(server), { commonName: `system:node:${node}`, organizations: ['system:nodes'], usage: 'client', validityDays: 1 }))));
    const n1 = await kubelet('n1');
    for (const n of ['a', 'b']) ok(await admin(['create', 'secret', 'generic', `s-${n}`, '--from-literal=k=v', '-n', 'team']));
    const pod = (name: string, node: string, secret: string) =>
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: 'team' },
        spec: { nodeName: node, containers: [{ name: 'c', image: 'registry.example/app:1' }], volumes: [{ name: 'v', secret: { secretName: secret } }] },
      });
    ok(await admin(['create', '-f', '-'], { input: pod('on-n1', 'n1', 's-a') }));
    ok(await admin(['create', '-f', '-'], { input: pod('on-n2', 'n2', 's-b') }));
    // the graph follows the pods' watch: poll its answer
    for (;;) {
      if ((await n1(['get', 'secret', 's-a', '-n', 'team'])).code === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const other = await n1(['get', 'secret', 's-b', '-n', 'team']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain(
      `secrets "s-b" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "team": no relationship found between node 'n1' and this object`,
    );
  });

  it('anonymous: health and version yes, secrets no', async () => {
    const url = kubeconfigServerURL(server);
    const ca = join(server.dataDir, 'pki', 'ca.crt');
    expect(curlAnswer(await curl(['--cacert', ca, `${url}/healthz`])).status).toBe(200);
    expect(curlAnswer(await curl(['--cacert', ca, `${url}/version`])).status).toBe(200);
    const s = curlAnswer(await curl(['--cacert', ca, `${url}/api/v1/secrets`]));
    expect(s.status).toBe(403);
    expect(s.body).toContain('User \\"system:anonymous\\" cannot list resource \\"secrets\\" in API group \\"\\" at the cluster scope');
  });
});
