// Service allocation shared by several servers on one store: the ranges kept
// as RangeAllocation objects under kube-apiserver's keys and changed only by
// compare-and-swap. Two allocators, each with its own client and cache, over
// one etcd (and, the same code, over one SQLite store) reserving at once never
// hand out a value twice; what a delete releases is free for the other; a full
// range answers upstream's text; the repair marks what stored Services hold
// and frees a leak only after repeated sightings. Then two whole servers on
// one etcd creating NodePort Services at once over HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETCD_SKIP_MESSAGE, etcdAvailable, startEtcd, type TestEtcd } from '../support/etcd.ts';
import { openEtcdKV } from '../../runtime/storage/etcd/index.ts';
import { openSqliteKV } from '../../runtime/storage/sqlite/index.ts';
import { KVStorage } from '../../runtime/storage/kvstore/index.ts';
import type { KV, Obj } from '../../runtime/storage/interface.ts';
import { RANGE_KEYS, ServiceAllocators, heldBy } from '../../runtime/registry/strategies/service/allocate.ts';
import { decodeBitmap } from '../../runtime/registry/allocators/bitmap.ts';
import { leakCounter } from '../../runtime/builtins/services.ts';
import { ApiError } from '../../runtime/api/errors.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { call } from './helpers.ts';

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);

let n = 0;
const nodePort = (name = `s${++n}`): Obj => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { type: 'NodePort', ipFamilies: ['IPv4'], ports: [{ port: 80 }] } });

/** Reserves and commits one NodePort Service; returns it as stored. */
async function create(a: ServiceAllocators): Promise<Obj> {
  const s = nodePort();
  const r = await a.reserve(s, null);
  await r.commit(s);
  return s;
}

/** The offsets a stored range holds. */
async function stored(storage: KVStorage, key: string): Promise<{ range: string; offsets: number[] } | null> {
  const o = await storage.get(key);
  return o ? { range: o.range, offsets: decodeBitmap(Buffer.from(o.data, 'base64')) } : null;
}

type Backend = { name: string; open(): Promise<{ kvs: KV[]; close(): Promise<void> }> };

let etcd: TestEtcd | undefined;
let prefixN = 0;
const backends: Backend[] = [
  {
    name: 'SQLite (one store, two allocators)',
    async open() {
      const kv = openSqliteKV({ path: ':memory:' });
      return { kvs: [kv, kv], close: () => kv.close() };
    },
  },
];
if (etcdAvailable()) {
  backends.push({
    name: 'etcd (two clients)',
    async open() {
      const prefix = `/ranges${++prefixN}`;
      const a = await openEtcdKV({ endpoints: [etcd!.url], prefix });
      const b = await openEtcdKV({ endpoints: [etcd!.url], prefix });
      return { kvs: [a, b], close: async () => (await a.close(), await b.close()) };
    },
  });
}

beforeAll(async () => {
  if (etcdAvailable()) etcd = await startEtcd();
});
afterAll(async () => {
  await etcd?.stop();
});

describe.each(backends)('shared ranges on $name', (backend) => {
  let kvs: KV[];
  let close: () => Promise<void>;
  let storages: KVStorage[];
  beforeAll(async () => {
    ({ kvs, close } = await backend.open());
    storages = kvs.map((kv) => new KVStorage(kv));
  });
  afterAll(async () => close?.());

  const pair = (cidr: string, ports: string): ServiceAllocators[] =>
    storages.map((s) => {
      const a = new ServiceAllocators(cidr, ports);
      a.bindStorage(s);
      return a;
    });

  it('two allocators reserving at once never hand out a value twice; deletes free values for the other', async () => {
    const [a, b] = pair('10.1.0.0/25', '30000-30199'); // 126 addresses, 200 ports
    const made = await Promise.all(Array.from({ length: 120 }, (_, i) => create(i % 2 ? a : b)));
    const ips = made.map((s) => s.spec.clusterIP);
    const ports = made.map((s) => s.spec.ports[0].nodePort);
    expect(new Set(ips).size).toBe(120);
    expect(new Set(ports).size).toBe(120);
    const ipRange = await stored(storages[0], RANGE_KEYS.primary);
    expect(ipRange?.range).toBe('10.1.0.0/25');
    expect(ipRange?.offsets.length).toBe(120);
    expect((await stored(storages[0], RANGE_KEYS.nodePorts))?.range).toBe('30000-30199');
    // a deletes what b made: b's next requests for those values succeed
    const fromB = made.filter((_, i) => i % 2 === 0);
    await Promise.all(fromB.map((s) => a.release(s)));
    expect((await stored(storages[1], RANGE_KEYS.primary))?.offsets.length).toBe(60);
    const again = nodePort();
    again.spec.clusterIP = fromB[0].spec.clusterIP;
    again.spec.clusterIPs = [fromB[0].spec.clusterIP];
    again.spec.ports[0].nodePort = fromB[0].spec.ports[0].nodePort;
    await (await b.reserve(again, null)).commit(again);
    // and a requested value the other holds is refused with upstream's text
    const taken = nodePort();
    taken.spec.ports[0].nodePort = again.spec.ports[0].nodePort;
    const err = await a.reserve(taken, null).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status().details?.causes?.[0]).toMatchObject({
      field: 'spec.ports[0].nodePort',
      message: `Invalid value: ${taken.spec.ports[0].nodePort}: provided port is already allocated`,
    });
  });

  it('a full range answers kube-apiserver\u2019s error to either allocator, and nothing stays reserved', async () => {
    const [a, b] = pair('10.2.0.0/29', '31000-31100'); // 6 addresses
    await Promise.all(Array.from({ length: 6 }, (_, i) => create(i % 2 ? a : b)));
    for (const x of [a, b]) {
      const err = await x.reserve(nodePort(), null).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status()).toMatchObject({ code: 500, reason: 'InternalError', message: 'Internal error occurred: failed to allocate a serviceIP: range is full' });
    }
    // the node port each failed create took was given back
    expect((await stored(storages[0], RANGE_KEYS.nodePorts))?.offsets.length).toBe(6);
  });

  it('repair marks what Services hold, replaces a range stored for other flags, and frees a leak after repeated sightings', async () => {
    const [a] = pair('10.3.0.0/28', '32000-32010');
    const s = await create(a);
    // another server's allocator on different flags rebuilds the stored range from the Services
    const other = new ServiceAllocators('10.3.0.0/27', '32000-32010');
    other.bindStorage(storages[1]);
    await other.repair([s]);
    expect(await stored(storages[0], RANGE_KEYS.primary)).toEqual({ range: '10.3.0.0/27', offsets: [other.ip.get('IPv4')!.offsetOf(s.spec.clusterIP)] });
    // a value no Service holds (its Service was never stored): kept until the third repair in a row saw it
    const lost = nodePort();
    await (await other.reserve(lost, null)).commit(lost);
    const leaks = leakCounter(3);
    for (let round = 1; round <= 3; round++) {
      await other.repair([s], leaks.leaked);
      leaks.nextRound();
      const held = (await stored(storages[0], RANGE_KEYS.nodePorts))!.offsets.map((o) => o + 32000);
      expect(held.includes(heldBy(lost).ports[0])).toBe(round < 3);
      expect(held.includes(s.spec.ports[0].nodePort)).toBe(true);
    }
  });
});

describe.skipIf(!etcdAvailable())('two servers on one etcd', () => {
  let servers: RunningServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
  });

  it('create NodePort Services at once over HTTP with distinct cluster IPs and node ports', { timeout: 120_000 }, async () => {
    const opts = { authorizationMode: ['AlwaysAllow'], port: 0, etcd: { servers: [etcd!.url], prefix: '/two-servers' }, serviceClusterIPRange: '10.4.0.0/26', serviceNodePortRange: '30500-30599' };
    servers = [await startServer(opts), await startServer(opts)];
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        call(servers[i % 2], 'POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: `two-${i}` }, spec: { type: 'NodePort', ports: [{ port: 80 }] } }),
      ),
    );
    expect(replies.map((r) => r.code)).toEqual(replies.map(() => 201));
    const ips = replies.map((r) => r.body.spec.clusterIP);
    const ports = replies.map((r) => r.body.spec.ports[0].nodePort);
    expect(new Set(ips).size).toBe(60);
    expect(new Set(ports).size).toBe(60);
    // the kubernetes Service's address is one of the range's, taken once for both servers
    expect(ips).not.toContain('10.4.0.1');
  });
});
