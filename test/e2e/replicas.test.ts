// Two server processes on one etcd, end to end with kubectl: both serve the
// same objects (a write through one is seen by a watch on the other, a
// continue token of one works on the other); they share a CA
// (--cluster-signing-cert-file/-key-file) and the service-account keys, so a
// client certificate and a token made by one are accepted by the other
// while each serves its own certificate; exactly one runs the controllers
// (the kube-controller-manager Lease names it, and the garbage collector
// works through it); SIGKILL of the leader hands the lease to the other,
// never before the lease duration has passed since the last renewal; the
// `kubernetes` Endpoints list both advertised addresses, then drop the
// killed one once its master lease expires, and a replica stopping
// gracefully removes its own at once; the identity Lease of the host is
// published, and an expired one is collected by a starting server. The
// replicas listen on loopback addresses with one port (the Endpoints carry
// one port for all) and advertise documentation addresses (endpoints
// refuse loopback).
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETCD_SKIP_MESSAGE, etcdAvailable, freePort, startEtcd, type TestEtcd } from '../support/etcd.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { ensureClients } from '../support/clients.ts';
import { kubectlFor, run } from '../support/kubectl.ts';
import { createCA } from '../../runtime/auth/pki/certs.ts';
import { identityLeaseName } from '../../runtime/builtins/apiserver-identity.ts';

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);

/** Polls until cond() holds (each try is one command; the bound only ends a broken run). */
async function eventually(cond: () => Promise<boolean>, what: string, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond().catch(() => false))) {
    if (Date.now() > end) throw new Error(`not reached: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const LEASE_SECONDS = 4;

/** The keys etcd holds under a prefix (its JSON gateway). */
async function etcdKeys(etcd: TestEtcd, prefix: string): Promise<string[]> {
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const res = await fetch(`${etcd.url}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: b64(prefix), range_end: b64(end), keys_only: true }) });
  const body = (await res.json()) as { kvs?: { key: string }[] };
  return (body.kvs ?? []).map((kv) => Buffer.from(kv.key, 'base64').toString()).sort();
}

/** The certificate a TLS server presents (DER). */
function servingCertificate(url: string): Promise<X509Certificate> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname, port: Number(u.port), rejectUnauthorized: false }, () => {
      const der = socket.getPeerCertificate().raw;
      socket.end();
      resolve(new X509Certificate(der));
    });
    socket.on('error', reject);
  });
}

describe.skipIf(!etcdAvailable())('two replicas on one etcd (kubectl)', () => {
  let etcd: TestEtcd;
  let dir: string;
  let a: ServerProcess;
  let b: ServerProcess;
  let port: number;
  const replicas: { name: string; bind: string; advertise: string; proc?: ServerProcess }[] = [
    { name: 'a', bind: '127.0.0.2', advertise: '192.0.2.1' },
    { name: 'b', bind: '127.0.0.3', advertise: '192.0.2.2' },
    { name: 'c', bind: '127.0.0.4', advertise: '192.0.2.3' },
  ];
  let args: (r: (typeof replicas)[number]) => string[];

  beforeAll(async () => {
    etcd = await startEtcd();
    dir = mkdtempSync(join(tmpdir(), 'replicas-'));
    const ca = await createCA('replicas-ca');
    writeFileSync(join(dir, 'ca.crt'), ca.certPEM);
    writeFileSync(join(dir, 'ca.key'), ca.keyPEM, { mode: 0o600 });
    const sa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    writeFileSync(join(dir, 'sa.key'), sa.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(join(dir, 'sa.pub'), sa.publicKey.export({ type: 'spki', format: 'pem' }));
    port = await freePort();
    args = (r) => [
      '--etcd-servers',
      etcd.url,
      '--bind-address',
      r.bind,
      '--secure-port',
      String(port),
      '--advertise-address',
      r.advertise,
      '--cluster-signing-cert-file',
      join(dir, 'ca.crt'),
      '--cluster-signing-key-file',
      join(dir, 'ca.key'),
      '--service-account-signing-key-file',
      join(dir, 'sa.key'),
      '--service-account-key-file',
      join(dir, 'sa.pub'),
      '--leader-elect-lease-duration',
      `${LEASE_SECONDS}s`,
      '--leader-elect-renew-deadline',
      '3s',
      '--leader-elect-retry-period',
      '1s',
    ];
    // a first, so that it is the first leader
    a = replicas[0].proc = await startServerProcess(args(replicas[0]));
    b = replicas[1].proc = await startServerProcess(args(replicas[1]));
  }, 120_000);
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await replicas[2].proc?.stop();
    await etcd?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const ka = () => kubectlFor(a.kubeconfig);
  const kb = () => kubectlFor(b.kubeconfig);
  /** The kube-controller-manager Lease as replica b reads it. */
  const lease = async () => JSON.parse((await kb()(['get', 'lease', '-n', 'kube-system', 'kube-controller-manager', '-o', 'json'])).stdout);
  const addresses = async (k: ReturnType<typeof kubectlFor>) => (await k(['get', 'endpoints', 'kubernetes', '-o', 'jsonpath={.subsets[0].addresses[*].ip}'])).stdout.trim();

  it('serves one state: either replica reads what the other wrote, a watch on b sees a write through a, a continue token of a works on b', { timeout: 120_000 }, async () => {
    expect(a.url).not.toBe(b.url);
    for (const n of ['one', 'two', 'three']) expect((await ka()(['create', 'configmap', n, '--from-literal=k=v'])).code).toBe(0);
    const names = async (k: ReturnType<typeof kubectlFor>) => (await k(['get', 'configmaps', '-o', 'name'])).stdout;
    expect(await names(kb())).toBe(await names(ka()));
    expect(await names(kb())).toContain('configmap/three');

    const { kubectl } = ensureClients();
    const watch = spawn(kubectl, ['--kubeconfig', b.kubeconfig, 'get', 'configmaps', '--watch', '--output-watch-events'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    watch.stdout.on('data', (d) => (seen += d));
    try {
      await eventually(async () => /ADDED\s+three\s/.test(seen), 'the watch on b lists');
      expect((await ka()(['create', 'configmap', 'four'])).code).toBe(0);
      expect((await ka()(['delete', 'configmap', 'one'])).code).toBe(0);
      await eventually(async () => /ADDED\s+four\s/.test(seen) && /DELETED\s+one\s/.test(seen), `the watch on b sees a's writes (printed: ${seen})`);
    } finally {
      watch.kill();
    }

    const page = JSON.parse((await ka()(['get', '--raw', '/api/v1/namespaces/default/configmaps?limit=1'])).stdout);
    expect(page.metadata.continue).toBeTruthy();
    const next = await kb()(['get', '--raw', `/api/v1/namespaces/default/configmaps?limit=10&continue=${encodeURIComponent(page.metadata.continue)}`]);
    expect(next.code, next.stderr).toBe(0);
    const rest = JSON.parse(next.stdout).items.map((i: { metadata: { name: string } }) => i.metadata.name);
    expect([page.items[0].metadata.name, ...rest].sort()).toEqual(
      (await names(ka()))
        .trim()
        .split('\n')
        .map((n) => n.replace('configmap/', ''))
        .sort(),
    );
  });

  it('accepts on b the client certificate of a and a token a minted; each serves its own certificate of the shared CA', { timeout: 60_000 }, async () => {
    const viaA = await ka()(['--server', b.url, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
    expect(viaA.code, viaA.stderr).toBe(0);
    expect(viaA.stdout).toBe('kubernetes-admin');
    await eventually(async () => (await ka()(['get', 'serviceaccount', 'default'])).code === 0, 'the default ServiceAccount exists');
    const token = (await ka()(['create', 'token', 'default'])).stdout.trim();
    expect(token.split('.')).toHaveLength(3);
    const { kubectl } = ensureClients();
    const whoami = await run(kubectl, [
      '--kubeconfig',
      '/dev/null',
      '--server',
      b.url,
      '--certificate-authority',
      join(dir, 'ca.crt'),
      '--token',
      token,
      'auth',
      'whoami',
      '-o',
      'jsonpath={.status.userInfo.username}',
    ]);
    expect(whoami.code, whoami.stderr).toBe(0);
    expect(whoami.stdout).toBe('system:serviceaccount:default:default');
    const ca = new X509Certificate(readFileSync(join(dir, 'ca.crt')));
    const [certA, certB] = [await servingCertificate(a.url), await servingCertificate(b.url)];
    expect(certA.fingerprint256).not.toBe(certB.fingerprint256);
    for (const c of [certA, certB]) expect(c.checkIssued(ca) && c.verify(ca.publicKey)).toBe(true);
    expect(certA.checkIP('127.0.0.2')).toBe('127.0.0.2');
    expect(certB.checkIP('127.0.0.3')).toBe('127.0.0.3');
  });

  it('runs the controllers in exactly one replica, named by the Lease; the garbage collector works through it', { timeout: 120_000 }, async () => {
    await eventually(async () => (await lease()).spec.holderIdentity !== '', 'a holder');
    const holder: string = (await lease()).spec.holderIdentity;
    expect(holder).toMatch(/^[^_]+_[0-9a-f-]{36}$/);
    expect((await lease()).spec.leaseDurationSeconds).toBe(LEASE_SECONDS);
    const leading = replicas.filter((r) => r.proc?.output().includes(`leading as ${holder}`));
    expect(leading.map((r) => r.name)).toEqual(['a']);
    expect(b.output()).not.toContain('leading as');

    // an orphaned dependent goes once its owner is deleted
    const owner = JSON.parse((await ka()(['create', 'configmap', 'owner', '-o', 'json'])).stdout);
    const dependent = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dependent', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }] } };
    expect((await kb()(['create', '-f', '-'], { input: JSON.stringify(dependent) })).code).toBe(0);
    expect((await kb()(['delete', 'configmap', 'owner'])).code).toBe(0);
    await eventually(async () => (await kb()(['get', 'configmap', 'dependent'])).code !== 0, 'the dependent is collected');
  });

  it('publishes the identity Lease of the host (APIServerIdentity): one name per host name, held by one of the replicas', { timeout: 60_000 }, async () => {
    const list = JSON.parse((await kb()(['get', 'leases', '-n', 'kube-system', '-l', 'apiserver.kubernetes.io/identity=kube-apiserver', '-o', 'json'])).stdout);
    expect(list.items.map((l: { metadata: { name: string } }) => l.metadata.name)).toEqual([identityLeaseName(hostname())]);
    const [l] = list.items;
    expect(l.metadata.labels['kubernetes.io/hostname']).toBe(hostname());
    expect(l.spec.leaseDurationSeconds).toBe(3600);
    expect(l.spec.holderIdentity).toMatch(new RegExp(`^${identityLeaseName(hostname())}_[0-9a-f-]{36}$`));
  });

  it('lists both addresses in the kubernetes endpoints', { timeout: 60_000 }, async () => {
    await eventually(async () => (await addresses(ka())) === '192.0.2.1 192.0.2.2', 'both addresses');
    const slice = JSON.parse((await kb()(['get', 'endpointslice', 'kubernetes', '-o', 'json'])).stdout);
    expect(slice.endpoints.map((e: { addresses: string[] }) => e.addresses[0])).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(slice.ports).toEqual([{ name: 'https', port, protocol: 'TCP' }]);
  });

  it('after SIGKILL of the leader, the other takes the lease (not before the lease duration) and runs the controllers; its address leaves the endpoints', { timeout: 150_000 }, async () => {
    const before = await lease();
    await a.kill();
    await eventually(async () => {
      const l = await lease();
      return l.spec.holderIdentity !== before.spec.holderIdentity && l.spec.holderIdentity !== '';
    }, 'b holds the lease');
    const after = await lease();
    expect(b.output()).toContain(`leading as ${after.spec.holderIdentity}`);
    expect(after.spec.leaseTransitions).toBe(before.spec.leaseTransitions + 1);
    // b waited for the lease to lapse since the last renewal it saw
    const lastRenewal = Date.parse((await lease()).spec.acquireTime) - Date.parse(before.spec.renewTime);
    expect(lastRenewal).toBeGreaterThanOrEqual(LEASE_SECONDS * 1000);
    // the garbage collector runs in b now
    const owner = JSON.parse((await kb()(['create', 'configmap', 'owner2', '-o', 'json'])).stdout);
    const dependent = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dependent2', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner2', uid: owner.metadata.uid }] } };
    expect((await kb()(['create', '-f', '-'], { input: JSON.stringify(dependent) })).code).toBe(0);
    expect((await kb()(['delete', 'configmap', 'owner2'])).code).toBe(0);
    await eventually(async () => (await kb()(['get', 'configmap', 'dependent2'])).code !== 0, 'the dependent is collected by b');
    // a's master lease expires; b's next reconcile writes its address alone
    await eventually(async () => (await addresses(kb())) === '192.0.2.2', 'the killed replica leaves the endpoints', 120_000);
  });

  it('a replica that stops gracefully removes its master lease and its address at once; the leader keeps leading', { timeout: 120_000 }, async () => {
    // identity Leases: an expired one is collected when a server starts; a fresh one and one without the label are not
    const identity = (name: string, renewed: number, labelled: boolean) =>
      JSON.stringify({
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name, namespace: 'kube-system', labels: labelled ? { 'apiserver.kubernetes.io/identity': 'kube-apiserver' } : {} },
        spec: { holderIdentity: name, leaseDurationSeconds: 3600, renewTime: new Date(renewed).toISOString().replace('Z', '000Z') },
      });
    const twoHoursAgo = Date.now() - 2 * 3_600_000;
    for (const [n, renewed, labelled] of [
      ['apiserver-expired', twoHoursAgo, true],
      ['apiserver-fresh', Date.now(), true],
      ['not-an-identity', twoHoursAgo, false],
    ] as const) {
      expect((await kb()(['create', '-f', '-'], { input: identity(n, renewed, labelled) })).code).toBe(0);
    }
    const c = (replicas[2].proc = await startServerProcess(args(replicas[2])));
    const left = (await kb()(['get', 'leases', '-n', 'kube-system', '-o', 'name'])).stdout;
    expect(left).not.toContain('lease.coordination.k8s.io/apiserver-expired');
    expect(left).toContain('lease.coordination.k8s.io/apiserver-fresh');
    expect(left).toContain('lease.coordination.k8s.io/not-an-identity');
    await eventually(async () => (await addresses(kb())) === '192.0.2.2 192.0.2.3', 'c joins the endpoints');
    expect(await etcdKeys(etcd, '/registry/masterleases/')).toEqual(['/registry/masterleases/192.0.2.2', '/registry/masterleases/192.0.2.3']);
    const holder = (await lease()).spec.holderIdentity;
    expect(c.output()).not.toContain('leading as');
    expect(await c.stop()).toBe(0);
    replicas[2].proc = undefined;
    // removed on the way out, not left to expire
    expect(await etcdKeys(etcd, '/registry/masterleases/')).toEqual(['/registry/masterleases/192.0.2.2']);
    expect(await addresses(kb())).toBe('192.0.2.2');
    expect((await lease()).spec.holderIdentity).toBe(holder);
  });
});
