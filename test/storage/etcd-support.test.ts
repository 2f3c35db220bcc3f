// The throw-away etcd of test/support/etcd.ts: it starts healthy, answers a
// key-value request, and stops with its data directory removed; and on CI
// (CI set) a missing etcd binary fails the run instead of skipping it.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ETCD_SKIP_MESSAGE, etcdAvailable, etcdRequired, startEtcd } from '../support/etcd.ts';

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
});
