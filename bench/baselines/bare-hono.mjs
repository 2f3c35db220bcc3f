// Baseline server: bare Hono on @hono/node-server answering every GET with
// fixed bytes read from files at start (argv: the JSON file and optionally
// the protobuf file, both fetched from our server by the bench); a request
// whose Accept names protobuf gets the protobuf bytes. /readyz answers 'ok'.
// Plain JavaScript, so it runs the same with or without a TypeScript loader.
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';

const [jsonFile, protobufFile] = process.argv.slice(2);
const json = jsonFile ? readFileSync(jsonFile) : Buffer.from('{}');
const protobuf = protobufFile ? readFileSync(protobufFile) : json;

const app = new Hono();
app.get('/readyz', (c) => c.text('ok'));
app.get('*', (c) => {
  const pb = (c.req.header('accept') ?? '').includes('protobuf');
  return c.body(pb ? protobuf : json, 200, { 'content-type': pb ? 'application/vnd.kubernetes.protobuf' : 'application/json' });
});
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => console.log(`listening on http://127.0.0.1:${info.port}`));
process.on('SIGTERM', () => process.exit(0));
