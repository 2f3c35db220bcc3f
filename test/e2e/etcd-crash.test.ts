// Durability on etcd: a server process on a three-member etcd cluster is
// killed with SIGKILL in the middle of a storm of creates; a server started
// again on the same cluster lists every create that was acknowledged, each
// with the data it was written with. (The SQLite counterpart kills the KV
// writer, test/storage/crash.test.ts, and the server, test/e2e/lifecycle.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETCD_SKIP_MESSAGE, etcdAvailable } from '../support/etcd.ts';
import { startEtcdCluster, stopServersAndCluster, type TestEtcdCluster } from '../support/etcd-cluster.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { serverFetch } from '../support/server-fetch.ts';

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);

describe.skipIf(!etcdAvailable())('server on a three-member etcd cluster, killed with SIGKILL', () => {
  let cluster: TestEtcdCluster;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    cluster = await startEtcdCluster();
  }, 90_000);
  afterAll(() => stopServersAndCluster(servers, cluster));

  it('keeps every acknowledged create across kill -9 of the server', { timeout: 180_000 }, async () => {
    const args = ['--etcd-servers', cluster.endpoints];
    const s1 = await startServerProcess(args, { keepDataDir: true });
    servers.push(s1);
    const acked: string[] = [];
    let stop = false;
    const writers = Array.from({ length: 16 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const name = `w${w}-${i}`;
        try {
          const r = await serverFetch(`${s1.url}/api/v1/namespaces/default/configmaps`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { crash: '1' } }, data: { i: String(i) } }),
          });
          if (r.status === 201) acked.push(name);
          else await r.arrayBuffer();
        } catch {
          return; // connection dropped by the kill
        }
      }
    });
    // kill in the middle of the storm, once a good number of writes were acknowledged
    const deadline = Date.now() + 120_000;
    while (acked.length < 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await s1.kill();
    expect(() => process.kill(s1.proc.pid!, 0)).toThrow(); // really gone
    stop = true;
    await Promise.all(writers);
    expect(acked.length).toBeGreaterThanOrEqual(200);

    // the server started again on the same data directory (its certificates) and the same cluster
    const s2 = await startServerProcess(args, { dataDir: s1.dataDir, keepDataDir: true });
    servers.push(s2);
    const res = await serverFetch(`${s2.url}/api/v1/namespaces/default/configmaps?labelSelector=crash%3D1`);
    expect(res.status).toBe(200);
    const list = (await res.json()) as { items: { metadata: { name: string }; data: { i: string } }[] };
    const present = new Map(list.items.map((o) => [o.metadata.name, o]));
    const lost = acked.filter((n) => !present.has(n));
    expect(lost).toEqual([]);
    for (const o of list.items) expect(o.data.i, o.metadata.name).toBe(o.metadata.name.split('-')[1]);
  });
});
