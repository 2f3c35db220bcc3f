// One memory measurement of the crd-memory figure, in a process of its own
// (node --expose-gc): starts the compiled server in this process, creates the
// objects of a JSON file through app.request() (CRDs, then a custom resource
// of each once it is served; or plain objects), and prints the RSS and heap
// growth, after full collections, as JSON.
// Usage: node --expose-gc bench/crd/memory-child.mjs DIST_INDEX DATA_DIR OBJECTS.json

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [entry, dataDir, objectsFile] = process.argv.slice(2);
const { startServer } = await import(pathToFileURL(entry).href);
const { items } = JSON.parse(readFileSync(objectsFile, 'utf8'));

const settle = async () => {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 20));
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed };
};

const s = await startServer({ dataDir, authorizationMode: ['AlwaysAllow'] });
const call = async (method, path, body) => {
  const res = await s.app.request(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
};
// one object of each kind first, so that what loads on first use (the CRD compiler, the worker) is in the baseline
for (const warm of [items[0].warm]) {
  if (warm) for (const step of warm) if ((await call('POST', step.path, step.body)) !== 201) throw new Error(`warm-up ${step.path}`);
}
const before = await settle();
for (const item of items) {
  const st = await call('POST', item.path, item.body);
  if (st !== 201) throw new Error(`${item.path}: ${st}`);
}
for (const item of items) {
  if (!item.then) continue;
  for (let polls = 0; (await call('POST', item.then.path, item.then.body)) !== 201; polls++) {
    if (polls > 20000) throw new Error(`${item.then.path} never served`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
const after = await settle();
await s.stop();
process.stdout.write(JSON.stringify({ count: items.length, rss: after.rss - before.rss, heap: after.heap - before.heap }));
process.exit(0);
