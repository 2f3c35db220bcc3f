// The watch client against the bare fan-out baseline: it opens the streams,
// reports an event once it has reached every one of them (first arrival no
// later than the last, both after the write began), counts the events of
// untracked watches (also when a chunk's framing or a read splits an event's
// end), and closes them.
// No timing bound is asserted.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { postJSON } from '../../support/http.ts';
import { spawnBaseline } from '../../support/servers.ts';
import { hrNow, WatchClient } from './client.ts';

describe('WatchClient', () => {
  it('reports each event once it reached all open watches, and closes them', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'bench-watch-client-'));
    const bare = await spawnBaseline('bare-fanout.mjs', [join(scratch, 'log')]);
    const client = new WatchClient();
    try {
      for (const round of [1, 2]) {
        await client.open(`${bare.url}/watch`, 5, true);
        for (const name of [`a-${round}`, `b-${round}`]) {
          const t0 = hrNow();
          const [, a] = await Promise.all([postJSON(`${bare.url}/write`, { metadata: { name } }), client.arrival(name)]);
          expect(a.name).toBe(name);
          expect(a.first).toBeGreaterThanOrEqual(t0);
          expect(a.last).toBeGreaterThanOrEqual(a.first);
        }
        await client.close();
      }
    } finally {
      client.stop();
      await bare.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('without tracking, counts the events every open watch got', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'bench-watch-client-'));
    const bare = await spawnBaseline('bare-fanout.mjs', [join(scratch, 'log')]);
    const client = new WatchClient();
    try {
      await client.open(`${bare.url}/watch`, 4, false);
      for (const name of ['a', 'b', 'c']) await postJSON(`${bare.url}/write`, { metadata: { name } });
      expect(await client.drained(3)).toBe(3);
      expect(await client.counts()).toEqual([3, 3]);
      await client.close();
      // nothing more arrives: it gives up once no watch counts more for the patience given
      await client.open(`${bare.url}/watch`, 2, false);
      expect(await client.drained(1, 50)).toBe(0);
      expect(client.endedByServer).toBe(0);
      // the server going away ends both: counted as ended by the server
      await bare.stop();
      for (let i = 0; i < 2000 && client.endedByServer < 2; i++) {
        await new Promise((r) => setTimeout(r, 10));
        await client.counts();
      }
      expect(client.endedByServer).toBe(2);
      await client.close();
    } finally {
      client.stop();
      await bare.stop();
      rmSync(scratch, { recursive: true, force: true });
    }
  });

  it('without tracking, counts events whatever the chunk framing and however the reads split them', async () => {
    const ev = (n: number) => `{"type":"ADDED","object":{"metadata":{"name":"e${n}"}}}\n`;
    // three events in one chunk, then one split across two chunks (its line feed alone in the second) and several writes
    const three = ev(1) + ev(2) + ev(3);
    const parts = [
      'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      `${Buffer.byteLength(three).toString(16)}\r\n${three}\r\n`,
      `${(ev(4).length - 1).toString(16)}\r\n${ev(4).slice(0, -1)}`,
      '\r\n1\r\n',
      '\n\r\n',
    ];
    const sockets: Socket[] = [];
    const server = createServer((sock) => {
      sockets.push(sock);
      sock.on('error', () => {});
      sock.once('data', async () => {
        for (const p of parts) {
          sock.write(p);
          await new Promise((r) => setTimeout(r, 5));
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const client = new WatchClient();
    try {
      const { port } = server.address() as { port: number };
      await client.open(`http://127.0.0.1:${port}/watch?x=1`, 3, false);
      expect(await client.drained(4)).toBe(4);
      expect(await client.counts()).toEqual([4, 4]);
      await client.close();
    } finally {
      client.stop();
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    }
  });

  it('fails open() when the server refuses the watch', async () => {
    const client = new WatchClient();
    try {
      await expect(client.open('http://127.0.0.1:1/watch', 2, true)).rejects.toThrow(/watch http:\/\/127.0.0.1:1\/watch/);
    } finally {
      client.stop();
    }
  });

  it('fails open() of untracked watches when the server refuses them or answers other than 200', async () => {
    const [refused, forbidden] = [new WatchClient(), new WatchClient()];
    const server = createServer((sock) => {
      sock.on('error', () => {});
      sock.once('data', () => sock.end('HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      await expect(refused.open('http://127.0.0.1:1/watch', 2, false)).rejects.toThrow(/watch http:\/\/127.0.0.1:1\/watch/);
      const { port } = server.address() as { port: number };
      await expect(forbidden.open(`http://127.0.0.1:${port}/watch`, 2, false)).rejects.toThrow(/: 403 Forbidden$/);
    } finally {
      refused.stop();
      forbidden.stop();
      await new Promise((r) => server.close(r));
    }
  });
});
