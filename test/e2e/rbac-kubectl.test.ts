// End-to-end: RBAC policy with the real kubectl. `kubectl auth reconcile -f`
// (client-side GETs, then creates, updates and recreates) against a server
// process: it creates roles and bindings, then finds them unchanged, updates
// a role whose rules grew, recreates a binding whose roleRef changed. And
// escalation prevention as kubectl users see it: `kubectl create
// rolebinding` and `kubectl create role` by a user who may not bind or
// escalate are refused with upstream's message, allowed with bind or the
// role's permissions. The RBAC mode is not built yet, so the second part
// runs a server in this process with a small authorizer and rule list of
// the test's own (bearer tokens name the users); kubectl is the real one.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { RequestAuthenticator } from '../../runtime/auth/authenticator.ts';
import type { Attributes } from '../../runtime/authz/attributes.ts';
import type { RuleResolver } from '../../runtime/authz/authorizer.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { kubectlFor, kubectlSession, ok, type Kubectl, type KubectlSession } from '../support/kubectl.ts';

const POLICY = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: pod-reader
  namespace: team-a
rules:
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: read-pods
  namespace: team-a
subjects:
- kind: User
  name: alice
  apiGroup: rbac.authorization.k8s.io
roleRef:
  kind: Role
  name: pod-reader
  apiGroup: rbac.authorization.k8s.io
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: node-reader
rules:
- apiGroups: [""]
  resources: ["nodes"]
  verbs: ["get", "list", "watch"]
- nonResourceURLs: ["/healthz"]
  verbs: ["get"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: read-nodes
subjects:
- kind: Group
  name: ops
  apiGroup: rbac.authorization.k8s.io
- kind: ServiceAccount
  name: robot
  namespace: team-a
roleRef:
  kind: ClusterRole
  name: node-reader
  apiGroup: rbac.authorization.k8s.io
`;

const RECONCILED = [
  'role.rbac.authorization.k8s.io/pod-reader reconciled',
  'rolebinding.rbac.authorization.k8s.io/read-pods reconciled',
  'clusterrole.rbac.authorization.k8s.io/node-reader reconciled',
  'clusterrolebinding.rbac.authorization.k8s.io/read-nodes reconciled',
];

describe('kubectl auth reconcile', () => {
  let session: KubectlSession;
  let file: string;
  beforeAll(async () => {
    session = await kubectlSession();
    file = join(mkdtempSync(join(tmpdir(), 'reconcile-')), 'policy.yaml');
  });
  afterAll(async () => {
    await session?.stop();
  });
  const reconcile = (yaml: string, extra: string[] = []) => {
    writeFileSync(file, yaml);
    return session.k(['auth', 'reconcile', '-f', file, ...extra]);
  };

  it('creates roles and bindings (and their namespace), then finds them unchanged', async () => {
    const first = await reconcile(POLICY);
    expect(ok(first).trim().split('\n')).toEqual(RECONCILED);
    expect(first.stderr.split('\n').filter(Boolean)).toEqual([
      '\treconciliation required create',
      '\tmissing rules added:',
      '\t\t{Verbs:[get list] APIGroups:[] Resources:[pods] ResourceNames:[] NonResourceURLs:[]}',
      '\treconciliation required create',
      '\tmissing subjects added:',
      '\t\t{Kind:User APIGroup:rbac.authorization.k8s.io Name:alice Namespace:}',
      '\treconciliation required create',
      '\tmissing rules added:',
      '\t\t{Verbs:[get list watch] APIGroups:[] Resources:[nodes] ResourceNames:[] NonResourceURLs:[]}',
      '\t\t{Verbs:[get] APIGroups:[] Resources:[] ResourceNames:[] NonResourceURLs:[/healthz]}',
      '\treconciliation required create',
      '\tmissing subjects added:',
      '\t\t{Kind:Group APIGroup:rbac.authorization.k8s.io Name:ops Namespace:}',
      '\t\t{Kind:ServiceAccount APIGroup: Name:robot Namespace:team-a}',
    ]);
    expect(ok(await session.k(['get', 'namespace', 'team-a', '-o', 'name'])).trim()).toBe('namespace/team-a');

    const again = await reconcile(POLICY);
    expect(ok(again).trim().split('\n')).toEqual(RECONCILED);
    expect(again.stderr).toBe('');
  });

  it('updates a role whose rules grew and recreates a binding whose roleRef changed', async () => {
    const changed = POLICY.replace('verbs: ["get", "list"]', 'verbs: ["get", "list", "watch"]').replace('kind: Role\n  name: pod-reader', 'kind: ClusterRole\n  name: node-reader');
    const r = await reconcile(changed);
    expect(ok(r).trim().split('\n')).toEqual(RECONCILED);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      '\treconciliation required update',
      '\tmissing rules added:',
      '\t\t{Verbs:[watch] APIGroups:[] Resources:[pods] ResourceNames:[] NonResourceURLs:[]}',
      '\treconciliation required recreate',
    ]);
    const ref = JSON.parse(ok(await session.k(['get', 'rolebinding', 'read-pods', '-n', 'team-a', '-o', 'json']))).roleRef;
    expect(ref).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'node-reader' });
    // what the policy no longer grants stays unless asked to go
    const back = await reconcile(POLICY, ['--remove-extra-permissions']);
    expect(back.stderr).toContain('\textra rules removed:\n\t\t{Verbs:[watch] APIGroups:[] Resources:[pods] ResourceNames:[] NonResourceURLs:[]}');
  });
});

describe('escalation prevention with kubectl', () => {
  const TOKENS: Record<string, string> = { 'alice-token-0123456789': 'alice', 'binder-token-0123456789': 'binder' };
  const byToken: RequestAuthenticator = {
    async authenticate(req) {
      const m = /^Bearer (.+)$/.exec(req.header('authorization') ?? '');
      const name = m ? TOKENS[m[1]] : undefined;
      return name ? { user: { name, groups: ['system:authenticated'] } } : undefined;
    },
  };
  // alice reads pods in default; binder may bind the ClusterRole `everything`
  const rules: RuleResolver = {
    rulesFor: (user, namespace) => ({
      resourceRules: user.name === 'alice' && namespace === 'default' ? [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }] : [],
      nonResourceRules: [],
      incomplete: false,
    }),
  };
  const special = (a: Attributes) => a.verb === 'bind' && a.user.name === 'binder' && a.resource === 'clusterroles' && a.name === 'everything';

  let s: RunningServer;
  let admin: Kubectl;
  let as: (token: string) => Kubectl;
  beforeAll(async () => {
    s = await startServer({
      authenticators: [byToken],
      ruleResolver: rules,
      authorizer: { authorize: (a) => ({ decision: (a.verb !== 'bind' && a.verb !== 'escalate') || special(a) ? 'allow' : 'noopinion', reason: '' }) },
    });
    const dir = mkdtempSync(join(tmpdir(), 'rbac-kubectl-'));
    const home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
    const adminPath = join(dir, 'admin.kubeconfig');
    writeFileSync(adminPath, s.kubeconfig);
    const withHome =
      (k: Kubectl): Kubectl =>
      (args, opts = {}) =>
        k(args, { ...opts, env: { HOME: home, ...(opts.env ?? {}) } });
    admin = withHome(kubectlFor(adminPath));
    as = (token) => {
      const cfg = parse(s.kubeconfig);
      cfg.users = [{ name: cfg.users[0].name, user: { token } }];
      const path = join(dir, `${TOKENS[token]}.kubeconfig`);
      writeFileSync(path, stringify(cfg));
      return withHome(kubectlFor(path));
    };
    ok(await admin(['create', 'clusterrole', 'everything', '--verb=*', '--resource=*.*']));
    ok(await admin(['create', 'clusterrole', 'pod-reader', '--verb=get,list', '--resource=pods']));
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('kubectl create rolebinding needs bind or the permissions of the role', async () => {
    const alice = as('alice-token-0123456789');
    const refused = await alice(['create', 'rolebinding', 'alice-all', '--clusterrole=everything', '--user=bob', '-n', 'default']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'rolebindings.rbac.authorization.k8s.io "alice-all" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}',
    );
    expect(ok(await alice(['create', 'rolebinding', 'alice-readers', '--clusterrole=pod-reader', '--user=bob', '-n', 'default']))).toContain(
      'rolebinding.rbac.authorization.k8s.io/alice-readers created',
    );
    const binder = as('binder-token-0123456789');
    expect(ok(await binder(['create', 'rolebinding', 'binder-all', '--clusterrole=everything', '--user=bob', '-n', 'default']))).toContain('rolebinding.rbac.authorization.k8s.io/binder-all created');
  });

  it('kubectl create role needs escalate or the permissions it grants', async () => {
    const alice = as('alice-token-0123456789');
    const refused = await alice(['create', 'role', 'pod-admin', '--verb=get,list,delete', '--resource=pods', '-n', 'default']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'roles.rbac.authorization.k8s.io "pod-admin" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
    );
    expect(ok(await alice(['create', 'role', 'pod-lister', '--verb=list', '--resource=pods', '-n', 'default']))).toContain('role.rbac.authorization.k8s.io/pod-lister created');
  });
});
