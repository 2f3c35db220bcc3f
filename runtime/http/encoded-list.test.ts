// listBody and objectBody against JSON.stringify of the list or object a
// parsed-object answer would serialize (withVersion applied), over a table
// of items, metadata and endpoint versions, with items kept as text and as
// bytes (whose text is then read only for another version); the protobuf
// bodies against the codec's encoding of the same list, with the item cache
// bounded small.
import { describe, expect, it } from 'vitest';
import { listBody, objectBody, PROTOBUF_CACHE_BYTES, ProtobufItemCache, ProtobufObjectCache, protobufListBody, protobufObjectBody } from './encoded-list.ts';
import { loadKubeProtobuf } from '../codec/protobuf/index.ts';
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

  it.each(objs.map((o) => [o.metadata.name, o] as const))('object %s: its bytes and a newline', (_, o) => {
    for (const gv of ['v1', 'example.com/v1beta1', 'apps/v1']) {
      const reads = { n: 0 };
      const got = objectBody(asBytes(o, reads), gv);
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
