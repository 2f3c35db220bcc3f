// Runs the Storage contract suite against the watch cache over KVStorage over
// the SQLite KV (the path the server uses).
import { describeStorageSuite, testAttrs } from './suite.ts';
import { openSqliteKV } from '../../runtime/storage/sqlite/index.ts';
import { KVStorage } from '../../runtime/storage/kvstore/index.ts';
import { Cacher } from '../../runtime/storage/cacher/index.ts';

describeStorageSuite('Cacher(KVStorage(sqlite))', async () => {
  const kv = openSqliteKV({ path: ':memory:' });
  const cacher = new Cacher(new KVStorage(kv), {
    prefix: '/registry/core/configmaps/',
    attrs: testAttrs,
    freshnessTimeoutMs: 200,
  });
  await cacher.whenReady();
  return {
    storage: cacher,
    expire: async () => {
      await kv.compact(await kv.currentRevision());
      cacher.dropHistory();
    },
    close: async () => {
      await cacher.close();
      await kv.close();
    },
  };
});

// the same contract for a cache that lists on its first use (as the server's are)
describeStorageSuite('Cacher(KVStorage(sqlite)), primed on first use', async () => {
  const kv = openSqliteKV({ path: ':memory:' });
  const cacher = new Cacher(new KVStorage(kv), {
    prefix: '/registry/core/configmaps/',
    attrs: testAttrs,
    freshnessTimeoutMs: 200,
    primeOnFirstUse: true,
  });
  return {
    storage: cacher,
    expire: async () => {
      await kv.compact(await kv.currentRevision());
      cacher.dropHistory();
    },
    close: async () => {
      await cacher.close();
      await kv.close();
    },
  };
});
