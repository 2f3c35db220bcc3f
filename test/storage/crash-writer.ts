// Child process of the crash test: opens the SQLite KV in the directory given
// as argv[2] and writes in a storm with 64 concurrent writers (creates of new
// keys and updates of one counter key per writer), printing every
// acknowledged write on stdout as `ack <key> <value>` until it is killed.
import { openSqliteKV } from '../../runtime/storage/sqlite/index.ts';
import path from 'node:path';

const dir = process.argv[2];
const kv = openSqliteKV({ path: path.join(dir, 'specserver.db') });
const pad = 'x'.repeat(512);
let out = '';
const flushOut = () => {
  if (out) {
    process.stdout.write(out);
    out = '';
  }
};
setInterval(flushOut, 2).unref();

async function writer(w: number): Promise<void> {
  const counterKey = `/registry/crash/counters/w${w}`;
  let counter = await kv.create(counterKey, JSON.stringify({ w, seq: 0, pad }));
  out += `ack ${counterKey} 0\n`;
  for (let i = 0; ; i++) {
    const key = `/registry/crash/items/w${w}-${i}`;
    await kv.create(key, JSON.stringify({ w, i, pad }));
    out += `ack ${key} ${i}\n`;
    counter = await kv.update(counterKey, JSON.stringify({ w, seq: i + 1, pad }), counter.modRevision);
    out += `ack ${counterKey} ${i + 1}\n`;
    // stdout is written from the event loop; an ack line leaves only after the write committed.
    if (i % 50 === 0) flushOut();
  }
}

for (let w = 0; w < 64; w++) void writer(w);
