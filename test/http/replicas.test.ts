// Replicas in one process: the election and endpoint reconciler options
// refused at start as upstream refuses them; on SQLite (one process per
// store) no Lease is written and the controllers run; on etcd two servers
// elect one controller manager (an Event on the Lease says who became
// leader), and the leader stopping gracefully hands the
// Lease back at once (holder emptied), so that the other takes it on its next
// attempt instead of after the lease duration (five minutes here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { ETCD_SKIP_MESSAGE, etcdAvailable, startEtcd, type TestEtcd } from '../support/etcd.ts';
import { call, until } from '../semantics/helpers.ts';

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);

const LEASE = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/kube-controller-manager';

describe('start options', () => {
  it.each([
    ['a renew deadline not shorter than the lease duration', { leaderElection: { leaseDurationMs: 10_000, renewDeadlineMs: 10_000 } }, 'leaseDuration must be greater than renewDeadline'],
    ['a retry period too close to the renew deadline', { leaderElection: { renewDeadlineMs: 2_000, retryPeriodMs: 2_000 } }, 'renewDeadline must be greater than retryPeriod*JitterFactor'],
    ['an unknown endpoint reconciler', { endpointReconcilerType: 'leases' }, '--endpoint-reconciler-type: invalid value "leases" (one of master-count, lease, none)'],
  ])('refuses %s before opening the store', async (_n, opts, message) => {
    // an etcd nobody listens on: the refusal comes first
    await expect(startServer({ authorizationMode: ['AlwaysAllow'], etcd: { servers: ['http://127.0.0.1:1'] }, ...opts })).rejects.toThrow(message);
  });
});

describe('on SQLite', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['AlwaysAllow'], advertiseAddress: '192.0.2.9', endpointReconcilerType: 'lease' });
  });
  afterAll(async () => {
    await s?.stop();
  });
  it('writes no election Lease and runs the controllers; the Endpoints list this server', async () => {
    expect((await call(s, 'GET', LEASE)).code).toBe(404);
    expect((await call(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'replicas-ns' } })).code).toBe(201);
    await until(async () => (await call(s, 'GET', '/api/v1/namespaces/replicas-ns/serviceaccounts/default')).code === 200);
    const ep = await call(s, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes');
    expect(ep.body.subsets[0].addresses).toEqual([{ ip: '192.0.2.9' }]);
  });
});

describe('with --endpoint-reconciler-type=none', () => {
  it('writes no kubernetes Endpoints', async () => {
    const s = await startServer({ authorizationMode: ['AlwaysAllow'], advertiseAddress: '192.0.2.9', endpointReconcilerType: 'none' });
    try {
      expect((await call(s, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes')).code).toBe(404);
    } finally {
      await s.stop();
    }
  });
});

describe.skipIf(!etcdAvailable())('two servers on one etcd', () => {
  let etcd: TestEtcd;
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 60_000);
  afterAll(async () => {
    await etcd?.stop();
  });

  it('one leads; it hands the Lease back when it stops and the other takes it', { timeout: 90_000 }, async () => {
    const logs: [string[], string[]] = [[], []];
    const start = (i: 0 | 1) =>
      startServer({
        authorizationMode: ['AlwaysAllow'],
        etcd: { servers: [etcd.url] },
        endpointReconcilerType: 'none',
        // a lease the other could take only after five minutes unless it is handed back
        leaderElection: { leaseDurationMs: 300_000 },
        log: (m) => logs[i].push(m),
      });
    const first = await start(0);
    let second: RunningServer | undefined;
    try {
      const holder = (await call(first, 'GET', LEASE)).body.spec.holderIdentity;
      expect(logs[0]).toContain(`leading as ${holder}: starting the controllers`);
      // client-go's event on the Lease
      const leaderEvents = async () =>
        ((await call(first, 'GET', '/api/v1/namespaces/kube-system/events')).body.items as any[]).filter((e) => e.reason === 'LeaderElection' && e.message === `${holder} became leader`);
      await until(async () => (await leaderEvents()).length === 1, 10_000);
      const [ev] = await leaderEvents();
      expect(ev).toMatchObject({
        type: 'Normal',
        source: { component: 'kube-controller-manager' },
        involvedObject: { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', namespace: 'kube-system', name: 'kube-controller-manager' },
      });
      expect(ev.metadata.name).toMatch(/^kube-controller-manager\.[0-9a-f]+$/);
      second = await start(1);
      expect(logs[1].some((l) => l.startsWith('leading as'))).toBe(false);
      await first.stop();
      await until(async () => logs[1].some((l) => l.startsWith('leading as')), 30_000, 100);
      const taken = (await call(second, 'GET', LEASE)).body.spec;
      expect(logs[1]).toContain(`leading as ${taken.holderIdentity}: starting the controllers`);
      expect(taken.holderIdentity).not.toBe(holder);
      expect(taken.leaseTransitions).toBe(1);
    } finally {
      await first.stop();
      await second?.stop();
    }
  });
});
