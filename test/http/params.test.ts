// Integer and boolean query parameters through the HTTP API: out-of-range and
// malformed integers are 400 with Go's strconv text (never a 500), in range
// they work whatever their size; booleans follow upstream's conversion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { rootCAPublished } from '../support/root-ca.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  for (const n of ['p1', 'p2', 'p3']) await post(n);
  // with the root CA the publisher writes, default holds four ConfigMaps
  await rootCAPublished(s);
});
afterAll(async () => {
  await s?.stop();
});

const CM = '/api/v1/namespaces/default/configmaps';
const post = (name: string) => s.app.request(CM, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name }, data: { a: '1' } }) });

const BAD: [string, string][] = [
  ['9223372036854775808', 'value out of range'],
  ['-9223372036854775809', 'value out of range'],
  ['99999999999999999999', 'value out of range'],
  ['1e3', 'invalid syntax'],
  ['0x10', 'invalid syntax'],
  ['1.5', 'invalid syntax'],
  ['', 'invalid syntax'],
  ['abc', 'invalid syntax'],
  [' 5', 'invalid syntax'],
];

describe('integer query parameters', () => {
  it.each(BAD)('limit=%j is 400 BadRequest', async (v, why) => {
    const r = await s.app.request(`${CM}?limit=${encodeURIComponent(v)}`);
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'BadRequest',
      code: 400,
      message: `strconv.ParseInt: parsing ${JSON.stringify(v)}: ${why}`,
    });
  });

  it.each([
    ['9223372036854775807', 4],
    ['+2', 2],
    ['-0', 4],
    ['0', 4],
    ['1', 1],
    ['0001', 1],
  ])('limit=%s lists (%i items)', async (v, items) => {
    const r = await s.app.request(`${CM}?limit=${encodeURIComponent(v)}`);
    expect(r.status).toBe(200);
    expect((await r.json()).items).toHaveLength(items);
  });

  it('a huge limit also works on an exact-version list (served by storage, not the cache)', async () => {
    const rv = (await (await s.app.request(CM)).json()).metadata.resourceVersion;
    const r = await s.app.request(`${CM}?limit=9223372036854775807&resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(r.status).toBe(200);
    expect((await r.json()).items).toHaveLength(4);
  });

  it.each(BAD)('watch timeoutSeconds=%j is 400', async (v) => {
    const r = await s.app.request(`${CM}?watch=1&timeoutSeconds=${encodeURIComponent(v)}`);
    expect(r.status).toBe(400);
    expect((await r.json()).reason).toBe('BadRequest');
  });

  it.each(BAD)('delete gracePeriodSeconds=%j is 400 and deletes nothing', async (v) => {
    const r = await s.app.request(`${CM}/p1?gracePeriodSeconds=${encodeURIComponent(v)}`, { method: 'DELETE' });
    expect(r.status).toBe(400);
    expect((await s.app.request(`${CM}/p1`)).status).toBe(200);
  });

  it.each([[1.5], [1e30], [-1e300]])('delete with body gracePeriodSeconds %s is 400 and deletes nothing', async (g) => {
    const r = await s.app.request(`${CM}/p1`, { method: 'DELETE', headers: { 'content-type': 'application/json' }, body: `{"gracePeriodSeconds":${g}}` });
    expect(r.status).toBe(400);
    expect((await s.app.request(`${CM}/p1`)).status).toBe(200);
  });

  it.each(['99999999999999999999', '1e3', '-1', '0x10'])('get resourceVersion=%s is 400, never 500', async (v) => {
    const r = await s.app.request(`${CM}/p1?resourceVersion=${encodeURIComponent(v)}`);
    expect(r.status).toBe(400);
  });
});

/** Reads one watch event (or reports the end of the stream). */
async function nextEvent(reader: ReadableStreamDefaultReader<Uint8Array>, buf: { text: string }): Promise<any> {
  const dec = new TextDecoder();
  for (;;) {
    const nl = buf.text.indexOf('\n');
    if (nl >= 0) {
      const line = buf.text.slice(0, nl);
      buf.text = buf.text.slice(nl + 1);
      return JSON.parse(line);
    }
    const { value, done } = await reader.read();
    if (done) return 'end';
    buf.text += dec.decode(value, { stream: true });
  }
}

describe('watch timeoutSeconds', () => {
  it.each(['9223372036854775807', '0', '3000000'])('timeoutSeconds=%s keeps the watch open (not ended at once)', async (v) => {
    const r = await s.app.request(`${CM}?watch=1&fieldSelector=metadata.name%3Dp3&timeoutSeconds=${v}`);
    expect(r.status).toBe(200);
    const reader = r.body!.getReader();
    const buf = { text: '' };
    expect((await nextEvent(reader, buf)).type).toBe('ADDED');
    // a change made after the watch started still arrives: the stream did not end
    await s.app.request(`${CM}/p3`, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ data: { a: v } }) });
    const ev = await nextEvent(reader, buf);
    expect(ev.type).toBe('MODIFIED');
    expect(ev.object.data.a).toBe(v);
    await reader.cancel();
  });

  it('a negative timeoutSeconds ends the watch at once', async () => {
    const r = await s.app.request(`${CM}?watch=1&fieldSelector=metadata.name%3Dnone&timeoutSeconds=-1`);
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
  });
});

describe('boolean query parameters (anything but false/0 is true)', () => {
  it.each(['yes', '', 'TRUE', 'on'])('allowWatchBookmarks=%j is accepted', async (v) => {
    const r = await s.app.request(`${CM}?watch=1&timeoutSeconds=-1&allowWatchBookmarks=${v}`);
    expect(r.status).toBe(200);
    await r.text();
  });

  it.each(['true', 'false', ''])('sendInitialEvents=%j on a list is 422 (forbidden for list)', async (v) => {
    const r = await s.app.request(`${CM}?sendInitialEvents=${v}`);
    expect(r.status).toBe(422);
    expect((await r.json()).message).toContain('sendInitialEvents is forbidden for list');
  });
});
