// listBody and objectBody against JSON.stringify of the list or object a
// parsed-object answer would serialize (withVersion applied), over a table
// of items, metadata and endpoint versions, with items kept as text, as
// bytes (whose text is then read only for another version) and as bytes
// copied from where they are kept (no view made); the protobuf
// bodies against the codec's encoding of the same list, with the item cache
// bounded small, whole and streamed in chunks of many sizes.
import { describe, expect, it } from 'vitest';
import { listBody, objectBody, PROTOBUF_CACHE_BYTES, ProtobufItemCache, ProtobufObjectCache, protobufListBody, protobufListChunks, protobufObjectBody } from './encoded-list.ts';
import { loadKubeProtobuf } from '../codec/protobuf/index.ts';
import { listChunks } from './list-stream.ts';
import type { EncodedObject, Obj } from '../storage/interface.ts';

const enc = (o: Obj) => ({ json: JSON.stringify(o), apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : '' });
/** An item kept as bytes (as the watch cache keeps them), counting how often its text is asked for. */
const asBytes = (o: Obj, reads: { n: number }): EncodedObject => {
  const text = JSON.stringify(o);
  return {
    apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : '',
    bytes: Buffer.from(text),
    get json() {
      reads.n++;
      return text;
    },
  };
};
/** An item whose bytes are copied out from where they are kept: no view of them may be asked for. */
const copied = (o: Obj, reads: { n: number }): EncodedObject => {
  const text = JSON.stringify(o);
  const b = Buffer.from(text);
  return {
    apiVersion: typeof o.apiVersion === 'string' ? o.apiVersion : '',
    get bytes(): Uint8Array {
      throw new Error('a view of the bytes was made');
    },
    byteLength: b.length,
    copyBytes: (out: Uint8Array, at: number) => b.copy(out, at),
    get json() {
      reads.n++;
      return text;
    },
  };
};
const withVersion = (o: Obj, gv: string) => (o.apiVersion === gv ? o : { ...o, apiVersion: gv });

const objs: Obj[] = [
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', resourceVersion: '5' }, data: { k: 'é😀"\\\n' } },
  { kind: 'Thing', metadata: { name: 'b', resourceVersion: '6' }, apiVersion: 'example.com/v1beta1', spec: { n: 1.5, list: [1, null, true] } },
  { metadata: { name: 'c', resourceVersion: '7' } },
];

const rows: [string, string, string, Record<string, unknown>, Obj[]][] = [
  ['empty list', 'ConfigMapList', 'v1', { resourceVersion: '9' }, []],
  ['one item', 'ConfigMapList', 'v1', { resourceVersion: '9' }, [objs[0]]],
  ['paged, with items of other versions', 'ThingList', 'example.com/v1', { resourceVersion: '9', continue: 'eyJ2Ijoi', remainingItemCount: 3 }, objs],
  ['non-ASCII list metadata', 'ConfigMapList', 'v1', { resourceVersion: 'ü' }, objs],
];

describe('listBody', () => {
  it.each(rows)('%s', (_, kind, apiVersion, metadata, items) => {
    const expected = `${JSON.stringify({ kind, apiVersion, metadata, items: items.map((o) => withVersion(o, apiVersion)) })}\n`;
    expect(listBody(kind, apiVersion, metadata, items.map(enc)).toString('utf8')).toBe(expected);
  });
});

describe('items kept as bytes', () => {
  it.each(rows.map((r) => [r[0], r[2], r[4]] as const))('%s: the list of their bytes, text decoded only for another version', (_, apiVersion, items) => {
    const reads = { n: 0 };
    const got = listBody(
      'L',
      apiVersion,
      { resourceVersion: '9' },
      items.map((o) => asBytes(o, reads)),
    );
    expect(got.equals(listBody('L', apiVersion, { resourceVersion: '9' }, items.map(enc)))).toBe(true);
    expect(reads.n).toBe(items.filter((o) => o.apiVersion !== apiVersion).length);
  });

  it.each(rows.map((r) => [r[0], r[2], r[4]] as const))('%s: copied from where they are kept, whole and in chunks, no view made', (_, apiVersion, items) => {
    const reads = { n: 0 };
    const want = listBody('L', apiVersion, { resourceVersion: '9' }, items.map(enc));
    const got = listBody(
      'L',
      apiVersion,
      { resourceVersion: '9' },
      items.map((o) => copied(o, reads)),
    );
    expect(got.equals(want)).toBe(true);
    for (const chunk of [1, 40, 1 << 20]) {
      const chunks = [
        ...listChunks(
          'L',
          apiVersion,
          { resourceVersion: '9' },
          items.map((o) => copied(o, reads)),
          chunk,
        ),
      ];
      expect(Buffer.concat(chunks).equals(want)).toBe(true);
    }
    expect(reads.n).toBe(4 * items.filter((o) => o.apiVersion !== apiVersion).length);
  });

  it.each(objs.map((o) => [o.metadata.name, o] as const))('object %s: its bytes and a newline', (_, o) => {
    for (const gv of ['v1', 'example.com/v1beta1', 'apps/v1']) {
      const reads = { n: 0 };
      const got = objectBody(asBytes(o, reads), gv);
      expect(Buffer.from(got).toString('utf8')).toBe(`${JSON.stringify(withVersion(o, gv))}\n`);
      expect(reads.n).toBe(o.apiVersion === gv ? 0 : 1);
    }
  });

  it.each(objs.map((o) => [o.metadata.name, o] as const))('object %s kept as bytes: copied into the body, no view made, JSON read only for another version', (_, o) => {
    for (const gv of ['v1', 'example.com/v1beta1', 'apps/v1']) {
      const reads = { n: 0 };
      const got = objectBody(copied(o, reads), gv);
      expect(Buffer.from(got).toString('utf8')).toBe(`${JSON.stringify(withVersion(o, gv))}\n`);
      expect(reads.n).toBe(o.apiVersion === gv ? 0 : 1);
    }
  });
});

describe('objectBody', () => {
  it.each(objs.map((o) => [o.metadata.name, o] as const))('%s', (_, o) => {
    for (const gv of ['v1', 'example.com/v1beta1', 'apps/v1']) {
      expect(objectBody(enc(o), gv)).toBe(`${JSON.stringify(withVersion(o, gv))}\n`);
    }
  });
});

describe('protobuf item cache', () => {
  const cms = Array.from({ length: 40 }, (_, i) => enc({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, resourceVersion: String(10 + i) }, data: { v: 'x'.repeat(i * 7) } }));
  const meta = { resourceVersion: '99' };

  it.each([
    ['a bound smaller than one list', 2000],
    ['a bound of a few items', 600],
    ['a bound below any item', 10],
    ['the default bound', PROTOBUF_CACHE_BYTES],
  ])('with %s: the same bytes as encoding the list, within the bound', async (_name, bound) => {
    const codec = await loadKubeProtobuf();
    const cache = new ProtobufItemCache(bound);
    const want = Buffer.from(codec.encode({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: meta, items: cms.map((c) => JSON.parse(c.json)) })).toString('hex');
    for (let round = 0; round < 3; round++) {
      expect(Buffer.from(protobufListBody(codec, 'ConfigMapList', 'v1', meta, cms, cache)).toString('hex')).toBe(want);
      expect(cache.stats.weight).toBeLessThanOrEqual(bound);
    }
    const one = Buffer.from(protobufObjectBody(codec, 'ConfigMap', 'ConfigMapList', 'v1', cms[3], cache)).toString('hex');
    expect(one).toBe(Buffer.from(codec.encode(JSON.parse(cms[3].json))).toString('hex'));
    if (bound < PROTOBUF_CACHE_BYTES) expect(cache.stats.items).toBeLessThan(cms.length);
    else expect(cache.stats.items).toBe(cms.length);
  });

  it.each([
    ['a bound of a few objects', 700],
    ['a bound below any object', 10],
  ])('object bodies with %s: each GET body equals encoding the object, and the cache stays within the bound', async (_name, bound) => {
    const codec = await loadKubeProtobuf();
    const items = new ProtobufItemCache(bound);
    const objects = new ProtobufObjectCache(bound);
    for (let round = 0; round < 2; round++) {
      for (const c of cms) {
        const got = Buffer.from(protobufObjectBody(codec, 'ConfigMap', 'ConfigMapList', 'v1', c, items, objects)).toString('hex');
        expect(got).toBe(Buffer.from(codec.encode(JSON.parse(c.json))).toString('hex'));
        expect(objects.stats.weight).toBeLessThanOrEqual(bound);
      }
    }
    expect(objects.stats.items).toBeLessThan(cms.length);
  });

  it('an object body is kept per apiVersion and kind: the same item read as another kind or version is made again', () => {
    // a codec that spells what it was asked for, to see which body was answered
    let made = 0;
    const codec = {
      listItemType: (apiVersion: string, listKind: string) => `${apiVersion}/${listKind}`,
      encodeListItem: () => Buffer.from('item'),
      encodeObjectOf: (apiVersion: string, kind: string) => (made++, Buffer.from(`${apiVersion} ${kind}`)),
    } as unknown as Parameters<typeof protobufObjectBody>[0];
    const items = new ProtobufItemCache();
    const objects = new ProtobufObjectCache();
    const item = enc({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    const rows: [string, string, string, number][] = [
      ['v1', 'ConfigMap', 'v1 ConfigMap', 1],
      ['v1', 'ConfigMap', 'v1 ConfigMap', 1],
      ['v1', 'Secret', 'v1 Secret', 2],
      ['v2', 'Secret', 'v2 Secret', 3],
      ['v2', 'Secret', 'v2 Secret', 3],
      ['v1', 'ConfigMap', 'v1 ConfigMap', 4],
    ];
    for (const [apiVersion, kind, want, count] of rows) {
      expect(Buffer.from(protobufObjectBody(codec, kind, `${kind}List`, apiVersion, item, items, objects)).toString()).toBe(want);
      expect(made).toBe(count);
    }
  });

  it('keeps the most recently used items and counts the JSON they hold', async () => {
    const codec = await loadKubeProtobuf();
    const cache = new ProtobufItemCache(3000);
    protobufListBody(codec, 'ConfigMapList', 'v1', meta, cms, cache);
    const { items, weight } = cache.stats;
    expect(items).toBeGreaterThan(0);
    // every kept item weighs its JSON, its bytes and a fixed overhead: more than its JSON alone
    const last = cms.slice(cms.length - items);
    expect(weight).toBeGreaterThan(last.reduce((s, c) => s + c.json.length, 0));
  });
});

describe('protobuf list in chunks', () => {
  const cms = Array.from({ length: 60 }, (_, i) =>
    enc({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, resourceVersion: String(10 + i), labels: { i: String(i) } }, data: { v: 'é'.repeat(i) + 'x'.repeat(i * 11) } }),
  );
  const meta = { resourceVersion: '99', continue: 'abc', remainingItemCount: 4 };
  const whole = async (items: EncodedObject[]) => {
    const codec = await loadKubeProtobuf();
    return Buffer.from(codec.encode({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: meta, items: items.map((c) => JSON.parse(c.json)) }));
  };

  it.each([
    ['chunks smaller than the envelope', 8, PROTOBUF_CACHE_BYTES],
    ['chunks of about one item', 300, PROTOBUF_CACHE_BYTES],
    ['chunks of several items', 4096, PROTOBUF_CACHE_BYTES],
    ['one chunk', 1 << 20, PROTOBUF_CACHE_BYTES],
    ['a cache the list does not fit', 300, 4000],
    ['a cache below any item', 4096, 10],
  ])('%s: the chunks joined are the bytes of the whole list', async (_name, chunk, bound) => {
    const codec = await loadKubeProtobuf();
    const cache = new ProtobufItemCache(bound);
    for (const items of [cms, cms.slice(0, 1), []]) {
      const want = await whole(items);
      for (let round = 0; round < 2; round++) {
        const chunks = [...protobufListChunks(codec, 'ConfigMapList', 'v1', meta, items, cache, chunk)];
        expect(Buffer.concat(chunks).toString('hex')).toBe(want.toString('hex'));
        // no chunk is much bigger than asked for: only an item bigger than a chunk gets one of its own
        const biggest = Math.max(...items.map((c) => c.json.length), 64);
        for (const c of chunks) expect(c.length).toBeLessThanOrEqual(Math.max(chunk, biggest));
        expect(cache.stats.weight).toBeLessThanOrEqual(bound);
      }
    }
  });

  it('keeps the items of a list that fits the cache, and none of one that does not', async () => {
    const codec = await loadKubeProtobuf();
    const roomy = new ProtobufItemCache(PROTOBUF_CACHE_BYTES);
    expect(Buffer.concat([...protobufListChunks(codec, 'ConfigMapList', 'v1', meta, cms, roomy, 4096)]).equals(await whole(cms))).toBe(true);
    expect(roomy.stats.items).toBe(cms.length);
    const listJSON = cms.reduce((n, c) => n + c.json.length, 0);
    const tight = new ProtobufItemCache(listJSON);
    // an object body kept before the list stays, and the list uses it
    protobufObjectBody(codec, 'ConfigMap', 'ConfigMapList', 'v1', cms[5], tight, new ProtobufObjectCache());
    const before = tight.stats;
    expect(before.items).toBe(1);
    expect(Buffer.concat([...protobufListChunks(codec, 'ConfigMapList', 'v1', meta, cms, tight, 4096)]).equals(await whole(cms))).toBe(true);
    expect(tight.stats).toEqual(before);
  });

  it('two lists streamed at once, chunk by chunk in turn, each get their own bytes', async () => {
    const codec = await loadKubeProtobuf();
    const cache = new ProtobufItemCache(10);
    const a = protobufListChunks(codec, 'ConfigMapList', 'v1', meta, cms, cache, 200);
    const b = protobufListChunks(codec, 'ConfigMapList', 'v1', meta, [...cms].reverse(), cache, 300);
    const got: [Buffer[], Buffer[]] = [[], []];
    for (;;) {
      const x = a.next();
      const y = b.next();
      // an object encoded in between, as another request would
      codec.encodeListItemView('v1', 'ConfigMapList', { metadata: { name: 'other' }, data: { k: 'y'.repeat(500) } });
      if (!x.done) got[0].push(x.value);
      if (!y.done) got[1].push(y.value);
      if (x.done && y.done) break;
    }
    expect(Buffer.concat(got[0]).equals(await whole(cms))).toBe(true);
    expect(Buffer.concat(got[1]).equals(await whole([...cms].reverse()))).toBe(true);
  });

  it('an item that cannot be encoded is an error before the first chunk', async () => {
    const codec = await loadKubeProtobuf();
    const bad = [...cms.slice(0, 3), enc({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bad' }, data: { k: 5 } } as unknown as Obj)];
    expect(() => protobufListChunks(codec, 'ConfigMapList', 'v1', meta, bad, new ProtobufItemCache(10), 256)).toThrow();
  });
});
