// Storage on etcd against etcd itself, with the same client in the same run:
// creates/s through the object layer (KVStorage over the etcd KV: values as
// the server stores them, protobuf for a ConfigMap, or JSON text with
// --json-values; a create transaction) against raw etcd puts of the JSON bytes, and
// gets/s through the watch cache (Cacher over it) against raw etcd ranges.
// Rounds alternate (raw, ours, raw, ours, ...); medians of the rounds and
// their ratio are printed with the load average. A throw-away etcd member is
// started (etcd on PATH or $ETCD_BIN). Not through HTTP: the storage stack only.
// Usage: npx tsx bench/storage/etcd.ts [--rounds 5] [--ops 2000] [--concurrency 16] [--json-values]
import os from 'node:os';
import { startEtcd } from '../../test/support/etcd.ts';
import { openEtcdKV, protobufValues } from '../../runtime/storage/etcd/index.ts';
import { loadKubeProtobuf } from '../../runtime/codec/protobuf/index.ts';
import { KVStorage } from '../../runtime/storage/kvstore/index.ts';
import { Cacher } from '../../runtime/storage/cacher/index.ts';
import type { Obj } from '../../runtime/storage/interface.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const ROUNDS = arg('rounds', 5);
const OPS = arg('ops', 2000);
const CONC = arg('concurrency', 16);
const P = '/registry/core/configmaps/';

const cm = (name: string): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'bench' }, data: { k: 'v'.repeat(200) } });

/** ops calls of fn(i) with `CONC` in flight; returns operations per second. */
async function rate(fn: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: CONC }, async () => {
      while (next < OPS) await fn(next++);
    }),
  );
  return OPS / ((performance.now() - t) / 1000);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function main(): Promise<void> {
  const etcd = await startEtcd({ quotaBytes: 2 * 1024 * 1024 * 1024 });
  const values = process.argv.includes('--json-values') ? undefined : protobufValues(await loadKubeProtobuf());
  const kv = await openEtcdKV({ endpoints: [etcd.url], values });
  try {
    const storage = new KVStorage(kv);
    const cache = new Cacher(new KVStorage(kv), { prefix: P, attrs: (o) => ({ labels: o.metadata?.labels ?? {}, fields: {} }) });
    await cache.whenReady();
    const value = Buffer.from(JSON.stringify(cm('x')));
    const raw = { creates: [] as number[], gets: [] as number[] };
    const ours = { creates: [] as number[], gets: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      raw.creates.push(await rate((i) => kv.kv.put({ key: Buffer.from(`/raw/${r}/${i}`), value })));
      ours.creates.push(await rate((i) => storage.create(`${P}bench/r${r}-${i}`, cm(`r${r}-${i}`))));
      raw.gets.push(await rate((i) => kv.kv.range({ key: Buffer.from(`/raw/${r}/${i}`) })));
      ours.gets.push(await rate((i) => cache.get(`${P}bench/r${r}-${i}`, { resourceVersion: '0' })));
    }
    const load = os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(', ');
    const line = (what: string, a: number[], b: number[]) =>
      `${what.padEnd(8)} raw etcd ${median(a).toFixed(0).padStart(7)}/s   specserver ${median(b).toFixed(0).padStart(7)}/s   ratio ${(median(b) / median(a)).toFixed(2)}`;
    console.log(`values ${values ? 'protobuf' : 'JSON'}; etcd ${kv.version}, ${ROUNDS} interleaved rounds of ${OPS} ops, ${CONC} in flight; load average ${load}`);
    console.log(line('creates', raw.creates, ours.creates));
    console.log(line('gets', raw.gets, ours.gets) + '  (specserver: watch cache, resourceVersion=0)');
    await cache.close();
  } finally {
    await kv.close();
    await etcd.stop();
  }
}

await main();
