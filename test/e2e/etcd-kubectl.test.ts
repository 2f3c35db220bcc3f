// The server on etcd, end to end: a real server process started with
// --etcd-servers on a throw-away etcd member; kubectl creates, lists, watches
// and deletes; the keys in etcd are kube-apiserver's (events.k8s.io Events
// under core's events directory); a restarted server
// keeps the objects; with etcd killed, /readyz fails its etcd check and a
// write fails with a 500 Status instead of hanging; with etcd back, both
// recover. Skipped (with a message) only where no etcd binary exists.
import { spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETCD_SKIP_MESSAGE, etcdAvailable, startEtcd, type TestEtcd } from '../support/etcd.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { ensureClients } from '../support/clients.ts';
import { kubectlFor } from '../support/kubectl.ts';
import { serverFetch } from '../support/server-fetch.ts';

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);

/** Polls until cond() holds (each try is one request; the bound only ends a broken run). */
async function eventually(cond: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond().catch(() => false))) {
    if (Date.now() > end) throw new Error(`not reached: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The keys etcd holds under a prefix (its JSON gateway). */
async function etcdKeys(etcd: TestEtcd, prefix: string): Promise<string[]> {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const res = await fetch(`${etcd.url}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: b64(prefix), range_end: b64(end), keys_only: true }) });
  const body = (await res.json()) as { kvs?: { key: string }[] };
  return (body.kvs ?? []).map((kv) => Buffer.from(kv.key, 'base64').toString());
}

describe.skipIf(!etcdAvailable())('server on etcd (kubectl)', () => {
  let etcd: TestEtcd;
  let server: ServerProcess;
  let dataDir: string;
  const args = () => ['--etcd-servers', etcd.url, '--etcd-healthcheck-timeout', '1s'];

  beforeAll(async () => {
    etcd = await startEtcd();
    server = await startServerProcess(args(), { keepDataDir: true });
    dataDir = server.dataDir;
  });
  afterAll(async () => {
    await server?.stop();
    await etcd?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates, lists, watches and deletes through kubectl, with kube-apiserver keys in etcd and no database file', { timeout: 120_000 }, async () => {
    const k = kubectlFor(server.kubeconfig);
    expect(existsSync(join(dataDir, 'specserver.db'))).toBe(false);
    expect((await k(['create', 'configmap', 'one', '--from-literal=a=1'])).code).toBe(0);
    // a watch through kubectl, read as it prints
    const { kubectl } = ensureClients();
    const watch = spawn(kubectl, ['--kubeconfig', server.kubeconfig, 'get', 'configmaps', '--watch', '--output-watch-events'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let seen = '';
    watch.stdout.on('data', (d) => (seen += d));
    try {
      await eventually(async () => /ADDED\s+one\s/.test(seen), 'the watch lists one').catch((e) => {
        throw new Error(`${e.message}; kubectl printed: ${seen}`);
      });
      expect((await k(['create', 'configmap', 'two'])).code).toBe(0);
      expect((await k(['delete', 'configmap', 'one'])).code).toBe(0);
      await eventually(async () => /ADDED\s+two\s/.test(seen) && /DELETED\s+one\s/.test(seen), 'the watch sees two added and one deleted').catch((e) => {
        throw new Error(`${e.message}; kubectl printed: ${seen}`);
      });
    } finally {
      watch.kill();
    }
    const list = await k(['get', 'configmaps', '-o', 'name']);
    expect(list.stdout).toContain('configmap/two');
    expect(list.stdout).not.toContain('configmap/one');
    const keys = await etcdKeys(etcd, '/registry/configmaps/default/');
    expect(keys).toContain('/registry/configmaps/default/two');
    expect(await etcdKeys(etcd, '/registry/namespaces/')).toContain('/registry/namespaces/default');
    expect(await etcdKeys(etcd, '/registry/services/specs/default/')).toContain('/registry/services/specs/default/kubernetes');
  });

  it("keeps events.k8s.io Events as core Events in core's events directory, as kube-apiserver", async () => {
    const k = kubectlFor(server.kubeconfig);
    const event = `apiVersion: events.k8s.io/v1
kind: Event
metadata:
  name: on-etcd
eventTime: "2026-01-01T00:00:00.000001Z"
type: Normal
reportingController: example.com/e2e
reportingInstance: e2e-1
action: Sync
reason: Synced
regarding:
  kind: Pod
  name: p
  namespace: default
`;
    const created = await k(['create', '-f', '-'], { input: event });
    expect(created.code, created.stderr).toBe(0);
    expect(await etcdKeys(etcd, '/registry/events/default/')).toContain('/registry/events/default/on-etcd');
    expect(await etcdKeys(etcd, '/registry/events.k8s.io/')).toEqual([]);
    const core = await k(['get', 'events', 'on-etcd', '-o', 'jsonpath={.apiVersion} {.involvedObject.name}']);
    expect(core.stdout).toBe('v1 p');
  });

  it('keeps the objects across a restart of the server', async () => {
    await server.stop();
    server = await startServerProcess(args(), { dataDir, keepDataDir: true });
    const k = kubectlFor(server.kubeconfig);
    const got = await k(['get', 'configmap', 'two', '-o', 'jsonpath={.metadata.name}']);
    expect(got.stdout).toBe('two');
  });

  it('fails readiness and writes while etcd is down, and recovers when it is back', async () => {
    const k = kubectlFor(server.kubeconfig);
    await eventually(async () => (await serverFetch(`${server.url}/readyz`)).status === 200, 'ready');
    await etcd.kill();
    let text = '';
    await eventually(async () => {
      const res = await serverFetch(`${server.url}/readyz?verbose`);
      text = await res.text();
      return res.status === 500;
    }, '/readyz fails');
    expect(text).toContain('[-]etcd failed');
    const live = await serverFetch(`${server.url}/livez/etcd`);
    expect(live.status).toBe(500);
    const write = await k(['create', 'configmap', 'during'], { timeoutMs: 60_000 });
    expect(write.code).not.toBe(0);
    expect(write.stderr).toContain('failed to create configmap');
    const status = await serverFetch(`${server.url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'during2' } }),
    });
    expect(status.status).toBe(500);
    expect(await status.json()).toMatchObject({ kind: 'Status', status: 'Failure', code: 500 });

    await etcd.restart();
    await eventually(async () => (await serverFetch(`${server.url}/readyz`)).status === 200, '/readyz recovers');
    expect((await k(['create', 'configmap', 'after'])).code).toBe(0);
    const list = await k(['get', 'configmaps', '-o', 'name']);
    expect(list.stdout).toContain('configmap/after');
    expect(list.stdout).not.toContain('configmap/during');
  });
});
