// specserver on etcd over HTTP against etcd itself, with SQLite beside it:
// creates/s, gets/s and a LIST of 10,000 objects through a server process on
// a throw-away etcd member (etcd on PATH or $ETCD_BIN) and through one on
// SQLite, each against etcd's own rates measured in the same rounds from this
// process with the KV client the server uses for its ranges and
// transactions, opened as the server opens it (openEtcdKV: the server's own
// gRPC client over node:http2, runtime/storage/etcd/kv-client.ts; the calls go
// to that client directly, not through the store): raw puts of the bytes the
// server stored for a created object, raw ranges of one such key, a raw range
// of the 10,000 keys the server's list reads. Rounds interleave the three
// sides (etcd-backed server, SQLite-backed server, raw etcd), medians.
// - creates: autocannon POSTs of ConfigMaps with unique names, 16 connections,
//   against 16 raw puts in flight; aim ≥ 0.7 of raw puts.
// - gets: autocannon GETs of one object with resourceVersion=0 (served from
//   the watch cache), 16 connections, against 16 raw ranges of one key in
//   flight; aim: faster than etcd (ratio ≥ 1).
// - LIST: the 10,000 ConfigMaps of ~1 KB of one namespace with
//   resourceVersion=0 (from the watch cache), JSON, time to the last byte on a
//   kept-alive connection, against the raw range of the same keys decoded by
//   the client; aim: faster than etcd (ratio ≤ 1). The list is read with the
//   lean client (bench/support/lean-get.ts: a plain socket, the body parsed
//   after the clock), not node's HTTP client: on two cores at load 5 to 6
//   that one spent about 28 ms of CPU receiving the 11 MB, as much as the
//   server spent sending it (20 to 34 ms), and the list's time was partly the
//   client's (interleaved, SQLite: medians 1.2 to 1.3× the lean client's). The same list without
//   resourceVersion (a read that must be current: etcd 3.4 before 3.4.31 has
//   no reliable progress requests, so it goes to etcd) goes in the details.
// Usage: npx tsx bench/storage/backends.ts [--quick]   (or npm run bench -- --only etcd)

import { join } from 'node:path';
import { startEtcd } from '../../test/support/etcd.ts';
import { openEtcdKV } from '../../runtime/storage/etcd/index.ts';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { cannon, createMany, postJSON } from '../support/http.ts';
import { LeanConnection } from '../support/lean-get.ts';
import { configMapOf1KB } from '../support/objects.ts';
import type { BenchProcess } from '../support/process.ts';
import { spawnOurs } from '../support/servers.ts';
import { load1, median } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

const CONCURRENCY = 16;
const LIST_COUNT = 10_000;
const LIST_NS = 'bench-list';

const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { key: 'value'.repeat(20) } });

/** Operations per second of `CONCURRENCY` loops of fn for `seconds`. */
async function rawRate(seconds: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  let n = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) await fn(n++);
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}

interface Side {
  name: string;
  server: BenchProcess;
  /** The kept-alive connection the lists are timed on. */
  conn: LeanConnection;
}

const ratioText = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const rounds = quick ? 3 : 5;
  const seconds = quick ? 2 : 4;
  const etcd = await startEtcd({ quotaBytes: 4 * 1024 * 1024 * 1024 });
  // the KV client the server uses, opened as the server opens it (its HTTP/2 sessions, codec and deadlines)
  const kv = await openEtcdKV({ endpoints: [etcd.url] });
  const client = kv.kv;
  const sides: Side[] = [];
  try {
    const onEtcd = await spawnOurs(join(scratch, 'etcd'), ['--etcd-servers', etcd.url]);
    sides.push({ name: 'etcd', server: onEtcd, conn: new LeanConnection(new URL(onEtcd.url)) });
    const onSqlite = await spawnOurs(join(scratch, 'sqlite'));
    sides.push({ name: 'SQLite', server: onSqlite, conn: new LeanConnection(new URL(onSqlite.url)) });
    const [etcdSide, sqliteSide] = sides;

    for (const s of sides) {
      await postJSON(`${s.server.url}/api/v1/namespaces`, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: LIST_NS } });
      log(`${s.name}: creating ${LIST_COUNT} ConfigMaps`);
      await createMany(`${s.server.url}/api/v1/namespaces/${LIST_NS}/configmaps`, LIST_COUNT, configMapOf1KB);
    }
    // the bytes the server stored for one object: what raw puts write
    const sample = await client.range({ key: Buffer.from(`/registry/configmaps/${LIST_NS}/${configMapOf1KB(0).metadata.name}`) });
    const stored = sample.kvs[0]?.value;
    if (!stored) throw new Error('the etcd-backed server stored no object where kube-apiserver would');
    const listKey = Buffer.from(`/registry/configmaps/${LIST_NS}/`);
    const listEnd = Buffer.from(`/registry/configmaps/${LIST_NS}0`);
    const oneKey = Buffer.from(`/registry/configmaps/${LIST_NS}/${configMapOf1KB(1).metadata.name}`);
    log(`stored object ${stored.length} bytes; etcd ${kv.version}`);

    let n = 0;
    const creates = (s: Side) => async () => {
      const r = await cannon({
        url: `${s.server.url}/api/v1/namespaces/default/configmaps`,
        connections: CONCURRENCY,
        duration: seconds,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, body: JSON.stringify(configMap(`c-${n++}`)) }) }],
      });
      return r.requests.average;
    };
    const gets = (s: Side) => async () => {
      const r = await cannon({ url: `${s.server.url}/api/v1/namespaces/${LIST_NS}/configmaps/${configMapOf1KB(1).metadata.name}?resourceVersion=0`, connections: CONCURRENCY, duration: seconds });
      return r.requests.average;
    };
    const list = (s: Side, query: string) => async () => {
      const r = await s.conn.get(`/api/v1/namespaces/${LIST_NS}/configmaps${query}`);
      if (r.status !== 200) throw new Error(`LIST on ${s.name}: ${r.status} ${r.body.toString().slice(0, 300)}`);
      const items = (r.body.toString().match(/"name":"cm-\d{6}"/g) ?? []).length;
      if (items !== LIST_COUNT) throw new Error(`LIST on ${s.name} returned ${items} items, not ${LIST_COUNT}`);
      return r.ms;
    };
    let round = 0;
    const rawPuts = async () => {
      round++;
      return rawRate(seconds, (i) => client.put({ key: Buffer.from(`/bench-raw/${round}/${i}`), value: stored }));
    };
    const rawGets = () => rawRate(seconds, () => client.range({ key: oneKey }));
    const rawList = async () => {
      const t0 = performance.now();
      const r = await client.range({ key: listKey, range_end: listEnd });
      const ms = performance.now() - t0;
      if (r.kvs.length !== LIST_COUNT) throw new Error(`raw range returned ${r.kvs.length} keys, not ${LIST_COUNT}`);
      return ms;
    };

    // warm-up, not counted
    for (const s of sides) {
      await creates(s)();
      await gets(s)();
      await list(s, '?resourceVersion=0')();
    }
    await rawPuts();
    await rawGets();
    await rawList();

    const m = { rawPut: [] as number[], rawGet: [] as number[], rawList: [] as number[] };
    const per = new Map(sides.map((s) => [s, { creates: [] as number[], gets: [] as number[], list: [] as number[], listCurrent: [] as number[] }]));
    for (let r = 0; r < rounds; r++) {
      m.rawPut.push(await rawPuts());
      for (const s of sides) per.get(s)!.creates.push(await creates(s)());
      m.rawGet.push(await rawGets());
      for (const s of sides) per.get(s)!.gets.push(await gets(s)());
      m.rawList.push(await rawList());
      for (const s of sides) {
        per.get(s)!.list.push(await list(s, '?resourceVersion=0')());
        per.get(s)!.listCurrent.push(await list(s, '')());
      }
      log(
        `round ${r + 1}: raw put ${m.rawPut[r].toFixed(0)}/s, get ${m.rawGet[r].toFixed(0)}/s, range ${m.rawList[r].toFixed(0)} ms; ${sides.map((s) => `${s.name} ${per.get(s)!.creates[r].toFixed(0)}/s, ${per.get(s)!.gets[r].toFixed(0)}/s, ${per.get(s)!.list[r].toFixed(0)} ms`).join('; ')}`,
      );
    }

    const rows: Row[] = [];
    const spread = (s: Side, k: 'creates' | 'gets' | 'list') => `${s.name} ${ratioText(per.get(s)![k])}`;
    for (const s of [etcdSide, sqliteSide]) {
      const p = per.get(s)!;
      rows.push({
        figure: `creates over HTTP, on ${s.name}, ${CONCURRENCY} conns`,
        unit: '/s',
        ours: median(p.creates),
        baseline: median(m.rawPut),
        baselineIs: `raw etcd puts of the ${stored.length}-byte stored object, ${CONCURRENCY} in flight, the server's KV client, same rounds`,
        aim: { of: 'ratio', op: '>=', value: 0.7 },
        load: load1(),
        detail: `medians of ${rounds} interleaved ${seconds}s runs; ${spread(s, 'creates')}; raw ${ratioText(m.rawPut)}`,
      });
    }
    for (const s of [etcdSide, sqliteSide]) {
      const p = per.get(s)!;
      rows.push({
        figure: `GET rv=0 over HTTP, on ${s.name}, ${CONCURRENCY} conns`,
        unit: '/s',
        ours: median(p.gets),
        baseline: median(m.rawGet),
        baselineIs: `raw etcd ranges of one key, ${CONCURRENCY} in flight, the server's KV client, same rounds`,
        aim: { of: 'ratio', op: '>=', value: 1 },
        load: load1(),
        detail: `watch cache; medians of ${rounds} interleaved ${seconds}s runs; ${spread(s, 'gets')}; raw ${ratioText(m.rawGet)}`,
      });
    }
    for (const s of [etcdSide, sqliteSide]) {
      const p = per.get(s)!;
      rows.push({
        figure: `LIST ${LIST_COUNT.toLocaleString('en')} rv=0 over HTTP, on ${s.name}`,
        unit: 'ms',
        ours: median(p.list),
        baseline: median(m.rawList),
        baselineIs: `raw etcd range of the same ${LIST_COUNT} keys, decoded by the server's KV client, same rounds`,
        aim: { of: 'ratio', op: '<=', value: 1 },
        load: load1(),
        detail: `watch cache, JSON, to the last byte on a kept-alive connection; medians of ${rounds} interleaved runs; ${spread(s, 'list')} ms; raw ${ratioText(m.rawList)} ms; without resourceVersion (a read that must be current) ${ratioText(p.listCurrent)} ms, median ${median(p.listCurrent).toFixed(0)}`,
      });
    }
    return rows;
  } finally {
    for (const s of sides) {
      s.conn.close();
      await s.server.stop();
    }
    await kv.close();
    await etcd.stop();
  }
}

export const figure: Figure = { name: 'etcd', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
