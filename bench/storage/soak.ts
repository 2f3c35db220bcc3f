// Storage soak: the lease-renewal churn that made kine databases and WAL
// files grow without bound. 200 Leases are renewed every second for
// --minutes (default 10) with a history window of --window-seconds (default
// 300, the server default); the database and WAL sizes are printed at the
// start, every tenth of the run, and at the end: they must level off once
// the window is full. Before that, a history phase measures list latency of
// the 200 leases at 1k and at 100k historical revisions (reads of the current
// state must not scan history, so both are the same within noise).
// Usage: npx tsx bench/storage/soak.ts [--minutes 10] [--window-seconds 300]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteKV } from '../../runtime/storage/sqlite/index.ts';
import { KVStorage } from '../../runtime/storage/kvstore/index.ts';
import type { Obj } from '../../runtime/storage/interface.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const MINUTES = arg('minutes', 10);
const WINDOW_S = arg('window-seconds', 300);
const LEASES = 200;
const PREFIX = '/registry/coordination.k8s.io/leases/kube-node-lease/';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'specserver-soak-'));
const mb = (b: number) => (b / 1048576).toFixed(2) + ' MB';

const lease = (i: number): Obj => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: `node-${i}`, namespace: 'kube-node-lease', uid: `uid-${i}` },
  spec: { holderIdentity: `node-${i}`, leaseDurationSeconds: 40, renewTime: new Date().toISOString() },
});
const renew = (s: KVStorage, i: number) => s.guaranteedUpdate(`${PREFIX}node-${i}`, { tryUpdate: (cur) => ({ ...cur!, spec: { ...cur!.spec, renewTime: new Date().toISOString() } }) });

async function listLatency(s: KVStorage, rounds = 300): Promise<number> {
  const xs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = performance.now();
    const res = await s.list(PREFIX);
    xs.push(performance.now() - t);
    if (res.items.length !== LEASES) throw new Error(`expected ${LEASES} leases, got ${res.items.length}`);
  }
  xs.sort((a, b) => a - b);
  return xs[xs.length >> 1];
}

async function historyPhase(): Promise<void> {
  // Two stores with the same 200 leases: one with ~1k revisions of history,
  // one with ~100k; their list latencies are measured in alternation so
  // machine noise hits both alike.
  const open = async (name: string, rows: number) => {
    const kv = openSqliteKV({ path: path.join(tmp, name), historyWindowMs: 3_600_000 });
    const s = new KVStorage(kv);
    await Promise.all(Array.from({ length: LEASES }, (_, i) => s.create(`${PREFIX}node-${i}`, lease(i))));
    while (kv.stats().logRows < rows) await Promise.all(Array.from({ length: LEASES }, (_, i) => renew(s, i)));
    return { kv, s };
  };
  const small = await open('history-1k.db', 1_000);
  const big = await open('history-100k.db', 100_000);
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < 10; r++) {
    a.push(await listLatency(small.s, 50));
    b.push(await listLatency(big.s, 50));
  }
  const med = (xs: number[]) => xs.sort((x, y) => x - y)[xs.length >> 1];
  console.log(
    `list ${LEASES} leases (KVStorage, current state): ${med(a).toFixed(3)} ms at ${small.kv.stats().logRows} revisions; ` +
      `${med(b).toFixed(3)} ms at ${big.kv.stats().logRows} revisions (ratio ${(med(b) / med(a)).toFixed(2)})`,
  );
  await small.kv.close();
  await big.kv.close();
}

async function soakPhase(): Promise<void> {
  const file = path.join(tmp, 'specserver.db');
  const kv = openSqliteKV({ path: file, historyWindowMs: WINDOW_S * 1000, compactIntervalMs: Math.min(10_000, WINDOW_S * 200) });
  const s = new KVStorage(kv);
  await Promise.all(Array.from({ length: LEASES }, (_, i) => s.create(`${PREFIX}node-${i}`, lease(i))));
  const total = MINUTES * 60_000;
  const t0 = Date.now();
  const report = (label: string) => {
    const st = kv.stats();
    console.log(
      `${label.padEnd(6)} t=${String(Math.round((Date.now() - t0) / 1000)).padStart(4)}s rev=${st.revision} ` +
        `log rows=${st.logRows} db=${mb(st.dbBytes)} wal=${mb(st.walBytes)} pages=${st.pageCount} free=${st.freePages} ` +
        `compacted<=${st.compactedRevision}`,
    );
  };
  report('start');
  let nextReport = t0 + total / 10;
  let late = 0;
  for (let sec = 1; Date.now() - t0 < total; sec++) {
    const tick = t0 + sec * 1000;
    const t = performance.now();
    await Promise.all(Array.from({ length: LEASES }, (_, i) => renew(s, i)));
    if (performance.now() - t > 1000) late++;
    if (Date.now() >= nextReport) {
      report(Date.now() - t0 >= total / 2 - 1000 && Date.now() - t0 < total / 2 + 6000 ? 'middle' : '');
      nextReport += total / 10;
    }
    const wait = tick - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
  report('end');
  console.log(`renewal rounds over 1 s: ${late}`);
  await kv.close();
}

console.log(`soak: ${LEASES} leases renewed every second for ${MINUTES} min, history window ${WINDOW_S} s`);
await historyPhase();
await soakPhase();
fs.rmSync(tmp, { recursive: true, force: true });
