// Baseline server: bare Hono on @hono/node-server answering every GET with
// fixed bytes read from files at start (argv: the JSON file and optionally
// the protobuf file, both fetched from our server by the bench); a request
// whose Accept names protobuf gets the protobuf bytes, with the headers our
// server sends with them: Cache-Control, and an Audit-Id that is a new UUID
// per answer (a fixed one would not be the same bytes). /readyz answers 'ok'.
// With `--tls KEY CERT` first, it serves HTTPS with that key and certificate
// (the start-up figure gives it our server's own). It listens on BARE_HONO_PORT from
// the environment, else on a free port.
// Plain JavaScript, run by node as our compiled server is.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';

const argv = process.argv.slice(2);
const tls = argv[0] === '--tls' ? { key: readFileSync(argv[1]), cert: readFileSync(argv[2]) } : undefined;
const [jsonFile, protobufFile] = tls ? argv.slice(3) : argv;
const json = jsonFile ? readFileSync(jsonFile) : Buffer.from('{}');
const protobuf = protobufFile ? readFileSync(protobufFile) : json;

const app = new Hono();
app.get('/readyz', (c) => c.text('ok'));
app.get('*', (c) => {
  const pb = (c.req.header('accept') ?? '').includes('protobuf');
  return c.body(pb ? protobuf : json, 200, {
    'content-type': pb ? 'application/vnd.kubernetes.protobuf' : 'application/json',
    'cache-control': 'no-cache, private',
    'audit-id': randomUUID(),
  });
});
const scheme = tls ? 'https' : 'http';
serve({ fetch: app.fetch, port: Number(process.env.BARE_HONO_PORT ?? 0), hostname: '127.0.0.1', ...(tls ? { createServer, serverOptions: tls } : {}) }, (info) =>
  console.log(`listening on ${scheme}://127.0.0.1:${info.port}`),
);
process.on('SIGTERM', () => process.exit(0));
