// What a create costs etcd, counted by etcd itself (its gRPC server's
// handled-calls counters on /metrics): a ConfigMap or a Pod created through
// the server is one Txn and no Range (admission reads the watch cache as
// upstream's plugins read their listers; the create's revision comes from
// the Txn's answer, nothing is read back), a Service one more Txn for its
// cluster IP (the range's write starts from what it stored last, no read),
// and creates sent together reach etcd together. And NamespaceLifecycle, which reads its namespace from the
// cache first, on etcd and on SQLite: a create into a namespace made a
// moment ago (on etcd also through another server on the same etcd) is
// admitted at once; into one deleted a moment ago, or one that does not
// exist, refused. Skipped (with a message) where no etcd binary exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ETCD_SKIP_MESSAGE, etcdAvailable, startEtcd, type TestEtcd } from '../support/etcd.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { parseMetrics, samples } from '../support/metrics-text.ts';

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);

/** Calls etcd's KV service answered, by method (Range, Txn, Put...). */
async function kvCalls(etcd: TestEtcd): Promise<Record<string, number>> {
  const fams = parseMetrics(await (await fetch(`${etcd.url}/metrics`)).text());
  const out: Record<string, number> = {};
  for (const s of samples(fams, 'grpc_server_handled_total', { grpc_service: 'etcdserverpb.KV' })) {
    const m = s.labels?.grpc_method ?? '';
    out[m] = (out[m] ?? 0) + Number(s.value);
  }
  return out;
}
const delta = (a: Record<string, number>, b: Record<string, number>, m: string) => (b[m] ?? 0) - (a[m] ?? 0);

const send = (s: RunningServer, method: string, path: string, body?: unknown) =>
  s.app.request(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { key: 'value' } });
const pod = (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'x' }] } });
const service = (name: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }] } });
const namespace = (name: string, finalizers?: string[]) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, ...(finalizers ? { finalizers } : {}) } });

async function created(s: RunningServer, path: string, body: unknown): Promise<void> {
  const res = await send(s, 'POST', path, body);
  expect(res.status, await res.clone().text()).toBe(201);
}

/** Background writes of the servers (leases, their Events) during a count: a few, never one per create. */
const SLACK = 6;

describe.skipIf(!etcdAvailable())('the etcd calls of a create', () => {
  let etcd: TestEtcd;
  let s: RunningServer;
  beforeAll(async () => {
    etcd = await startEtcd();
    s = await startServer({ authorizationMode: ['AlwaysAllow'], port: 0, log: () => {}, etcd: { servers: [etcd.url], compactionIntervalMs: 0 } });
    await created(s, '/api/v1/namespaces', namespace('rpc'));
    // the first of each kind primes the caches admission reads (and waits for the namespace's default ServiceAccount)
    await created(s, '/api/v1/namespaces/rpc/configmaps', configMap('warm'));
    await created(s, '/api/v1/namespaces/rpc/pods', pod('warm'));
    await created(s, '/api/v1/namespaces/rpc/services', service('warm'));
  });
  afterAll(async () => {
    await s?.stop();
    await etcd?.stop();
  });

  it.each([
    ['ConfigMaps', 40, configMap, 'configmaps'],
    ['Pods', 10, pod, 'pods'],
  ] as const)('%s: one Txn each, no Range', async (_kind, n, make, resource) => {
    const before = await kvCalls(etcd);
    for (let i = 0; i < n; i++) await created(s, `/api/v1/namespaces/rpc/${resource}`, make(`seq-${i}`));
    const after = await kvCalls(etcd);
    expect(delta(before, after, 'Txn')).toBeGreaterThanOrEqual(n);
    expect(delta(before, after, 'Txn')).toBeLessThanOrEqual(n + SLACK);
    // a consistent read per create (a Range each) would be n
    expect(delta(before, after, 'Range')).toBeLessThanOrEqual(SLACK / 2);
  });

  it('Services: the cluster IP allocation (a Txn on the range, no Range) and the create', async () => {
    const n = 10;
    const before = await kvCalls(etcd);
    for (let i = 0; i < n; i++) await created(s, '/api/v1/namespaces/rpc/services', service(`seq-${i}`));
    const after = await kvCalls(etcd);
    expect(delta(before, after, 'Txn')).toBeGreaterThanOrEqual(2 * n);
    expect(delta(before, after, 'Txn')).toBeLessThanOrEqual(2 * n + SLACK);
    // the range's write starts from what it stored last; a read of the range per create would be n
    expect(delta(before, after, 'Range')).toBeLessThanOrEqual(SLACK / 2);
  });

  it('sends creates made together to etcd together, not one after another', async () => {
    const origin = (await import('../../runtime/storage/etcd/etcd-kv.ts')).EtcdKV.prototype;
    const create = origin.create;
    let inFlight = 0;
    let most = 0;
    origin.create = async function (this: typeof origin, key: string, value: string) {
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        return await create.call(this, key, value);
      } finally {
        inFlight--;
      }
    };
    try {
      await Promise.all(Array.from({ length: 16 }, (_, i) => created(s, '/api/v1/namespaces/rpc/configmaps', configMap(`together-${i}`))));
    } finally {
      origin.create = create;
    }
    expect(most).toBeGreaterThan(1);
  });
});

type Backend = 'etcd' | 'SQLite';
const backends: Backend[] = etcdAvailable() ? ['SQLite', 'etcd'] : ['SQLite'];

describe.each(backends)('NamespaceLifecycle on %s', (backend) => {
  let etcd: TestEtcd | undefined;
  let s: RunningServer;
  let other: RunningServer | undefined;
  beforeAll(async () => {
    if (backend === 'etcd') etcd = await startEtcd();
    const storage = etcd ? { etcd: { servers: [etcd.url], compactionIntervalMs: 0 } } : {};
    s = await startServer({ authorizationMode: ['AlwaysAllow'], port: 0, log: () => {}, ...storage });
    // a second server on the same etcd
    if (etcd) other = await startServer({ authorizationMode: ['AlwaysAllow'], port: 0, log: () => {}, ...storage });
    // the namespaces' cache is primed
    await created(s, '/api/v1/namespaces/default/configmaps', configMap('warm'));
  });
  afterAll(async () => {
    await other?.stop();
    await s?.stop();
    await etcd?.stop();
  });

  it('admits a create into a namespace made a moment ago', async () => {
    for (let i = 0; i < 5; i++) {
      await created(s, '/api/v1/namespaces', namespace(`fresh-${i}`));
      await created(s, `/api/v1/namespaces/fresh-${i}/configmaps`, configMap('c'));
    }
  });

  it.skipIf(backend !== 'etcd')('admits a create into a namespace made through another server a moment ago', async () => {
    for (let i = 0; i < 5; i++) {
      await created(other!, '/api/v1/namespaces', namespace(`elsewhere-${i}`));
      await created(s, `/api/v1/namespaces/elsewhere-${i}/configmaps`, configMap('c'));
    }
  });

  it('refuses a create into a namespace deleted a moment ago (403 NamespaceTerminating)', async () => {
    for (let i = 0; i < 5; i++) {
      const ns = `going-${i}`;
      // a finalizer of its own keeps the namespace terminating until the test removes it
      await created(s, '/api/v1/namespaces', namespace(ns, ['example.com/hold']));
      await created(s, `/api/v1/namespaces/${ns}/configmaps`, configMap('before'));
      expect((await send(s, 'DELETE', `/api/v1/namespaces/${ns}`)).status).toBe(200);
      const res = await send(s, 'POST', `/api/v1/namespaces/${ns}/configmaps`, configMap('after'));
      const body = (await res.json()) as { reason: string; details: { causes: { reason: string }[] } };
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(body.details.causes[0].reason).toBe('NamespaceTerminating');
    }
  });

  it('refuses a create into a namespace that does not exist (404)', async () => {
    const res = await send(s, 'POST', '/api/v1/namespaces/never/configmaps', configMap('c'));
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe('namespaces "never" not found');
  });
});
