// Entries: their selector attributes read back exactly what the resource's
// attrs function gave (whether the fields are stored or read from the key),
// label sets are shared between entries only when equal, the JSON is kept as
// bytes in the factory's arena (still readable once retired), and ring events
// refer to the entries instead of copying their parts.
import { describe, expect, it } from 'vitest';
import type { Obj, ObjectAttrs } from '../interface.ts';
import { cacheEvent, EntryFactory } from './entry.ts';
import { ByteArena } from './byte-arena.ts';

const obj = (name: string, namespace?: string, labels?: Record<string, string>, extra: Obj = {}): Obj => ({
  apiVersion: 'v1',
  kind: 'Thing',
  metadata: { name, ...(namespace === undefined ? {} : { namespace }), ...(labels ? { labels } : {}) },
  ...extra,
});
const namespaced = (o: Obj): ObjectAttrs => ({ labels: o.metadata?.labels ?? {}, fields: { 'metadata.name': o.metadata?.name ?? '', 'metadata.namespace': o.metadata?.namespace ?? '' } });
const cluster = (o: Obj): ObjectAttrs => ({ labels: o.metadata?.labels ?? {}, fields: { 'metadata.name': o.metadata?.name ?? '' } });
const withType = (o: Obj): ObjectAttrs => ({ ...namespaced(o), fields: { ...namespaced(o).fields, type: String(o.type ?? '') } });

describe('entry attributes', () => {
  const rows: [string, (o: Obj) => ObjectAttrs, string, Obj][] = [
    ['namespaced, read from the key', namespaced, '/registry/things/ns1/a', obj('a', 'ns1', { app: 'x' })],
    ['cluster-scoped, read from the key', cluster, '/registry/nodes/n-1', obj('n-1')],
    ['an extra field: stored', withType, '/registry/secrets/ns/s', obj('s', 'ns', undefined, { type: 'Opaque' })],
    ['a key that does not spell the name: stored', namespaced, '/registry/things/ns1/other', obj('a', 'ns1')],
    ['a key that does not spell the namespace: stored', namespaced, '/registry/things/elsewhere/a', obj('a', 'ns1')],
    ['an empty namespace in the fields', namespaced, '/registry/things/a', obj('a')],
    ['a name with dots and dashes', namespaced, '/registry/things/kube-system/a.b-c', obj('a.b-c', 'kube-system', { 'k8s.io/x': 'y' })],
  ];
  it.each(rows)('%s', (_name, attrs, key, o) => {
    const e = new EntryFactory(attrs).make(key, o, JSON.stringify(o));
    const want = attrs(o);
    expect(e.fields).toEqual(want.fields);
    expect(e.labels).toEqual(want.labels);
    expect(e.attrs).toBe(e);
    expect(e.json).toBe(JSON.stringify(o));
    expect(e.bytes.equals(Buffer.from(JSON.stringify(o)))).toBe(true);
    expect(e.apiVersion).toBe('v1');
  });

  it('shares equal label sets and no others', () => {
    const f = new EntryFactory(namespaced);
    const make = (name: string, labels?: Record<string, string>) => f.make(`/r/ns/${name}`, obj(name, 'ns', labels), '{}');
    const a = make('a', { app: 'web', tier: 'front' });
    const b = make('b', { app: 'web', tier: 'front' });
    const c = make('c', { app: 'web', tier: 'back' });
    // keys and values that would run together without their lengths
    const d = make('d', { 'a=b': 'c' });
    const e = make('e', { a: 'b=c' });
    expect(b.labels).toBe(a.labels);
    expect(c.labels).not.toBe(a.labels);
    expect(d.labels).toEqual({ 'a=b': 'c' });
    expect(e.labels).toEqual({ a: 'b=c' });
    expect(make('f').labels).toBe(make('g', {}).labels);
    expect(make('h').labels).toEqual({});
  });

  it('keeps sharing bounded: past the bound, label sets are the entries own', () => {
    const f = new EntryFactory(namespaced);
    const entries = Array.from({ length: 5000 }, (_, i) => f.make(`/r/ns/o${i}`, obj(`o${i}`, 'ns', { id: String(i) }), '{}'));
    entries.forEach((e, i) => expect(e.labels).toEqual({ id: String(i) }));
    const again = f.make('/r/ns/x', obj('x', 'ns', { id: '4999' }), '{}');
    expect(again.labels).not.toBe(entries[4999].labels);
    expect(f.make('/r/ns/y', obj('y', 'ns', { id: '1' }), '{}').labels).toBe(entries[1].labels);
  });
});

describe('entry bytes', () => {
  it('are kept in the arena given, and a retired entry still reads them', () => {
    const arena = new ByteArena(4096);
    const f = new EntryFactory(namespaced, arena);
    const o = obj('a', 'ns', { v: 'é' }, { data: { k: '😀' } });
    const e = f.make('/r/ns/a', o, JSON.stringify(o));
    expect(arena.filling.live).toBe(Buffer.byteLength(JSON.stringify(o)));
    f.retire(e);
    expect(arena.filling.live).toBe(0);
    expect(e.json).toBe(JSON.stringify(o));
    expect(e.current).toBe(false);
  });
});

describe('ring events', () => {
  it('read key, JSON and attributes through the entries', () => {
    const f = new EntryFactory(namespaced);
    const prev = f.make('/r/ns/a', obj('a', 'ns', { v: '1' }), '{"v":1}');
    const cur = f.make('/r/ns/a', obj('a', 'ns', { v: '2' }), '{"v":2}');
    const live = { live: true };
    const ev = cacheEvent('update', cur, 7, prev, live, 123);
    expect([ev.key, ev.json, ev.prevJson, ev.rev, ev.at]).toEqual(['/r/ns/a', '{"v":2}', '{"v":1}', 7, 123]);
    expect(ev.attrs).toBe(cur);
    expect(ev.prevAttrs).toBe(prev);
    expect(ev.obj).toBe(live);
    ev.release?.();
    expect(ev.obj).toEqual({ v: 2 });
    expect(ev.prevObj).toEqual({ v: 1 });
    const created = cacheEvent('create', cur, 8, undefined, undefined, 124);
    expect([created.prevAttrs, created.prevJson, created.prevObj]).toEqual([undefined, undefined, undefined]);
  });
});
