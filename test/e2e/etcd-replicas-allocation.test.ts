// Two server replicas on one etcd allocate from one pool: NodePort Services
// created concurrently through both replicas all get distinct cluster IPs
// and distinct node ports (with the `kubernetes` Service's IP among them), as
// kube-apiserver replicas do with their allocators kept in etcd.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETCD_SKIP_MESSAGE, etcdAvailable, startEtcd, type TestEtcd } from '../support/etcd.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);

const PER_REPLICA = 30;

interface Service {
  metadata: { name: string };
  spec: { clusterIP?: string; clusterIPs?: string[]; ports?: { nodePort?: number }[] };
}

describe.skipIf(!etcdAvailable())('allocation across two server replicas on one etcd', () => {
  let etcd: TestEtcd;
  const servers: ServerProcess[] = [];
  beforeAll(async () => {
    etcd = await startEtcd();
  });
  afterAll(async () => {
    for (const s of servers) {
      await s.stop();
      rmSync(s.dataDir, { recursive: true, force: true });
    }
    await etcd?.stop();
  });

  it('gives Services created through both replicas at once distinct cluster IPs and node ports', { timeout: 180_000 }, async () => {
    const args = ['--etcd-servers', etcd.url, '--insecure-serve-http', '--authorization-mode', 'AlwaysAllow'];
    servers.push(await startServerProcess(args, { keepDataDir: true }));
    servers.push(await startServerProcess(args, { keepDataDir: true }));
    const create = async (base: string, name: string): Promise<Service> => {
      const res = await fetch(`${base}/api/v1/namespaces/default/services`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type: 'NodePort', selector: { app: name }, ports: [{ port: 80 }] } }),
      });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(201);
      return body as Service;
    };
    // interleaved: replica 0 and replica 1 create at the same time
    await Promise.all(Array.from({ length: PER_REPLICA * 2 }, (_, i) => create(servers[i % 2].url, `s${i}`)));

    const res = await fetch(`${servers[0].url}/api/v1/namespaces/default/services`);
    const list = (await res.json()) as { items: Service[] };
    expect(list.items.length).toBe(PER_REPLICA * 2 + 1); // and `kubernetes`
    const ips = list.items.flatMap((s) => s.spec.clusterIPs ?? [s.spec.clusterIP]).filter((ip): ip is string => !!ip && ip !== 'None');
    const dupIPs = ips.filter((ip, i) => ips.indexOf(ip) !== i);
    expect(dupIPs, 'cluster IPs given twice').toEqual([]);
    const ports = list.items.flatMap((s) => (s.spec.ports ?? []).map((p) => p.nodePort)).filter((p): p is number => p !== undefined);
    expect(ports.length).toBe(PER_REPLICA * 2);
    const dupPorts = ports.filter((p, i) => ports.indexOf(p) !== i);
    expect(dupPorts, 'node ports given twice').toEqual([]);
  });
});
