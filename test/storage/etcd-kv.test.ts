// Runs the KV contract suite against etcd (a throw-away member started from
// the etcd binary; skipped with a message where there is none), and the
// Storage contract suite for KVStorage(etcd) and Cacher(KVStorage(etcd)).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeKVSuite, describeStorageSuite, testAttrs } from './suite.ts';
import { ETCD_SKIP_MESSAGE, etcdAvailable, startEtcd, type TestEtcd } from '../support/etcd.ts';
import { COMPACT_REV_KEY, openEtcdKV } from '../../runtime/storage/etcd/index.ts';
import { CompactedError } from '../../runtime/storage/interface.ts';
import { CommitFailedError } from '../../runtime/storage/errors.ts';
import { KVStorage } from '../../runtime/storage/kvstore/index.ts';
import { Cacher } from '../../runtime/storage/cacher/index.ts';

let etcd: TestEtcd | undefined;

/** Waits until a cache has seen the store's current revision (its etcd watch may lag a write). */
async function caughtUp(cacher: Cacher, kv: { currentRevision(): Promise<number> }): Promise<void> {
  await cacher.whenReady();
  const rev = await kv.currentRevision();
  const end = Date.now() + 10_000;
  while (cacher.cacheRevision < rev && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
}
let n = 0;
// each test gets its own key prefix in the one member the file starts
const openKV = async () => openEtcdKV({ endpoints: [etcd!.url], prefix: `/t${++n}`, requestTimeoutMs: 10_000 });

describe.skipIf(!etcdAvailable())('etcd backend', () => {
  beforeAll(async () => {
    etcd = await startEtcd();
  });
  afterAll(async () => {
    await etcd?.stop();
  });

  describeKVSuite('etcd', async () => {
    const kv = await openKV();
    return { kv, close: () => kv.close() };
  });

  describeStorageSuite('KVStorage(etcd)', async () => {
    const kv = await openKV();
    return {
      storage: new KVStorage(kv),
      expire: async () => kv.compact(await kv.currentRevision()),
      close: () => kv.close(),
    };
  });

  describeStorageSuite('Cacher(KVStorage(etcd))', async () => {
    const kv = await openKV();
    const cacher = new Cacher(new KVStorage(kv), { prefix: '/registry/core/configmaps/', attrs: testAttrs, freshnessTimeoutMs: 200 });
    await cacher.whenReady();
    return {
      storage: cacher,
      // a compaction that overtakes the cache's own watch while it starts ends that watch (the cache relists), as in kube-apiserver
      expire: async () => {
        await caughtUp(cacher, kv);
        await kv.compact(await kv.currentRevision());
        cacher.dropHistory();
      },
      // the cache follows an etcd watch, which may lag an acknowledged write
      settle: () => caughtUp(cacher, kv),
      close: async () => {
        await cacher.close();
        await kv.close();
      },
    };
  });

  // as the server's caches are: listed on their first use, the store's revision moved on by other prefixes
  describeStorageSuite('Cacher(KVStorage(etcd)), primed on first use', async () => {
    const kv = await openKV();
    await kv.create('/registry/core/secrets/ns/other', '{}');
    const cacher = new Cacher(new KVStorage(kv), { prefix: '/registry/core/configmaps/', attrs: testAttrs, freshnessTimeoutMs: 200, primeOnFirstUse: true });
    return {
      storage: cacher,
      // a compaction that overtakes the cache's own watch while it starts ends that watch (the cache relists), as in kube-apiserver
      expire: async () => {
        await caughtUp(cacher, kv);
        await kv.compact(await kv.currentRevision());
        cacher.dropHistory();
      },
      settle: () => caughtUp(cacher, kv),
      close: async () => {
        await cacher.close();
        await kv.close();
      },
    };
  });
});

if (!etcdAvailable()) console.warn(ETCD_SKIP_MESSAGE);

describe.skipIf(!etcdAvailable())('etcd backend: what the shared suites cannot show', () => {
  let own: TestEtcd;
  beforeAll(async () => {
    own = await startEtcd();
  });
  afterAll(async () => {
    await own?.stop();
  });

  it('putWithTTL: a key under the prefix that goes once its TTL passed without a rewrite (the master leases)', async () => {
    const kv = await openEtcdKV({ endpoints: [own.url], prefix: '/registry' });
    try {
      await kv.putWithTTL('/masterleases/192.0.2.1', 'one', 1);
      await kv.putWithTTL('/masterleases/192.0.2.2', 'two', 3600);
      expect((await kv.list('/masterleases/')).kvs.map((e) => [e.key, e.value])).toEqual([
        ['/masterleases/192.0.2.1', 'one'],
        ['/masterleases/192.0.2.2', 'two'],
      ]);
      // a rewrite keeps it with a new lease
      await kv.putWithTTL('/masterleases/192.0.2.2', 'two again', 3600);
      expect((await kv.get('/masterleases/192.0.2.2'))?.value).toBe('two again');
      const end = Date.now() + 30_000;
      while ((await kv.get('/masterleases/192.0.2.1')) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      expect(await kv.get('/masterleases/192.0.2.1')).toBeNull();
      expect((await kv.list('/masterleases/')).kvs.map((e) => e.key)).toEqual(['/masterleases/192.0.2.2']);
      // the other tests of this etcd see only their own keys
      await kv.delete('/masterleases/192.0.2.2');
    } finally {
      await kv.close();
    }
  });

  it('lays keys out as kube-apiserver does and reads the compaction another process made', async () => {
    const a = await openEtcdKV({ endpoints: [own.url], prefix: '/registry' });
    const b = await openEtcdKV({ endpoints: [own.url], prefix: '/registry' });
    try {
      await a.create('/registry/core/services/ns/s', '{}');
      await a.create('/registry/apps/deployments/ns/d', '{}');
      const raw = await a.client.getAll().prefix('/registry/').keys();
      expect(raw.sort()).toEqual(['/registry/deployments/ns/d', '/registry/services/specs/ns/s']);
      // b compacts the way the compaction loop does: compact_rev_key first, then etcd's compaction
      const rev = await b.currentRevision();
      await b.client.put(COMPACT_REV_KEY).value(String(rev));
      await b.compact(rev);
      expect(await a.compactedRevision()).toBe(rev);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('ends a watch whose start etcd finds compacted with a CompactedError, and KVStorage with an ERROR 410', async () => {
    const a = await openEtcdKV({ endpoints: [own.url], prefix: '/c1' });
    const b = await openEtcdKV({ endpoints: [own.url], prefix: '/c1' });
    try {
      const x = await a.create('/x/1', 'v');
      await a.update('/x/1', 'v2', x.modRevision);
      await a.create('/x/2', 'v');
      // compacted by b: a does not know it, so the refusal comes from etcd
      await b.compact(await b.currentRevision());
      const err = await new Promise<Error>((resolve) => a.watch('/x/', { afterRevision: x.modRevision - 1, onEvents: () => {}, onError: resolve }));
      expect(err).toBeInstanceOf(CompactedError);
      expect(a.knownCompactedRevision()).toBe(await b.currentRevision());
      const c = await openEtcdKV({ endpoints: [own.url], prefix: '/c1' });
      try {
        // c learnt nothing yet of b's compaction (no compact_rev_key)
        const stream = await new KVStorage(c).watch('/x/', { recursive: true, resourceVersion: String(x.modRevision) });
        const events = [];
        for await (const ev of stream) events.push(ev);
        expect(events.map((e) => [e.type, e.object.code, e.object.reason])).toEqual([['ERROR', 410, 'Expired']]);
      } finally {
        await c.close();
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("reads a range larger than gRPC's default 4 MiB message limit (an unpaged list of a big resource)", async () => {
    const kv = await openEtcdKV({ endpoints: [own.url], prefix: '/big' });
    try {
      const value = 'x'.repeat(1024 * 1024);
      for (let i = 0; i < 6; i++) await kv.create(`/b/${i}`, value);
      const all = await kv.list('/b/');
      expect(all.kvs.length).toBe(6);
      expect(all.kvs.every((x) => x.value === value)).toBe(true);
    } finally {
      await kv.close();
    }
  });

  it('fails calls with a CommitFailedError while etcd is down, and a watch goes on after it is back', async () => {
    const kv = await openEtcdKV({ endpoints: [own.url], prefix: '/down', requestTimeoutMs: 3000 });
    try {
      const got: string[] = [];
      const w = kv.watch('/w/', { afterRevision: await kv.currentRevision(), onEvents: (evs) => got.push(...evs.map((e) => e.kv.value)) });
      await kv.create('/w/a', 'before');
      await own.kill();
      const err = await kv.create('/w/b', 'during').catch((e) => e);
      expect(err).toBeInstanceOf(CommitFailedError);
      expect(err.code).toBe(500);
      expect(await kv.health(500)).toBeInstanceOf(Error);
      await own.restart();
      await kv.create('/w/c', 'after');
      expect(await kv.health(2000)).toBeNull();
      const end = Date.now() + 20_000;
      while (got.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      w.close();
      expect(got).toEqual(['before', 'after']);
    } finally {
      await kv.close();
    }
  });
});
