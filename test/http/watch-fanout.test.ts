// Many HTTP watches over real sockets while writes proceed: every watcher
// gets every event it selects, once and in order (plain and label-selected
// watchers, events handed out in batches), the initial state and its end
// bookmark go out the same way, and writes are acknowledged while a watcher's
// client has stopped reading. JSON and protobuf watchers of the same bursts
// each get every event once, in order, with their bookmarks; a watch's body is
// well-formed chunks that end with the last chunk, after which the connection
// serves the next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import net from 'node:net';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { loadKubeProtobuf, splitFrames } from '../../runtime/codec/protobuf/index.ts';
import { keyRoot } from '../../runtime/api/keys.ts';
import type { Cacher } from '../../runtime/storage/cacher/index.ts';

let s: RunningServer;
beforeAll(async () => {
  // sendInitialEvents needs WatchList, alpha (off) in 1.31
  s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true, watchStallTimeoutMs: 0, featureGates: { WatchList: true } });
});
afterAll(async () => {
  await s?.stop();
});

const CM = '/api/v1/namespaces/default/configmaps';

function create(name: string, labels: Record<string, string>, data: Record<string, string> = {}): Promise<{ status: number; rv: string }> {
  const body = JSON.stringify({ metadata: { name, labels }, data });
  return new Promise((resolve, reject) => {
    const req = http.request(`${s.url}${CM}`, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rv: res.statusCode === 201 ? JSON.parse(text).metadata.resourceVersion : '' }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Watch {
  events: { type: string; name: string; rv: number }[];
  req: http.ClientRequest;
}

/** Opens a watch over its own connection; resolves once the response head arrived. */
function openWatch(query: string): Promise<Watch> {
  return new Promise((resolve, reject) => {
    const w: Watch = { events: [], req: undefined as unknown as http.ClientRequest };
    w.req = http.get(`${s.url}${CM}?watch=1&${query}`, { agent: false }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`watch answered ${res.statusCode}`));
      let rest = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        rest += chunk;
        let nl: number;
        while ((nl = rest.indexOf('\n')) >= 0) {
          const ev = JSON.parse(rest.slice(0, nl));
          rest = rest.slice(nl + 1);
          w.events.push({ type: ev.type, name: ev.object.metadata.name, rv: Number(ev.object.metadata.resourceVersion) });
        }
      });
      res.on('error', () => {});
      resolve(w);
    });
    w.req.on('error', () => {});
  });
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 6000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(cond()).toBe(true);
}

describe('watch fan-out over sockets', () => {
  it('200 watchers each get every event they select, once and in order, while writes proceed', async () => {
    const start = await create('fan-start', { fan: 'start' });
    const from = `resourceVersion=${start.rv}`;
    const all: Watch[] = [];
    const even: Watch[] = [];
    for (let i = 0; i < 100; i++) {
      all.push(await openWatch(`${from}&labelSelector=fan%20in%20(even,odd)`));
      even.push(await openWatch(`${from}&labelSelector=fan%3Deven`));
    }
    // writes in parallel waves, so that several changes are often handed out together
    const names: string[] = [];
    for (let wave = 0; wave < 8; wave++) {
      const batch = Array.from({ length: 5 }, (_, i) => `fan-${wave * 5 + i}`);
      const res = await Promise.all(batch.map((n) => create(n, { fan: Number(n.slice(4)) % 2 ? 'odd' : 'even' })));
      expect(res.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      names.push(...batch);
    }
    await until(() => all.every((w) => w.events.length >= 40) && even.every((w) => w.events.length >= 20));
    // the order of the store: by resourceVersion, each change once
    const ordered = all[0].events;
    expect(ordered.map((e) => e.rv)).toEqual([...ordered.map((e) => e.rv)].sort((a, b) => a - b));
    expect(new Set(ordered.map((e) => e.rv)).size).toBe(40);
    expect([...ordered.map((e) => e.name)].sort()).toEqual([...names].sort());
    const evenOnes = ordered.filter((e) => Number(e.name.slice(4)) % 2 === 0);
    for (const w of all) expect(w.events).toEqual(ordered);
    for (const w of even) expect(w.events).toEqual(evenOnes);
    expect(ordered.every((e) => e.type === 'ADDED')).toBe(true);
    for (const w of [...all, ...even]) w.req.destroy();
  });

  it('streams the initial state, its end bookmark and later changes, and ends cleanly at timeoutSeconds', async () => {
    await create('init-a', { init: 'y' });
    await create('init-b', { init: 'y' });
    const raw: string[] = [];
    const ended = new Promise<{ complete: boolean }>((resolve, reject) => {
      const req = http.get(`${s.url}${CM}?watch=1&labelSelector=init&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=2`, { agent: false }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (d: string) => raw.push(d));
        res.on('end', () => resolve({ complete: res.complete }));
      });
      req.on('error', reject);
    });
    await until(() => raw.join('').split('\n').length > 3);
    await create('init-c', { init: 'y' });
    const { complete } = await ended;
    expect(complete).toBe(true);
    const events = raw
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(events.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`.trim())).toEqual(['ADDED init-a', 'ADDED init-b', 'BOOKMARK', 'ADDED init-c']);
    expect(events[2].object.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
  });

  it('acknowledges writes while a watcher has stopped reading, and the reading watchers get them all', async () => {
    const port = new URL(s.url).port;
    const sock = net.connect(Number(port), '127.0.0.1');
    await new Promise<void>((res) => sock.once('connect', () => res()));
    sock.write(`GET ${CM}?watch=1&labelSelector=paused HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    const head = await new Promise<string>((res) => sock.once('data', (d) => res(d.toString('latin1'))));
    expect(head.startsWith('HTTP/1.1 200')).toBe(true);
    sock.pause();
    sock.on('error', () => {});
    const reader = await openWatch('labelSelector=paused');
    // far more than the paused socket's buffers hold
    const value = 'v'.repeat(64 * 1024);
    for (let i = 0; i < 60; i++) expect((await create(`paused-${i}`, { paused: 'y' }, { v: value })).status).toBe(201);
    await until(() => reader.events.length === 60);
    expect(reader.events.map((e) => e.name)).toEqual(Array.from({ length: 60 }, (_, i) => `paused-${i}`));
    reader.req.destroy();
    sock.destroy();
  });

  it('JSON and protobuf watchers of the same bursts each get every event once, in order, with their bookmarks', async () => {
    const pb = await loadKubeProtobuf();
    const start = await create('formats-start', { formats: 'start' });
    type Seen = { type: string; name: string; rv: number }[];
    const open = (proto: boolean, bookmarks: boolean) =>
      new Promise<{ seen: Seen; req: http.ClientRequest }>((resolve, reject) => {
        const seen: Seen = [];
        const q = `watch=1&resourceVersion=${start.rv}&labelSelector=formats%3Dy${bookmarks ? '&allowWatchBookmarks=true' : ''}`;
        const headers = proto ? { accept: 'application/vnd.kubernetes.protobuf;stream=watch' } : {};
        const req = http.get(`${s.url}${CM}?${q}`, { agent: false, headers }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`watch answered ${res.statusCode}`));
          let rest: Uint8Array = new Uint8Array(0);
          let text = '';
          res.on('data', (chunk: Buffer) => {
            if (proto) {
              const split = splitFrames(Buffer.concat([rest, chunk]));
              rest = Buffer.from(split.rest);
              for (const f of split.frames) {
                const ev = pb.decodeWatchEvent(f) as { type: string; object: { metadata: { name?: string; resourceVersion: string } } };
                seen.push({ type: ev.type, name: ev.object.metadata.name ?? '', rv: Number(ev.object.metadata.resourceVersion) });
              }
              return;
            }
            text += chunk.toString('utf8');
            let nl: number;
            while ((nl = text.indexOf('\n')) >= 0) {
              const ev = JSON.parse(text.slice(0, nl));
              text = text.slice(nl + 1);
              seen.push({ type: ev.type, name: ev.object.metadata.name ?? '', rv: Number(ev.object.metadata.resourceVersion) });
            }
          });
          res.on('error', () => {});
          resolve({ seen, req });
        });
        req.on('error', () => {});
      });
    const kinds = [
      [false, false],
      [false, true],
      [true, false],
      [true, true],
    ] as const;
    const watches = await Promise.all(Array.from({ length: 40 }, (_, i) => open(kinds[i % 4][0], kinds[i % 4][1])));
    const names: string[] = [];
    let bookmarks = 0;
    for (let burst = 0; burst < 4; burst++) {
      const wave = Array.from({ length: 15 }, (_, i) => `formats-${burst}-${i}`);
      names.push(...wave);
      for (const r of await Promise.all(wave.map((n) => create(n, { formats: 'y' })))) expect(r.status).toBe(201);
      // the periodic bookmark, now (the cache of configmaps is the one storage gives for its key root)
      (s.storage.storageFor(keyRoot('', 'configmaps'), () => ({ labels: {}, fields: {} })) as Cacher).sendBookmarks();
      bookmarks++;
    }
    const added = (w: { seen: Seen }) => w.seen.filter((e) => e.type === 'ADDED');
    await until(() => watches.every((w, i) => added(w).length === names.length && (!kinds[i % 4][1] || w.seen.filter((e) => e.type === 'BOOKMARK').length >= bookmarks)));
    for (let i = 0; i < watches.length; i++) {
      const w = watches[i];
      expect(
        added(w)
          .map((e) => e.name)
          .sort(),
      ).toEqual([...names].sort());
      expect(w.seen.every((e) => e.type === 'ADDED' || (e.type === 'BOOKMARK' && kinds[i % 4][1]))).toBe(true);
      const revs = w.seen.map((e) => e.rv);
      expect(revs).toEqual([...revs].sort((a, b) => a - b));
      w.req.destroy();
    }
  });

  it("a watch's body is well-formed chunks ending with the last chunk, and its connection then serves the next request", async () => {
    const port = Number(new URL(s.url).port);
    for (const accept of ['application/json', 'application/vnd.kubernetes.protobuf;stream=watch']) {
      const sock = net.connect(port, '127.0.0.1');
      await new Promise<void>((res) => sock.once('connect', () => res()));
      let raw = Buffer.alloc(0);
      sock.on('data', (d: Buffer) => (raw = Buffer.concat([raw, d])));
      const label = accept.includes('protobuf') ? 'chunks-pb' : 'chunks-json';
      sock.write(`GET ${CM}?watch=1&labelSelector=${label}&timeoutSeconds=2 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: ${accept}\r\n\r\n`);
      await until(() => raw.includes('\r\n\r\n'));
      for (let burst = 0; burst < 3; burst++) await Promise.all(Array.from({ length: 5 }, (_, i) => create(`${label}-${burst}-${i}`, { [label]: 'y' })));
      // the watch ends at timeoutSeconds with the last chunk
      await until(() => raw.includes('\r\n0\r\n\r\n'));
      const head = raw.subarray(0, raw.indexOf('\r\n\r\n') + 4).toString('latin1');
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head.toLowerCase()).toContain('transfer-encoding: chunked');
      // every chunk: a hexadecimal size line, exactly that many bytes, CRLF; then the zero chunk and nothing else
      let at = head.length;
      const body: Buffer[] = [];
      for (;;) {
        const eol = raw.indexOf('\r\n', at);
        const sizeLine = raw.subarray(at, eol).toString('latin1');
        expect(sizeLine).toMatch(/^[0-9a-f]+$/);
        const size = parseInt(sizeLine, 16);
        at = eol + 2;
        if (size === 0) {
          expect(raw.subarray(at).toString('latin1')).toBe('\r\n');
          break;
        }
        body.push(raw.subarray(at, at + size));
        expect(raw.subarray(at + size, at + size + 2).toString('latin1')).toBe('\r\n');
        at += size + 2;
      }
      const all = Buffer.concat(body);
      const count = accept.includes('protobuf') ? splitFrames(all).frames.length : all.toString('utf8').split('\n').filter(Boolean).length;
      expect(count).toBe(15);
      // the same connection answers the next request
      raw = Buffer.alloc(0);
      sock.write(`GET /version HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await until(() => raw.includes('\r\n\r\n'));
      expect(raw.toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
      sock.destroy();
    }
  });
});
