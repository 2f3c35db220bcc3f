// One in-process start, timed inside a fresh node process: `ours <entry>`
// imports the package entry and calls startServer() with no options (as an
// embedder or a test does); `hono` imports Hono and its node adapter and
// serves one route. Prints {"importMs", "startMs"} as one JSON line, stops
// and exits.
// Plain JavaScript, so it runs the same with or without a TypeScript loader.
import { pathToFileURL } from 'node:url';

const [which, entry] = process.argv.slice(2);
const t0 = performance.now();
if (which === 'ours') {
  const { startServer } = await import(pathToFileURL(entry).href);
  const t1 = performance.now();
  const server = await startServer();
  const t2 = performance.now();
  console.log(JSON.stringify({ importMs: t1 - t0, startMs: t2 - t1 }));
  await server.stop();
} else {
  const [{ Hono }, { serve }] = await Promise.all([import('hono'), import('@hono/node-server')]);
  const t1 = performance.now();
  const app = new Hono();
  app.get('/readyz', (c) => c.text('ok'));
  const server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const t2 = performance.now();
  console.log(JSON.stringify({ importMs: t1 - t0, startMs: t2 - t1 }));
  server.close();
}
process.exit(0);
