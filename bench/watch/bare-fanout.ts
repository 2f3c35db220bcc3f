// The baseline of bench/watch/fanout.ts: a bare node HTTP server doing the
// least a durable, watched write needs. A GET holds its response open as a
// chunked stream (a watch); a POST appends the body to a file, fsyncs it,
// writes one `{"type":"ADDED","object":...}` line to every open watch and
// answers 201 with the body.
import http from 'node:http';
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'bare-fanout-'));
const fd = openSync(join(dir, 'log'), 'a');
const watches = new Set<http.ServerResponse>();

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    watches.add(res);
    res.on('close', () => watches.delete(res));
    return;
  }
  const parts: Buffer[] = [];
  req.on('data', (d: Buffer) => parts.push(d));
  req.on('end', () => {
    const body = Buffer.concat(parts);
    writeSync(fd, body);
    fsyncSync(fd);
    const line = Buffer.from(`{"type":"ADDED","object":${body.toString()}}\n`);
    for (const w of watches) w.write(line);
    res.writeHead(201, { 'Content-Type': 'application/json' });
    res.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const a = server.address() as { port: number };
  console.log(`bare listening on http://127.0.0.1:${a.port}`);
});
process.on('SIGTERM', () => {
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
