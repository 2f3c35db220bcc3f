// End-to-end: CertificateSigningRequests with the real kubectl against a
// server process. A key and request made by openssl (or by the test's own
// writer when openssl is missing), `kubectl create -f`, `kubectl get csr`,
// `kubectl certificate approve`: the in-process kube-apiserver-client signer
// issues the certificate, and a kubeconfig using it authenticates as the
// request's subject (`kubectl auth whoami`). `kubectl certificate deny`
// leaves a request Denied without a certificate.

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeconfigFor } from '../support/auth-clients.ts';
import { makeCSR } from '../support/csr.ts';
import { kubectlFor, ok, type Kubectl } from '../support/kubectl.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

let server: ServerProcess;
let k: Kubectl;
let home: string;

beforeAll(async () => {
  server = await startServerProcess();
  home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
  const base = kubectlFor(server.kubeconfig);
  k = (args, opts = {}) => base(args, { ...opts, env: { HOME: home, ...(opts.env ?? {}) } });
});
afterAll(async () => {
  await server?.stop();
});

/** A key and a PKCS#10 request for CN=user, O=groups, by openssl when it is installed. */
function keyAndRequest(user: string, groups: string[]): { keyPEM: string; csrPEM: string } {
  const dir = mkdtempSync(join(tmpdir(), 'csr-'));
  const subj = `/${groups.map((g) => `O=${g}`).join('/')}/CN=${user}`;
  try {
    execFileSync('openssl', ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', join(dir, 'k.pem'), '-out', join(dir, 'r.pem'), '-subj', subj], {
      stdio: 'ignore',
    });
    return { keyPEM: readFileSync(join(dir, 'k.pem'), 'utf8'), csrPEM: readFileSync(join(dir, 'r.pem'), 'utf8') };
  } catch {
    const made = makeCSR({ commonName: user, organizations: groups });
    return { keyPEM: made.keyPEM, csrPEM: made.csrPEM };
  }
}

function csrYAML(name: string, csrPEM: string): string {
  return [
    'apiVersion: certificates.k8s.io/v1',
    'kind: CertificateSigningRequest',
    'metadata:',
    `  name: ${name}`,
    'spec:',
    `  request: ${Buffer.from(csrPEM).toString('base64')}`,
    '  signerName: kubernetes.io/kube-apiserver-client',
    '  expirationSeconds: 86400',
    '  usages:',
    '  - client auth',
    '',
  ].join('\n');
}

async function certificateOf(name: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const cert = ok(await k(['get', 'csr', name, '-o', 'jsonpath={.status.certificate}']));
    if (cert) return cert;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no certificate issued for ${name}`);
}

describe('kubectl certificate', () => {
  it('approve: the issued certificate authenticates as the request subject', async () => {
    const { keyPEM, csrPEM } = keyAndRequest('carol', ['dev']);
    expect(ok(await k(['create', '-f', '-'], { input: csrYAML('carol', csrPEM) }))).toContain('certificatesigningrequest.certificates.k8s.io/carol created');
    const pending = ok(await k(['get', 'csr', 'carol']));
    expect(pending).toMatch(/NAME\s+AGE\s+SIGNERNAME\s+REQUESTOR\s+REQUESTEDDURATION\s+CONDITION/);
    expect(pending).toMatch(/carol\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+kubernetes-admin\s+24h\s+Pending/);
    expect(ok(await k(['certificate', 'approve', 'carol']))).toContain('certificatesigningrequest.certificates.k8s.io/carol approved');
    const cert = await certificateOf('carol');
    expect(ok(await k(['get', 'csr', 'carol']))).toMatch(/Approved,Issued/);
    const kubeconfig = kubeconfigFor(server, { 'client-certificate-data': cert, 'client-key-data': Buffer.from(keyPEM).toString('base64') });
    const who = JSON.parse(ok(await kubectlFor(kubeconfig)(['auth', 'whoami', '-o', 'json'], { env: { HOME: home } })));
    expect(who.status.userInfo.username).toBe('carol');
    expect(who.status.userInfo.groups).toEqual(['dev', 'system:authenticated']);
  });

  it('deny: Denied, no certificate', async () => {
    const { csrPEM } = keyAndRequest('dave', []);
    ok(await k(['create', '-f', '-'], { input: csrYAML('dave', csrPEM) }));
    expect(ok(await k(['certificate', 'deny', 'dave']))).toContain('certificatesigningrequest.certificates.k8s.io/dave denied');
    expect(ok(await k(['get', 'csr', 'dave']))).toMatch(/dave\s+.*\s+Denied\s*$/m);
    expect(ok(await k(['get', 'csr', 'dave', '-o', 'jsonpath={.status.certificate}']))).toBe('');
  });

  it('a system:masters client certificate is refused at create', async () => {
    const { csrPEM } = keyAndRequest('eve', ['system:masters']);
    const r = await k(['create', '-f', '-'], { input: csrYAML('eve', csrPEM) });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
  });
});
