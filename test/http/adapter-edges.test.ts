// Requests the Hono app never sees, written byte for byte on a raw socket:
// a backslash in the path and a Host that does not parse (refused by the
// Node adapter) are 400 Statuses, CONNECT is a 405 Status (Node would drop
// the socket), and a port already in use rejects startServer() with a
// message and releases the data directory it had opened; thousands of
// header lines are read as Go reads them (no count limit).
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { ListenError } from '../../runtime/server/listen.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
});
afterAll(async () => {
  await s?.stop();
});

/** Sends `head` (request line and headers, no body) and reads until the server closes or the response is complete. */
function rawExchange(head: string): Promise<{ status: number; body: string }> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(u.port), u.hostname);
    let data = '';
    const done = () => {
      const [headers, ...rest] = data.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(headers)?.[1] ?? 0);
      resolve({ status, body: rest.join('\r\n\r\n') });
    };
    sock.setEncoding('utf8');
    sock.on('data', (d: string) => {
      data += d;
      const m = /content-length: (\d+)/i.exec(data);
      const split = data.indexOf('\r\n\r\n');
      if (m && split >= 0 && Buffer.byteLength(data.slice(split + 4)) >= Number(m[1])) {
        sock.end();
        done();
      }
    });
    sock.on('end', done);
    sock.on('error', reject);
    sock.setTimeout(20_000, () => sock.destroy(new Error('no answer')));
    sock.write(head);
  });
}

describe('requests the adapter refuses are Statuses', () => {
  it.each([
    ['a backslash in the path', 'GET /api/v1/namespaces/..\\/default HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400, 'BadRequest'],
    ['a backslash in a name to delete', 'DELETE /api/v1/namespaces/default/configmaps/a\\b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 400, 'BadRequest'],
    ['a Host with user info', 'GET /version HTTP/1.1\r\nHost: a@127.0.0.1\r\n\r\n', 400, 'BadRequest'],
    ['CONNECT', 'CONNECT /api/v1/namespaces HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 405, 'MethodNotAllowed'],
  ])('%s', async (_name, head, code, reason) => {
    const r = await rawExchange(head);
    expect(r.status).toBe(code);
    const st = JSON.parse(r.body);
    expect(st).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason });
    // and the server still answers
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
  });

  it('a backslash after the query string is served normally', async () => {
    const r = await rawExchange('GET /api/v1/namespaces?labelSelector=a%3Db\\c HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(r.status).not.toBe(500);
    expect(JSON.parse(r.body).kind).toBe('Status'); // the selector value is invalid: a 400 Status from the app
  });
});

describe('request headers as Go bounds them', () => {
  it("takes more than node's 2000 headers (a body after them stays a body) and long ones up to 1 MiB", async () => {
    const many = Array.from({ length: 2100 }, (_, i) => `x-h-${i}: v\r\n`).join('');
    const body = '{"metadata":{"annotations":{"a":"1"}}}';
    const r = await rawExchange(
      `PATCH /api/v1/namespaces/default/configmaps/none HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/merge-patch+json\r\n${many}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(r.status).toBe(404);
    expect(JSON.parse(r.body)).toMatchObject({ kind: 'Status', reason: 'NotFound' });
    const long = await rawExchange(`GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\nx-long: ${'a'.repeat(100_000)}\r\nConnection: close\r\n\r\n`);
    expect(long.status).toBe(200);
  });

  it('are read as Go reads them: only the size of the header block is limited, not the count (a Host sent last is seen)', async () => {
    const many = Array.from({ length: 3000 }, (_, i) => `X-Many-${i}: v\r\n`).join('');
    // Host last: a server that stopped reading header lines after some count would not see it
    const r = await rawExchange(`GET /version HTTP/1.1\r\n${many}Host: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).major).toBe('1');
  });
});

describe('listening', () => {
  it('a port in use rejects with a message and releases the data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'listen-'));
    try {
      await expect(startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true, dataDir: dir, port: s.port })).rejects.toThrow(ListenError);
      await expect(startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true, dataDir: dir, port: s.port })).rejects.toThrow(/already in use/);
      // the failed starts left no lock behind
      const ok = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true, dataDir: dir });
      expect((await fetch(`${ok.url}/readyz`)).status).toBe(200);
      await ok.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
