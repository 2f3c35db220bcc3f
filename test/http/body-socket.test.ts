// Request bodies read over a real socket (the server reads node's request
// itself, not a fetch body stream): bodies sent in many chunks without a
// Content-Length arrive whole, a streamed body past 3 MiB is a 413 with
// Connection: close (the rest is not read) and the server goes on serving,
// and a client that goes away mid-body changes nothing.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

const CM = '/api/v1/namespaces/default/configmaps';
let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
});
afterAll(() => s.stop());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: any;
}

/** POSTs `parts` one write at a time with chunked transfer encoding. */
function chunked(parts: string[], opts: { abortAfter?: number } = {}): Promise<Answer> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method: 'POST', path: CM, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    let i = 0;
    const pump = () => {
      while (i < parts.length) {
        if (opts.abortAfter !== undefined && i === opts.abortAfter) {
          req.destroy(new Error('client gone'));
          return;
        }
        if (!req.write(parts[i++])) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

const get = async (path: string) => {
  const r = await fetch(`${s.url}${path}`);
  const text = await r.text();
  return { status: r.status, json: text.startsWith('{') ? JSON.parse(text) : text };
};

describe('request bodies over a socket', () => {
  it('a body in many small chunks arrives whole', async () => {
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'chunky' }, data: { a: 'y'.repeat(5000) } });
    const parts = body.match(/.{1,7}/gs)!;
    const r = await chunked(parts);
    expect(r.status).toBe(201);
    expect((await get(`${CM}/chunky`)).json.data.a).toBe('y'.repeat(5000));
  });

  it('a streamed body past 3 MiB is 413, the connection closes after it, nothing is stored, and the server goes on', async () => {
    const parts = ['{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"huge"},"data":{"a":"', ...Array.from({ length: 80 }, () => 'x'.repeat(64 * 1024)), '"}}'];
    const r = await chunked(parts);
    expect(r.status).toBe(413);
    expect(r.headers.connection).toBe('close');
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413, message: 'Request entity too large: limit is 3145728' });
    expect((await get(`${CM}/huge`)).status).toBe(404);
    expect((await get('/healthz')).status).toBe(200);
  });

  it('a client that goes away in the middle of its body stores nothing', async () => {
    const parts = ['{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"gone"},"data":{"a":"', 'x'.repeat(1000), 'x'.repeat(1000), '"}}'];
    await expect(chunked(parts, { abortAfter: 2 })).rejects.toThrow();
    expect((await get(`${CM}/gone`)).status).toBe(404);
    expect((await get('/healthz')).status).toBe(200);
  });
});
