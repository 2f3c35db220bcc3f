// End-to-end: credentials from an exec plugin (a shell script printing an
// ExecCredential, client.authentication.k8s.io/v1 and v1beta1, with and
// without the cluster information in KUBERNETES_EXEC_INFO) used by the real
// kubectl; and @kubernetes/client-node and helm over TLS with the server's
// admin kubeconfig.
import * as k8s from '@kubernetes/client-node';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeconfigFor, kubeconfigServerURL, serverCA } from '../support/auth-clients.ts';
import { ensureClients } from '../support/clients.ts';
import { kubectlFor, ok, run } from '../support/kubectl.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

const execToken = `exec-${randomBytes(12).toString('hex')}`;

let dir: string;
let server: ServerProcess;
let plugin: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'auth-exec-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, `${execToken},exec-user,uid-exec,plugins\n`);
  server = await startServerProcess(['--token-auth-file', tokens]);
  // the plugin: records KUBERNETES_EXEC_INFO in $1, prints an ExecCredential of version $2 with the token in file $3
  plugin = join(dir, 'credential-plugin.sh');
  writeFileSync(
    plugin,
    ['#!/bin/sh', 'printf \'%s\' "$KUBERNETES_EXEC_INFO" > "$1"', 'printf \'{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"%s"}}\\n\' "$2" "$(cat "$3")"', ''].join('\n'),
  );
  chmodSync(plugin, 0o755);
  writeFileSync(join(dir, 'token'), execToken);
});
afterAll(async () => {
  await server?.stop();
});

describe('an exec credential plugin', () => {
  const cases = [
    { apiVersion: 'client.authentication.k8s.io/v1', extra: { interactiveMode: 'Never', provideClusterInfo: true } },
    { apiVersion: 'client.authentication.k8s.io/v1beta1', extra: {} },
  ];
  for (const c of cases) {
    it(`${c.apiVersion}: kubectl uses the token the plugin prints`, async () => {
      const info = join(dir, `exec-info-${c.apiVersion.split('/')[1]}.json`);
      const kubeconfig = kubeconfigFor(server, {
        exec: { apiVersion: c.apiVersion, command: plugin, args: [info, c.apiVersion, join(dir, 'token')], ...c.extra },
      });
      const home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
      const r = await kubectlFor(kubeconfig)(['auth', 'whoami', '-o', 'json'], { env: { HOME: home } });
      const me = JSON.parse(ok(r)).status.userInfo;
      expect(me).toMatchObject({ username: 'exec-user', uid: 'uid-exec', groups: ['plugins', 'system:authenticated'] });

      expect(existsSync(info)).toBe(true);
      const seen = JSON.parse(readFileSync(info, 'utf8'));
      expect(seen).toMatchObject({ kind: 'ExecCredential', apiVersion: c.apiVersion });
      if (c.extra.provideClusterInfo) {
        // provideClusterInfo: the plugin is told which cluster it authenticates to
        expect(seen.spec.cluster.server).toBe(kubeconfigServerURL(server));
        expect(Buffer.from(seen.spec.cluster['certificate-authority-data'], 'base64').toString()).toBe(serverCA(server).certPEM);
      } else {
        expect(seen.spec.cluster).toBeUndefined();
      }
    });
  }

  it('a plugin printing a token the server does not know is refused (401)', async () => {
    writeFileSync(join(dir, 'unknown-token'), `unknown-${randomBytes(8).toString('hex')}`);
    const kubeconfig = kubeconfigFor(server, {
      exec: {
        apiVersion: 'client.authentication.k8s.io/v1',
        command: plugin,
        args: [join(dir, 'unknown-info.json'), 'client.authentication.k8s.io/v1', join(dir, 'unknown-token')],
        interactiveMode: 'Never',
      },
    });
    const r = await kubectlFor(kubeconfig)(['get', 'ns'], { env: { HOME: mkdtempSync(join(tmpdir(), 'kubectl-home-')) } });
    expect(r.code).not.toBe(0);
    // client-go's text for a 401 to exec-plugin credentials (it asks the plugin again first)
    expect(r.stderr).toContain('error: You must be logged in to the server (the server has asked for the client to provide credentials)');
  });
});

describe('other clients over TLS with the admin kubeconfig', () => {
  it('client-node lists namespaces', async () => {
    const kc = new k8s.KubeConfig();
    kc.loadFromFile(server.kubeconfig);
    const list = await kc.makeApiClient(k8s.CoreV1Api).listNamespace();
    expect(list.items.map((n) => n.metadata?.name)).toEqual(expect.arrayContaining(['default', 'kube-system']));
    const me = await kc.makeApiClient(k8s.AuthenticationV1Api).createSelfSubjectReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
    expect(me.status?.userInfo?.username).toBe('kubernetes-admin');
  });

  it('helm lists releases', async () => {
    const home = mkdtempSync(join(tmpdir(), 'helm-home-'));
    const env = { HOME: home, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') };
    const r = await run(ensureClients().helm, ['list', '-A', '-o', 'json', '--kubeconfig', server.kubeconfig], { env, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });

  it('the server printed no token', () => {
    expect(server.output()).not.toContain(execToken);
  });
});
