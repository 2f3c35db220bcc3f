// A watch cache made with primeOnFirstUse: it reads nothing from storage
// until its first read or watch, then answers as a cache primed when it was
// made: consistent reads see every write acknowledged before them, a watch
// from any revision since the cache was made is served from its ring (also
// when the store was empty then), and a store that compacted that revision
// away makes it list at the latest one (older watches get 410 Expired).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ListOptions, Obj, Storage, WatchEvent, WatchStream } from '../interface.ts';
import { openSqliteKV, type SqliteKV } from '../sqlite/index.ts';
import { KVStorage } from '../kvstore/index.ts';
import { Cacher } from './cacher.ts';

const P = '/registry/core/configmaps/';
const attrs = (o: Obj) => ({ labels: o.metadata?.labels ?? {}, fields: { 'metadata.name': o.metadata?.name ?? '' } });
const cm = (name: string, v = '1'): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: { v } });
const rv = (o: Obj) => o.metadata!.resourceVersion as string;

/** KVStorage that records the lists and watches asked of it. */
function recording(kv: SqliteKV): { storage: Storage; asked: string[] } {
  const inner = new KVStorage(kv);
  const asked: string[] = [];
  const storage = new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      if (prop === 'list' || prop === 'listEncoded') {
        return (prefix: string, opts: ListOptions = {}) => {
          asked.push(`list ${opts.resourceVersionMatch ?? ''} ${opts.resourceVersion ?? ''}`.trim());
          return (v as Storage['list']).call(target, prefix, opts);
        };
      }
      if (prop === 'watch') asked.push('watch');
      return (v as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return { storage, asked };
}

/** The first `n` events of a watch (its stream stopped after them). */
async function take(s: WatchStream, n: number): Promise<WatchEvent[]> {
  const out: WatchEvent[] = [];
  if (n === 0) return out;
  for await (const e of s) {
    out.push(e);
    if (out.length === n) break;
  }
  return out;
}

describe('Cacher with primeOnFirstUse', () => {
  let kv: SqliteKV;
  let cacher: Cacher | undefined;
  beforeEach(() => {
    kv = openSqliteKV({ path: ':memory:' });
  });
  afterEach(async () => {
    await cacher?.close();
    await kv.close();
  });

  it('reads nothing from storage until first used, then lists once at the revision it was made at', async () => {
    const base = new KVStorage(kv);
    await base.create(`${P}ns/a`, cm('a'));
    const madeAt = await kv.currentRevision();
    const { storage, asked } = recording(kv);
    cacher = new Cacher(storage, { prefix: P, attrs, primeOnFirstUse: true });
    await base.create(`${P}ns/b`, cm('b'));
    expect(asked).toEqual([]);
    expect(cacher.cacheRevision).toBe(0);
    const list = await cacher.list(P);
    expect(list.items.map((o) => o.metadata!.name)).toEqual(['a', 'b']);
    expect(asked).toEqual([`list Exact ${madeAt}`, 'watch']);
    await cacher.get(`${P}ns/a`);
    expect(asked).toHaveLength(2);
  });

  it.each([
    ['made over objects', 1],
    ['made over an empty store', 0],
  ])('%s: a watch from a revision written before the first use (on an empty store, the first write) gets every later change', async (_name, before) => {
    const base = new KVStorage(kv);
    for (let i = 0; i < before; i++) await base.create(`${P}ns/old${i}`, cm(`old${i}`));
    cacher = new Cacher(base, { prefix: P, attrs, primeOnFirstUse: true });
    const a = await base.create(`${P}ns/a`, cm('a'));
    await base.create(`${P}ns/b`, cm('b'));
    await base.guaranteedUpdate(`${P}ns/a`, { tryUpdate: (cur) => ({ ...cur!, data: { v: '2' } }) });
    await base.delete(`${P}ns/b`);
    const events = await take(await cacher.watch(P, { recursive: true, resourceVersion: rv(a) }), 3);
    expect(events.map((e) => [e.type, e.object.metadata!.name])).toEqual([
      ['ADDED', 'b'],
      ['MODIFIED', 'a'],
      ['DELETED', 'b'],
    ]);
  });

  it('a write then a read back, many times: every consistent read sees the write before it', async () => {
    const base = new KVStorage(kv);
    cacher = new Cacher(base, { prefix: P, attrs, primeOnFirstUse: true });
    for (let i = 0; i < 30; i++) {
      const written = await cacher.create(`${P}ns/o${i}`, cm(`o${i}`, String(i)));
      const got = await cacher.get(`${P}ns/o${i}`);
      expect(got?.data).toEqual({ v: String(i) });
      expect(rv(got!)).toBe(rv(written));
      const list = await cacher.list(P);
      expect(list.items).toHaveLength(i + 1);
      expect(Number(list.resourceVersion)).toBeGreaterThanOrEqual(Number(rv(written)));
    }
  });

  it('a store that compacted the revision it was made at: lists at the latest, older watches get 410 Expired', async () => {
    const base = new KVStorage(kv);
    const a = await base.create(`${P}ns/a`, cm('a'));
    cacher = new Cacher(base, { prefix: P, attrs, primeOnFirstUse: true });
    await base.guaranteedUpdate(`${P}ns/a`, { tryUpdate: (cur) => ({ ...cur!, data: { v: '2' } }) });
    const c = await base.create(`${P}ns/c`, cm('c'));
    await kv.compact(await kv.currentRevision());
    const list = await cacher.list(P);
    expect(list.items.map((o) => [o.metadata!.name, o.data])).toEqual([
      ['a', { v: '2' }],
      ['c', { v: '1' }],
    ]);
    expect(list.resourceVersion).toBe(rv(c));
    const [ev] = await take(await cacher.watch(P, { recursive: true, resourceVersion: rv(a) }), 1);
    expect(ev.type).toBe('ERROR');
    expect(ev.object).toMatchObject({ code: 410, reason: 'Expired' });
  });

  it('close before any use reads nothing', async () => {
    const { storage, asked } = recording(kv);
    cacher = new Cacher(storage, { prefix: P, attrs, primeOnFirstUse: true });
    await cacher.close();
    expect(asked).toEqual([]);
  });
});
