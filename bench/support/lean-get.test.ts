import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dechunk, LeanConnection } from './lean-get.ts';

// bodies the server answers by path: written in pieces (chunked) or with a Content-Length
const big = Buffer.from(JSON.stringify({ items: Array.from({ length: 5000 }, (_, i) => ({ name: `cm-${i}`, v: 'x'.repeat(200) })) }) + '\n');
let server: Server;
let base: URL;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/chunked') {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let at = 0; at < big.length; at += 70_001) res.write(big.subarray(at, at + 70_001));
      res.end();
    } else if (req.url === '/empty-chunked') {
      res.writeHead(200);
      res.end();
    } else if (req.url === '/sized') {
      res.writeHead(404, { 'content-length': String(big.length) });
      res.end(big);
    } else if (req.url === '/echo') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(String(req.headers['x-probe']));
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('LeanConnection', () => {
  it.each([
    ['/chunked', 200, big],
    ['/sized', 404, big],
    ['/empty-chunked', 200, Buffer.alloc(0)],
  ])('GET %s answers the status and the whole body, several times on one connection', async (path, status, body) => {
    const c = new LeanConnection(base);
    try {
      for (let i = 0; i < 3; i++) {
        const r = await c.get(path);
        expect(r.status).toBe(status);
        expect(r.body.equals(body)).toBe(true);
        expect(r.ms).toBeGreaterThan(0);
      }
    } finally {
      c.close();
    }
  });

  it('sends the headers given', async () => {
    const c = new LeanConnection(base);
    try {
      expect((await c.get('/echo', { 'x-probe': 'yes' })).body.toString()).toBe('yes');
    } finally {
      c.close();
    }
  });

  it('refuses https', () => {
    expect(() => new LeanConnection(new URL('https://127.0.0.1:1'))).toThrow(/plain HTTP/);
  });
});

describe('dechunk', () => {
  it.each([
    ['one chunk', '3\r\nabc\r\n0\r\n\r\n', 'abc'],
    ['two chunks, a size extension', '2;x=y\r\nab\r\n1\r\nc\r\n0\r\n\r\n', 'abc'],
    ['empty', '0\r\n\r\n', ''],
  ])('%s', (_, payload, body) => expect(dechunk(Buffer.from(payload)).toString()).toBe(body));

  it.each([
    ['a chunk longer than its size', '2\r\nabc\r\n0\r\n\r\n', /not followed by CRLF/],
    ['no last chunk', '3\r\nabc\r\n', /no size line/],
    ['bytes after the last chunk', '0\r\n\r\nxx', /after the last chunk/],
    ['a size that is not hex', 'zz\r\nabc\r\n0\r\n\r\n', /bad size line/],
  ])('throws on %s', (_, payload, err) => expect(() => dechunk(Buffer.from(payload))).toThrow(err));
});
