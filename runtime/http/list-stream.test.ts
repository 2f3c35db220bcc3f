// listChunks against listBody over a table of lists and chunk sizes: the
// chunks joined are the same bytes (items kept as text or as bytes), no chunk is much bigger than asked (an
// item is never split), and the response streams them, gzipped when asked.
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { listBody } from './encoded-list.ts';
import { listAtLeast, listChunks, streamedResponse } from './list-stream.ts';

const item = (i: number, apiVersion = 'v1') => {
  const o = { apiVersion, kind: 'ConfigMap', metadata: { name: `c${i}`, resourceVersion: String(i) }, data: { v: 'é😀"\\'.repeat(i % 7) + 'x'.repeat((i * 37) % 300) } };
  return { json: JSON.stringify(o), apiVersion };
};
const items = (n: number) => Array.from({ length: n }, (_, i) => item(i, i % 5 === 4 ? 'v0' : 'v1'));
/** The same items kept as bytes, as the watch cache keeps them. */
const asBytes = (list: { json: string; apiVersion: string }[]) => list.map((i) => ({ ...i, bytes: Buffer.from(i.json) }));

describe('listChunks', () => {
  it.each([
    ['empty', 0, 64],
    ['one item', 1, 64],
    ['many, small chunks', 200, 100],
    ['many, one chunk', 200, 10 ** 9],
    ['many, chunks of about a kilobyte', 500, 1024],
  ])('%s: the bytes of listBody', (_name, n, chunk) => {
    const list = items(n);
    const meta = { resourceVersion: '77', continue: 'tok', remainingItemCount: 3 };
    const chunks = [...listChunks('ConfigMapList', 'v1', meta, list, chunk)];
    expect(Buffer.concat(chunks).equals(listBody('ConfigMapList', 'v1', meta, list))).toBe(true);
    expect(Buffer.concat([...listChunks('ConfigMapList', 'v1', meta, asBytes(list), chunk)]).equals(Buffer.concat(chunks))).toBe(true);
    const biggest = Math.max(...list.map((i) => Buffer.byteLength(i.json) + 64), 0);
    for (const c of chunks) expect(c.length).toBeLessThan(chunk + biggest + 200);
    if (chunk < 10 ** 9 && n > 100) expect(chunks.length).toBeGreaterThan(5);
  });

  it('tells big lists from small ones by their JSON', () => {
    expect(listAtLeast(items(10), 10)).toBe(true);
    expect(listAtLeast(items(10), 10 ** 6)).toBe(false);
    expect(listAtLeast([], 0)).toBe(false);
    // bytes count as bytes: 'é😀' is 6 bytes in 3 characters
    const multi = [{ json: 'é😀', apiVersion: 'v1', bytes: Buffer.from('é😀') }];
    expect([listAtLeast(multi, 5), listAtLeast(multi, 6)]).toEqual([true, false]);
  });
});

describe('streamedResponse', () => {
  const list = items(300);
  const meta = { resourceVersion: '5' };
  const want = listBody('ConfigMapList', 'v1', meta, list);

  it('streams the chunks without a Content-Length', async () => {
    const res = streamedResponse(listChunks('ConfigMapList', 'v1', meta, list, 512), 'application/json', { warnings: ['careful'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBeNull();
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('warning')).toBe('299 - "careful"');
    expect(Buffer.from(await res.arrayBuffer()).equals(want)).toBe(true);
  });

  it('gzips the stream when the client takes gzip', async () => {
    const res = streamedResponse(listChunks('ConfigMapList', 'v1', meta, list, 512), 'application/json', { acceptEncoding: 'deflate, gzip' });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).equals(want)).toBe(true);
  });

  it('makes no more chunks once the reader cancels', async () => {
    let made = 0;
    function* counted() {
      for (const c of listChunks('ConfigMapList', 'v1', meta, list, 256)) {
        made++;
        yield c;
      }
    }
    const res = streamedResponse(counted(), 'application/json', {});
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    const after = made;
    expect(after).toBeLessThan(5);
    expect(made).toBe(after);
  });
});
