// bench/cache/heap: where the server's memory goes per 10,000 ConfigMaps of
// about 1.2 KB, in-process (node --expose-gc): V8 heap and external memory
// after a full GC at every 10,000 objects created over app.request(), then
// after the watch cache forgets its event history (what the ring held), and
// after a full LIST. The server is the compiled package (dist/index.js).
// Usage: node --expose-gc --import tsx bench/cache/heap.ts [--objects N]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importLibrary } from '../support/servers.ts';

const argv = process.argv.slice(2);
const N = Number(argv[argv.indexOf('--objects') + 1]) || 30_000;
const gc = (globalThis as { gc?: () => void }).gc;

function mem(): { heap: number; external: number } {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return { heap: m.heapUsed / 1048576, external: m.external / 1048576 };
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with node --expose-gc');
  const dir = mkdtempSync(join(tmpdir(), 'bench-heap-'));
  const { startServer } = await importLibrary();
  const s = await startServer({ dataDir: dir, authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
  const LIST = '/api/v1/namespaces/default/configmaps';
  let last = mem();
  console.log(`idle: heap ${last.heap.toFixed(1)} MB, external ${last.external.toFixed(1)} MB`);
  for (let i = 0; i < N; i++) {
    const r = await s.app.request(LIST, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { app: 'bench', n: String(i % 10) } }, data: { payload: 'x'.repeat(700) } }),
    });
    if (r.status !== 201) throw new Error(`create: ${r.status}`);
    if ((i + 1) % 10_000 === 0) {
      const m = mem();
      console.log(`${i + 1} objects: heap ${m.heap.toFixed(1)} MB (+${(m.heap - last.heap).toFixed(1)} per 10k), external ${m.external.toFixed(1)} MB`);
      last = m;
    }
  }
  // the body is dropped before measuring: what stays is the server's
  const raw = await (async () => {
    const body = await (await s.app.request(LIST)).text();
    return (JSON.parse(body) as { items: unknown[] }).items.reduce<number>((sum, o) => sum + Buffer.byteLength(JSON.stringify(o)), 0) / 1048576;
  })();
  const listed = mem();
  console.log(`raw JSON of the objects: ${raw.toFixed(1)} MB; after a full list: heap ${listed.heap.toFixed(1)} MB`);
  const caches = (s.storage as unknown as { storageFor(prefix: string, attrs: unknown): { dropHistory?: () => void } }).storageFor('/registry/core/configmaps/', () => ({}));
  caches.dropHistory?.();
  const dropped = mem();
  console.log(`after the cache forgets its event history: heap ${dropped.heap.toFixed(1)} MB (the ring held ${(listed.heap - dropped.heap).toFixed(1)} MB)`);
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
