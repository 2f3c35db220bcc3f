// End-to-end: the tokens the server itself issues or accepts, with kubectl
// against a real server process: `kubectl create token default` (and one
// bound to a Pod, refused once the Pod is deleted), and a bootstrap token
// (accepted until it expires; the token cleaner deletes an expired token's
// Secret; kube-public/cluster-info carries a detached HS256 JWS that
// verifies with the token). A new namespace gets kube-root-ca.crt with the
// CA of the admin kubeconfig.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubeconfigFor } from '../support/auth-clients.ts';
import { verifyDetachedHS256 } from '../support/jws.ts';
import { kubectlFor, ok, type Kubectl } from '../support/kubectl.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

let server: ServerProcess;
let home: string;
let admin: Kubectl;
const as = (token: string): Kubectl => {
  const k = kubectlFor(kubeconfigFor(server, { token }));
  return (args, opts = {}) => k(args, { ...opts, env: { HOME: home, ...(opts.env ?? {}) } });
};

beforeAll(async () => {
  server = await startServerProcess(['--enable-bootstrap-token-auth', '--controllers', '*,tokencleaner,bootstrapsigner']);
  home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
  const k = kubectlFor(server.kubeconfig);
  admin = (args, opts = {}) => k(args, { ...opts, env: { HOME: home, ...(opts.env ?? {}) } });
});
afterAll(async () => {
  await server?.stop();
});

/** Runs until it succeeds (controllers act on watch events; kubectl is the clock). */
async function eventually(what: string, f: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) if (await f()) return;
  throw new Error(`never: ${what}`);
}

const whoami = async (k: Kubectl) => {
  const r = await k(['auth', 'whoami', '-o', 'json']);
  return r.code === 0 ? JSON.parse(r.stdout).status.userInfo : { error: r.stderr };
};

describe('service-account tokens with kubectl', () => {
  it('kubectl create token default, then requests with it', async () => {
    await eventually('the default ServiceAccount exists', async () => (await admin(['get', 'serviceaccount', 'default'])).code === 0);
    const token = ok(await admin(['create', 'token', 'default'])).trim();
    // under RBAC (the default) the account may read what view grants in its namespace
    ok(await admin(['create', 'rolebinding', 'default-view', '--clusterrole=view', '--serviceaccount=default:default']));
    const me = await whoami(as(token));
    expect(me.username).toBe('system:serviceaccount:default:default');
    expect(me.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    ok(await as(token)(['get', 'configmaps']));
  });

  it('a token bound to a Pod stops working once the Pod is deleted', async () => {
    ok(await admin(['run', 'bound', '--image=registry.example/app:1', '--restart=Never']));
    const token = ok(await admin(['create', 'token', 'default', '--bound-object-kind', 'Pod', '--bound-object-name', 'bound'])).trim();
    expect((await whoami(as(token))).extra['authentication.kubernetes.io/pod-name']).toEqual(['bound']);
    ok(await admin(['delete', 'pod', 'bound', '--grace-period=0', '--force']));
    const after = await as(token)(['get', 'configmaps']);
    expect(after.code).not.toBe(0);
    expect(after.stderr).toMatch(/Unauthorized|provide credentials/);
  });
});

describe('the root CA published in every namespace', () => {
  it('kubectl get configmap kube-root-ca.crt in a new namespace shows the CA of the kubeconfig', async () => {
    ok(await admin(['create', 'namespace', 'root-ca-e2e']));
    let cm: any;
    await eventually('kube-root-ca.crt is published', async () => {
      const r = await admin(['get', 'configmap', 'kube-root-ca.crt', '-n', 'root-ca-e2e', '-o', 'json']);
      if (r.code === 0) cm = JSON.parse(r.stdout);
      return r.code === 0;
    });
    const kubeconfig = parse(readFileSync(server.kubeconfig, 'utf8'));
    const kubeconfigCA = Buffer.from(kubeconfig.clusters[0].cluster['certificate-authority-data'], 'base64').toString('utf8');
    expect(kubeconfigCA).toContain('BEGIN CERTIFICATE');
    expect(cm.data).toEqual({ 'ca.crt': kubeconfigCA });
    expect(cm.metadata.annotations['kubernetes.io/description']).toContain('Contains a CA bundle that can be used to verify the kube-apiserver');
    // the table kubectl prints names it with one data key
    expect(ok(await admin(['get', 'configmap', 'kube-root-ca.crt', '-n', 'root-ca-e2e']))).toMatch(/kube-root-ca\.crt\s+1\s+/);
  });
});

describe('bootstrap tokens with kubectl', () => {
  const future = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const past = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const secret = (id: string, key: string, expiration: string) => [
    'create',
    'secret',
    'generic',
    `bootstrap-token-${id}`,
    '-n',
    'kube-system',
    '--type',
    'bootstrap.kubernetes.io/token',
    `--from-literal=token-id=${id}`,
    `--from-literal=token-secret=${key}`,
    `--from-literal=expiration=${expiration}`,
    '--from-literal=usage-bootstrap-authentication=true',
    '--from-literal=usage-bootstrap-signing=true',
  ];

  it('authenticates until it expires; the cleaner deletes the expired one', async () => {
    ok(await admin(secret('live01', 'abcdef0123456789', future)));
    const me = await whoami(as('live01.abcdef0123456789'));
    expect(me.username).toBe('system:bootstrap:live01');
    expect(me.groups).toEqual(['system:bootstrappers', 'system:authenticated']);
    ok(await admin(secret('old001', 'abcdef0123456789', past)));
    const expired = await as('old001.abcdef0123456789')(['get', 'ns']);
    expect(expired.code).not.toBe(0);
    await eventually('the expired token Secret is deleted', async () => (await admin(['get', 'secret', '-n', 'kube-system', 'bootstrap-token-old001'])).code !== 0);
    ok(await admin(['get', 'secret', '-n', 'kube-system', 'bootstrap-token-live01']));
  });

  it('cluster-info is signed with each signing token (HS256, detached), verifiable with it', async () => {
    const kubeconfig = 'apiVersion: v1\nkind: Config\nclusters:\n- name: ""\n  cluster:\n    server: https://127.0.0.1:6443\n';
    ok(await admin(['create', 'configmap', 'cluster-info', '-n', 'kube-public', `--from-literal=kubeconfig=${kubeconfig}`]));
    let data: Record<string, string> = {};
    await eventually('cluster-info is signed', async () => {
      data = JSON.parse(ok(await admin(['get', 'configmap', 'cluster-info', '-n', 'kube-public', '-o', 'json']))).data;
      return 'jws-kubeconfig-live01' in data;
    });
    expect(await verifyDetachedHS256(data['jws-kubeconfig-live01'], kubeconfig, 'abcdef0123456789')).toBe(true);
    expect(await verifyDetachedHS256(data['jws-kubeconfig-live01'], kubeconfig, 'abcdef012345678X')).toBe(false);
  });
});
