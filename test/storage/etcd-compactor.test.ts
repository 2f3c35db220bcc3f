// The etcd compaction loop: two servers on one etcd, rounds run by hand (no
// timers): the first round only records a revision, later rounds compact to
// the revision recorded one round before, and only the server whose swap of
// compact_rev_key succeeded compacts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdAvailable, startEtcd, type TestEtcd } from '../support/etcd.ts';
import { EtcdCompactor, openEtcdKV } from '../../runtime/storage/etcd/index.ts';

describe.skipIf(!etcdAvailable())('etcd compactor', () => {
  let etcd: TestEtcd;
  beforeAll(async () => {
    etcd = await startEtcd();
  });
  afterAll(async () => {
    await etcd?.stop();
  });

  it('compacts to the revision seen one round earlier, in one server of two', async () => {
    const a = await openEtcdKV({ endpoints: [etcd.url] });
    const b = await openEtcdKV({ endpoints: [etcd.url] });
    try {
      const ca = new EtcdCompactor(a);
      const cb = new EtcdCompactor(b);
      await a.create('/registry/core/configmaps/ns/x', '{}');
      // round 1: a swaps (nothing seen before: no compaction); b's swap fails
      expect(await ca.round()).toBe(0);
      const seen = await a.currentRevision();
      expect(await cb.round()).toBe(0);
      const x = await a.get('/registry/core/configmaps/ns/x');
      await a.update('/registry/core/configmaps/ns/x', '{"a":1}', x!.modRevision);
      // round 2: a compacts to what it saw in round 1 (seen + 0: the swap's own put came after)
      const first = await ca.round();
      expect(first).toBeGreaterThanOrEqual(seen - 1);
      expect(first).toBeLessThanOrEqual(seen);
      // b's swap fails again (a moved the clock): b never compacts while a does
      expect(await cb.round()).toBe(0);
      expect(await b.compactedRevision()).toBeGreaterThanOrEqual(first);
      // with a gone, b takes over on its next round
      expect(await cb.round()).toBeGreaterThan(first);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
