// One sample of "in-process import + first startServer()" for
// bench/startup/run.ts, in a fresh node process: imports the package's
// compiled entry (dist/index.js), starts an in-memory server, prints the
// times as JSON and stops. `hono` as argv[2]: the baseline, Hono and
// @hono/node-server imported and serving on a free port.
const t0 = performance.now();
if (process.argv[2] === 'hono') {
  const [{ Hono }, { serve }] = await Promise.all([import('hono'), import('@hono/node-server')]);
  const t1 = performance.now();
  const app = new Hono();
  app.get('/readyz', (c) => c.text('ok'));
  const server = await new Promise((res) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => res(s));
  });
  const t2 = performance.now();
  console.log(JSON.stringify({ importMs: t1 - t0, startMs: t2 - t1, totalMs: t2 - t0 }));
  server.close();
} else {
  const { startServer } = await import(new URL('../../dist/index.js', import.meta.url).href);
  const t1 = performance.now();
  const s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  const t2 = performance.now();
  console.log(JSON.stringify({ importMs: t1 - t0, startMs: t2 - t1, totalMs: t2 - t0 }));
  await s.stop();
}
