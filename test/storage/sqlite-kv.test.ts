// Runs the KV contract suite against the SQLite revision log, in memory and on
// disk.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeKVSuite } from './suite.ts';
import { openSqliteKV } from '../../runtime/storage/sqlite/index.ts';

describeKVSuite('sqlite :memory:', async () => {
  const kv = openSqliteKV({ path: ':memory:' });
  return { kv, close: () => kv.close() };
});

describeKVSuite('sqlite file (WAL, synchronous=FULL)', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specserver-kv-'));
  const kv = openSqliteKV({ path: path.join(dir, 'specserver.db') });
  return {
    kv,
    close: async () => {
      await kv.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
