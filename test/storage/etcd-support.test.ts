// The throw-away etcd of test/support/etcd.ts: it starts healthy, answers a
// key-value request, and stops with its data directory removed; and on CI
// (CI set) a missing etcd binary fails the run instead of skipping it. The
// flags of a member alone and of a cluster's member (one builder for both).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ETCD_SKIP_MESSAGE, etcdAvailable, etcdRequired, memberArgs, startEtcd } from '../support/etcd.ts';

describe('test etcd', () => {
  it('is installed where the etcd tests must run (CI)', () => {
    if (etcdRequired()) expect(etcdAvailable(), ETCD_SKIP_MESSAGE).toBe(true);
    else if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);
  });

  it.skipIf(!etcdAvailable())('starts on free loopback ports, serves, and stops with its data removed', async () => {
    const etcd = await startEtcd();
    try {
      expect(etcd.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(existsSync(etcd.dataDir)).toBe(true);
      // the v3 JSON gateway: a range of the empty store answers with a header revision
      const res = await fetch(`${etcd.url}/v3/kv/range`, { method: 'POST', body: JSON.stringify({ key: Buffer.from('/x').toString('base64') }) });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { header?: { revision?: string } };
      expect(Number(body.header?.revision)).toBeGreaterThanOrEqual(1);
    } finally {
      await etcd.stop();
    }
    expect(existsSync(etcd.dataDir)).toBe(false);
    expect(etcd.proc.exitCode !== null || etcd.proc.signalCode !== null).toBe(true);
  });

  const flag = (args: string[], name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  it.each([
    ['alone', undefined, undefined, undefined],
    ['in a cluster', { token: 't1' }, 't1', '500'],
  ])('member flags %s', (_n, cluster, token, election) => {
    const args = memberArgs({ name: 'm0', dataDir: '/d/m0', url: 'http://127.0.0.1:1', peer: 'http://127.0.0.1:2', initialCluster: 'm0=http://127.0.0.1:2', quotaBytes: 1024, cluster });
    expect(flag(args, '--name')).toBe('m0');
    expect(flag(args, '--listen-client-urls')).toBe('http://127.0.0.1:1');
    expect(flag(args, '--advertise-client-urls')).toBe('http://127.0.0.1:1');
    expect(flag(args, '--initial-advertise-peer-urls')).toBe('http://127.0.0.1:2');
    expect(flag(args, '--quota-backend-bytes')).toBe('1024');
    expect(flag(args, '--initial-cluster-token')).toBe(token);
    expect(flag(args, '--election-timeout')).toBe(election);
  });
});
