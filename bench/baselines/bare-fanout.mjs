// Baseline for watch fan-out: a bare node:http server that keeps every GET
// open as a chunked stream (a watch) and, for each POST, appends the body to
// a file and fsyncs it, then writes one event line
// `{"type":"ADDED","object":<body>}` to every open stream and answers 201
// with the body. argv: the file to append to.
// Plain JavaScript, so it runs the same with or without a TypeScript loader.
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { createServer } from 'node:http';

const fd = openSync(process.argv[2], 'a');
const watchers = new Set();
const server = createServer((req, res) => {
  if (req.method === 'GET') {
    if (req.url === '/readyz') return res.end('ok');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
    watchers.add(res);
    req.on('close', () => watchers.delete(res));
    return;
  }
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    writeSync(fd, body);
    fsyncSync(fd);
    const line = Buffer.concat([Buffer.from('{"type":"ADDED","object":'), body, Buffer.from('}\n')]);
    for (const w of watchers) w.write(line);
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => {
  closeSync(fd);
  process.exit(0);
});
