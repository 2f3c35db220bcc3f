// The baseline of bench/startup/run.ts: a bare Hono app on @hono/node-server,
// plain JavaScript run by node, answering /readyz over HTTPS with the same
// certificate files as the server under test (argv: key file, cert file,
// port). It prints `listening on <url>` as the server does, and with
// BENCH_TIMING=1 the time from process start to listening.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';

const t0 = performance.now();
const [{ Hono }, { serve }] = await Promise.all([import('hono'), import('@hono/node-server')]);
const app = new Hono();
app.get('/readyz', (c) => c.text('ok'));
const [keyFile, certFile] = process.argv.slice(2);
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', createServer, serverOptions: { key: readFileSync(keyFile), cert: readFileSync(certFile) } }, (info) => {
  if (process.env.BENCH_TIMING) console.log(`timing ${JSON.stringify({ startMs: performance.now() - t0, sinceProcessStartMs: performance.now() })}`);
  console.log(`listening on https://127.0.0.1:${info.port}`);
});
process.on('SIGTERM', () => process.exit(0));
