// Storage benchmark: prints, in one run, each storage figure next to a raw
// better-sqlite3 (or JSON.stringify) baseline measured on the same machine:
//   1. durable create rate (64 concurrent writers, group commit, synchronous=FULL)
//      / raw single-row commit rate with synchronous=FULL (and NORMAL shown too)
//   2. KV get rate / raw point-select rate
//   3. list of 10,000 ~1 KB objects from the watch cache, serialized
//      / JSON.stringify of the same 10,000 objects
//   4. write -> delivery at the last of 1,000 watchers (p50, p99)
// Usage: npx tsx bench/storage/throughput.ts [--seconds 2]
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteKV } from '../../runtime/storage/sqlite/index.ts';
import { KVStorage } from '../../runtime/storage/kvstore/index.ts';
import { Cacher } from '../../runtime/storage/cacher/index.ts';
import type { Obj, WatchEvent } from '../../runtime/storage/interface.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const SECONDS = arg('seconds', 2);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'specserver-bench-'));
const pad = (n: number) => 'v'.repeat(n);
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 0 });

function rawCommitRate(sync: 'FULL' | 'NORMAL'): number {
  const file = path.join(tmp, `raw-${sync}.db`);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${sync}`);
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)');
  const ins = db.prepare('INSERT INTO t (k, v) VALUES (?, ?)');
  const value = pad(256);
  let n = 0;
  const end = performance.now() + SECONDS * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) ins.run(`/k/${n++}`, value); // autocommit: one transaction per row
  }
  const rate = n / SECONDS;
  db.close();
  return rate;
}

async function durableCreateRate(): Promise<{ rate: number; perCommit: number }> {
  const kv = openSqliteKV({ path: path.join(tmp, 'kv-create.db') });
  const value = pad(256);
  let n = 0;
  let stop = false;
  const end = performance.now() + SECONDS * 1000;
  const writer = async (w: number) => {
    for (let i = 0; !stop; i++) {
      await kv.create(`/k/w${w}/${i}`, value);
      n++;
      if (performance.now() >= end) stop = true;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 64 }, (_, w) => writer(w)));
  const secs = (performance.now() - t0) / 1000;
  const st = kv.stats();
  await kv.close();
  return { rate: n / secs, perCommit: st.writes / st.commits };
}

async function getRates(): Promise<{ kvGet: number; rawGet: number }> {
  const file = path.join(tmp, 'kv-get.db');
  const kv = openSqliteKV({ path: file });
  const N = 10_000;
  const value = pad(1024);
  await Promise.all(Array.from({ length: N }, (_, i) => kv.create(`/k/${i}`, value)));
  let n = 0;
  let end = performance.now() + SECONDS * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) await kv.get(`/k/${(n++ * 7919) % N}`);
  }
  const kvGet = n / SECONDS;
  await kv.close();
  // Raw baseline: the same point select on a plain key/value table.
  const db = new Database(path.join(tmp, 'raw-get.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('cache_size = -65536'); // the same page cache the KV uses
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v TEXT)');
  const ins = db.prepare('INSERT INTO t VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < N; i++) ins.run(`/k/${i}`, value);
  })();
  const sel = db.prepare('SELECT v FROM t WHERE k = ?');
  n = 0;
  end = performance.now() + SECONDS * 1000;
  while (performance.now() < end) {
    for (let i = 0; i < 1000; i++) sel.get(`/k/${(n++ * 7919) % N}`);
  }
  db.close();
  return { kvGet, rawGet: n / SECONDS };
}

function makeObj(i: number): Obj {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `cm-${String(i).padStart(5, '0')}`,
      namespace: 'bench',
      uid: `00000000-0000-0000-0000-${String(i).padStart(12, '0')}`,
      labels: { app: 'bench', idx: String(i % 10) },
      creationTimestamp: '2026-01-01T00:00:00Z',
    },
    data: { payload: pad(820) },
  };
}

const attrs = (o: Obj) => ({ labels: o.metadata.labels ?? {}, fields: { 'metadata.name': o.metadata.name, 'metadata.namespace': o.metadata.namespace ?? '' } });

async function listRatio(): Promise<{ cacheMs: number; stringifyMs: number; bytes: number }> {
  const kv = openSqliteKV({ path: ':memory:' });
  const base = new KVStorage(kv);
  const N = 10_000;
  await Promise.all(Array.from({ length: N }, (_, i) => base.create(`/registry/core/configmaps/bench/cm-${String(i).padStart(5, '0')}`, makeObj(i))));
  const cacher = new Cacher(base, { prefix: '/registry/core/configmaps/', attrs });
  await cacher.whenReady();
  const same = (await cacher.list('/registry/core/configmaps/')).items;
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
  const cache: number[] = [];
  const raw: number[] = [];
  let bytes = 0;
  const viaCache = async () => {
    const t = performance.now();
    const res = await cacher.list('/registry/core/configmaps/', { resourceVersion: '0' });
    const body = JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: res.resourceVersion }, items: res.items });
    cache.push(performance.now() - t);
    bytes = body.length;
  };
  const alone = () => {
    const t = performance.now();
    JSON.stringify(same);
    raw.push(performance.now() - t);
  };
  for (let r = 0; r < 21; r++) {
    // Alternate the order so neither side always runs on a warmer heap.
    if (r % 2) {
      await viaCache();
      alone();
    } else {
      alone();
      await viaCache();
    }
  }
  await cacher.close();
  await kv.close();
  return { cacheMs: median(cache), stringifyMs: median(raw), bytes };
}

async function fanoutLatency(): Promise<{ p50: number; p99: number; writes: number }> {
  const kv = openSqliteKV({ path: path.join(tmp, 'fanout.db') });
  const base = new KVStorage(kv);
  const cacher = new Cacher(base, { prefix: '/registry/core/configmaps/', attrs, watchBuffer: 10_000 });
  await cacher.whenReady();
  const W = 1000;
  const received = new Array<number>(W).fill(0);
  const deliveredAt = new Map<number, number[]>();
  const streams = [];
  for (let w = 0; w < W; w++) {
    const s = await cacher.watch('/registry/core/configmaps/', { recursive: true, resourceVersion: String(await kv.currentRevision()) });
    streams.push(s);
    void (async () => {
      for await (const ev of s as AsyncIterable<WatchEvent>) {
        // A watcher serializes what it sends; the shared per-format cache makes that once per event.
        let bytes = ev.encoded?.get('json');
        if (!bytes) {
          bytes = Buffer.from(JSON.stringify({ type: ev.type, object: ev.object }));
          ev.encoded?.set('json', bytes);
        }
        const seq = Number(ev.object.data.seq);
        received[w] = seq;
        const arr = deliveredAt.get(seq)!;
        arr.push(performance.now());
      }
    })();
  }
  const lat: number[] = [];
  const writes = 200;
  for (let i = 0; i < writes; i++) {
    deliveredAt.set(i, []);
    const o = makeObj(i);
    o.data = { seq: String(i), payload: pad(200) };
    const t0 = performance.now();
    await base.create(`/registry/core/configmaps/bench/o${i}`, o);
    while (deliveredAt.get(i)!.length < W) await new Promise((r) => setImmediate(r));
    lat.push(Math.max(...deliveredAt.get(i)!) - t0);
    deliveredAt.delete(i);
  }
  for (const s of streams) s.stop();
  await cacher.close();
  await kv.close();
  lat.sort((a, b) => a - b);
  return { p50: lat[Math.floor(lat.length * 0.5)], p99: lat[Math.floor(lat.length * 0.99)], writes };
}

async function main(): Promise<void> {
  console.log(`storage bench (${os.cpus().length} cpus, ${SECONDS}s per rate, node ${process.version})`);
  const rawFull = rawCommitRate('FULL');
  const rawNormal = rawCommitRate('NORMAL');
  console.log(`raw single-row commit  synchronous=FULL:   ${fmt(rawFull)}/s`);
  console.log(`raw single-row commit  synchronous=NORMAL: ${fmt(rawNormal)}/s`);
  const c = await durableCreateRate();
  console.log(`durable KV create, 64 writers, FULL:      ${fmt(c.rate)}/s (${c.perCommit.toFixed(1)} writes per commit)`);
  console.log(`  ratio create / raw FULL commit:          ${(c.rate / rawFull).toFixed(2)}  (aim >= 1.0)`);
  const g = await getRates();
  console.log(`KV get (1 KB values, 10k keys):           ${fmt(g.kvGet)}/s; raw point select ${fmt(g.rawGet)}/s`);
  console.log(`  ratio get / raw select:                  ${(g.kvGet / g.rawGet).toFixed(2)}`);
  const l = await listRatio();
  console.log(`list 10,000 x ~1 KB from cache + serialize: ${l.cacheMs.toFixed(1)} ms (${(l.bytes / 1e6).toFixed(1)} MB); JSON.stringify alone ${l.stringifyMs.toFixed(1)} ms`);
  console.log(`  ratio cache list / JSON.stringify:       ${(l.cacheMs / l.stringifyMs).toFixed(2)}  (aim <= 1.5)`);
  const f = await fanoutLatency();
  console.log(`write -> last of 1,000 watchers (${f.writes} writes): p50 ${f.p50.toFixed(2)} ms, p99 ${f.p99.toFixed(2)} ms`);
  fs.rmSync(tmp, { recursive: true, force: true });
}

await main();
