// Runs the Storage contract suite against KVStorage over the SQLite KV (the
// uncached path).
import { describeStorageSuite } from './suite.ts';
import { openSqliteKV } from '../../runtime/storage/sqlite/index.ts';
import { KVStorage } from '../../runtime/storage/kvstore/index.ts';

describeStorageSuite('KVStorage(sqlite)', async () => {
  const kv = openSqliteKV({ path: ':memory:' });
  const storage = new KVStorage(kv);
  return {
    storage,
    expire: async () => kv.compact(await kv.currentRevision()),
    close: () => kv.close(),
  };
});
