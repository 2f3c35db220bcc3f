// Watch-cache behaviour beyond the shared Storage suite: slow watchers are
// cut off without holding back others, events are shared between watchers,
// writes are answered before the fan-out, bursts reach every watcher
// complete and in order (a sweep's events together), bookmarks stay in order, consistent reads that wait for progress, waits for a future
// version, and the ring's eviction.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Obj, Predicate, WatchEvent, WatchStream } from '../interface.ts';
import { openSqliteKV, type SqliteKV } from '../sqlite/index.ts';
import { KVStorage } from '../kvstore/index.ts';
import { Cacher } from './cacher.ts';
import { EventRing } from './ring.ts';
import { ByteArena } from './byte-arena.ts';
import type { EventQueue } from '../stream/event-queue.ts';

const P = '/registry/core/configmaps/';
const attrs = (o: Obj) => ({ labels: o.metadata?.labels ?? {}, fields: { 'metadata.name': o.metadata?.name ?? '' } });
const cm = (name: string): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' }, data: {} });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits (without a time assertion: up to a minute, on any machine) until cond holds. */
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 12000 && !cond(); i++) await sleep(5);
  expect(cond()).toBe(true);
};

function collect(s: WatchStream): WatchEvent[] {
  const out: WatchEvent[] = [];
  void (async () => {
    for await (const e of s) out.push(e);
  })();
  return out;
}

describe('Cacher', () => {
  let kv: SqliteKV;
  let base: KVStorage;
  let cacher: Cacher;
  const make = async (opts: Partial<ConstructorParameters<typeof Cacher>[1]> = {}) => {
    cacher = new Cacher(base, { prefix: P, attrs, ...opts });
    await cacher.whenReady();
    return cacher;
  };
  beforeEach(() => {
    kv = openSqliteKV({ path: ':memory:' });
    base = new KVStorage(kv);
  });
  afterEach(async () => {
    await cacher?.close();
    await kv.close();
  });

  it("serves every object's bytes exactly through updates and deletes that compact its arena", async () => {
    const arena = new ByteArena(2048);
    await make({ arena });
    const startRev = String(await kv.currentRevision());
    const names = Array.from({ length: 40 }, (_, i) => `o${i}`);
    for (const n of names) await cacher.create(`${P}ns/${n}`, cm(n));
    for (let round = 1; round <= 6; round++) {
      for (const [i, n] of names.entries()) {
        if ((i + round) % 4 === 0) continue;
        await cacher.guaranteedUpdate(`${P}ns/${n}`, { tryUpdate: (cur) => ({ ...cur!, data: { round: String(round), pad: 'é'.repeat((i * round) % 50) } }) });
      }
    }
    for (const n of names.slice(0, 10)) await cacher.delete(`${P}ns/${n}`);
    await until(() => cacher.cacheRevision === kv.revisionNow());
    const want = await base.listEncoded(P, {});
    const got = await cacher.listEncoded(P, {});
    expect(got.items.map((i) => Buffer.from(i.bytes!).toString())).toEqual(want.items.map((i) => i.json));
    for (const n of names) {
      const e = await cacher.getEncoded(`${P}ns/${n}`);
      const w = await base.getEncoded(`${P}ns/${n}`);
      expect(e && e.json).toBe(w && w.json);
    }
    // the history read back from the start: each change's object as it was written
    const events = collect(await cacher.watch(P, { recursive: true, resourceVersion: startRev }));
    await until(() => events.length === 40 + 6 * 30 + 10);
    const changes = (await kv.list(P, { end: P.slice(0, -1) + '0', revision: 0 })).revision;
    expect(Number(events.at(-1)!.object.metadata.resourceVersion)).toBe(changes);
    for (const ev of events.filter((e) => e.type === 'MODIFIED')) {
      expect(JSON.parse(ev.json!)).toEqual(ev.object);
      expect(ev.object.data.round).toBeDefined();
    }
  });

  it('lets its arena count its entries as gone once closed', async () => {
    const arena = new ByteArena(1 << 16);
    await make({ arena });
    for (let i = 0; i < 3; i++) await cacher.create(`${P}ns/o${i}`, cm(`o${i}`));
    await until(() => cacher.cacheRevision === kv.revisionNow());
    const json = (await cacher.getEncoded(`${P}ns/o1`))!.json;
    expect(arena.filling.live).toBe((await base.listEncoded(P, {})).items.reduce((n, i) => n + Buffer.byteLength(i.json), 0));
    await cacher.close();
    expect(arena.filling.live).toBe(0);
    expect(JSON.parse(json).metadata.name).toBe('o1');
  });

  it('cuts off a slow watcher without holding back the others', async () => {
    await make({ watchBuffer: 5 });
    const rv = String(await kv.currentRevision());
    const slow = await cacher.watch(P, { recursive: true, resourceVersion: rv });
    const fast = collect(await cacher.watch(P, { recursive: true, resourceVersion: rv }));
    expect(cacher.watcherCount).toBe(2);
    for (let i = 0; i < 20; i++) await cacher.create(`${P}ns/o${i}`, cm(`o${i}`));
    await until(() => fast.length === 20);
    expect(cacher.watcherCount).toBe(1);
    const got: WatchEvent[] = [];
    for await (const e of slow) got.push(e);
    // what it was handed before it fell 5 behind (a sweep's batch comes whole), in order; then its stream ends
    expect(got.length).toBeGreaterThanOrEqual(5);
    expect(got.length).toBeLessThan(20);
    expect(got.map((e) => e.object.metadata.name)).toEqual(Array.from({ length: got.length }, (_, i) => `o${i}`));
  });

  it('does not cut off a watcher that keeps up when a sweep hands it more events than its buffer holds', async () => {
    await make({ watchBuffer: 5 });
    const rv = String(await kv.currentRevision());
    const slow = await cacher.watch(P, { recursive: true, resourceVersion: rv });
    const fast = collect(await cacher.watch(P, { recursive: true, resourceVersion: rv }));
    // writes of one turn share a commit and reach the fan-out together: batches of up to 20
    for (let burst = 0; burst < 3; burst++) await Promise.all(Array.from({ length: 20 }, (_, i) => cacher.create(`${P}ns/o${burst}-${i}`, cm(`o${burst}-${i}`))));
    await until(() => fast.length === 60);
    const r = revs(fast);
    expect(r).toEqual([...r].sort((p, q) => p - q));
    expect(new Set(r).size).toBe(60);
    // the one that reads nothing is cut off once it is 5 behind
    await until(() => cacher.watcherCount === 1);
    expect((slow as EventQueue).overflowed).toBe(true);
  });

  it('hands every watcher the same event object and encoding cache', async () => {
    await make();
    const rv = String(await kv.currentRevision());
    const a = collect(await cacher.watch(P, { recursive: true, resourceVersion: rv }));
    const b = collect(await cacher.watch(P, { recursive: true, resourceVersion: rv }));
    await cacher.create(`${P}ns/x`, cm('x'));
    await until(() => a.length === 1 && b.length === 1);
    expect(a[0]).toBe(b[0]);
    a[0].encoded!.set('json', new Uint8Array([1]));
    expect(b[0].encoded!.get('json')).toEqual(new Uint8Array([1]));
  });

  it('sends periodic bookmarks only to watchers that allow them', async () => {
    await make({ bookmarkIntervalMs: 20 });
    await cacher.create(`${P}ns/x`, cm('x'));
    const rv = String(await kv.currentRevision());
    await sleep(10);
    const yes = collect(await cacher.watch(P, { recursive: true, resourceVersion: rv, allowWatchBookmarks: true }));
    const no = collect(await cacher.watch(P, { recursive: true, resourceVersion: rv }));
    await until(() => yes.length > 0);
    expect(yes.every((e) => e.type === 'BOOKMARK')).toBe(true);
    expect(yes[0].object).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: rv } });
    expect(no.length).toBe(0);
  });

  const revs = (evs: WatchEvent[]) => evs.map((e) => Number(e.object.metadata.resourceVersion));

  it('answers a write before any watcher is handed its event; then every watcher gets every event in order', async () => {
    await make({ fanoutSliceMs: 0.01 });
    const rv = String(await kv.currentRevision());
    const streams = await Promise.all(Array.from({ length: 300 }, () => cacher.watch(P, { recursive: true, resourceVersion: rv })));
    const written = Number((await cacher.create(`${P}ns/o0`, cm('o0'))).metadata.resourceVersion);
    // the cache has the change within the same turn; the watchers are handed it on later ones
    for (let i = 0; i < 100 && cacher.cacheRevision < written; i++) await null;
    expect(cacher.cacheRevision).toBe(written);
    expect(streams.every((s) => (s as EventQueue).buffered === 0)).toBe(true);
    const got = streams.map(collect);
    for (let i = 1; i < 10; i++) await cacher.create(`${P}ns/o${i}`, cm(`o${i}`));
    await until(() => got.every((g) => g.length === 10));
    const names = Array.from({ length: 10 }, (_, i) => `o${i}`);
    for (const g of got) expect(g.map((e) => e.object.metadata.name)).toEqual(names);
    expect(new Set(got.map((g) => g[9])).size).toBe(1);
  });

  it('under bursts of concurrent writes and bookmarks, every watcher gets every change it matches once, in revision order, a sweep at a time', async () => {
    await make({ fanoutSliceMs: 0.01 });
    const rv = String(await kv.currentRevision());
    const even: Predicate = { label: { matches: (l) => l.half === 'even', empty: () => false }, attrs };
    const kinds = ['plain', 'bookmarks', 'even'] as const;
    const watches = await Promise.all(
      Array.from({ length: 60 }, (_, i) => {
        const kind = kinds[i % 3];
        return cacher.watch(P, { recursive: true, resourceVersion: rv, allowWatchBookmarks: kind === 'bookmarks', predicate: kind === 'even' ? even : undefined });
      }),
    );
    // how often each stream was told that events arrived
    const wakes = watches.map(() => 0);
    const got = watches.map((w, i) => {
      const out: WatchEvent[] = [];
      const q = w as EventQueue;
      q.listen(() => {
        wakes[i]++;
        out.push(...q.takeBuffered());
      });
      return out;
    });
    const labelled = (n: number): Obj => ({ ...cm(`o${n}`), metadata: { name: `o${n}`, namespace: 'ns', labels: { half: n % 2 ? 'odd' : 'even' } } });
    let n = 0;
    for (let burst = 0; burst < 5; burst++) {
      // writes of one turn share a commit; the fan-out sees them as one batch or several
      await Promise.all(Array.from({ length: 40 }, () => cacher.create(`${P}ns/o${n}`, labelled(n++))));
      cacher.sendBookmarks();
    }
    const all = Array.from({ length: n }, (_, i) => `o${i}`);
    const wanted = (i: number) => (kinds[i % 3] === 'even' ? all.filter((_, k) => k % 2 === 0) : all);
    await until(() => got.every((g, i) => g.filter((e) => e.type === 'ADDED').length === wanted(i).length));
    await until(() => got.every((g, i) => kinds[i % 3] !== 'bookmarks' || g.filter((e) => e.type === 'BOOKMARK').length === 5));
    for (let i = 0; i < got.length; i++) {
      const g = got[i];
      expect(g.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name)).toEqual(wanted(i));
      expect(g.every((e) => e.type === 'ADDED' || (e.type === 'BOOKMARK' && kinds[i % 3] === 'bookmarks'))).toBe(true);
      const r = revs(g);
      expect(r).toEqual([...r].sort((p, q) => p - q));
      // several events per wake: a sweep's events reach a stream together
      expect(wakes[i]).toBeLessThan(g.length);
    }
  });

  it("watchers that watch the same way share a sweep's events, and each still gets exactly what it selects, once, in order", async () => {
    await make({ fanoutSliceMs: 0.01 });
    const rv = String(await kv.currentRevision());
    const half = (v: string): Predicate => ({ label: { matches: (l) => l.half === v, empty: () => false }, attrs });
    const even = half('even');
    const noSelector: Predicate = { label: { matches: () => true, empty: () => true }, attrs };
    // neighbours of the same way share; every change of way (key, scope, bookmarks, selector) must not
    const rows: { key: string; recursive?: boolean; bookmarks?: boolean; predicate?: Predicate; wants: (ns: string, n: number) => boolean }[] = [
      { key: P, wants: () => true },
      { key: P, predicate: noSelector, wants: () => true },
      { key: P, bookmarks: true, wants: () => true },
      { key: P, bookmarks: true, wants: () => true },
      { key: P, predicate: even, wants: (_, n) => n % 2 === 0 },
      { key: P, predicate: even, wants: (_, n) => n % 2 === 0 },
      { key: P, predicate: half('odd'), wants: (_, n) => n % 2 === 1 },
      { key: P, predicate: half('even'), wants: (_, n) => n % 2 === 0 },
      { key: `${P}other/`, wants: (ns) => ns === 'other' },
      { key: `${P}other/`, wants: (ns) => ns === 'other' },
      { key: `${P}ns/o3`, recursive: false, wants: (ns, n) => ns === 'ns' && n === 3 },
      { key: `${P}ns/o4`, recursive: false, wants: (ns, n) => ns === 'ns' && n === 4 },
      { key: P, wants: () => true },
    ];
    const got = await Promise.all(
      rows.map(async (r) => collect(await cacher.watch(r.key, { recursive: r.recursive ?? true, resourceVersion: rv, allowWatchBookmarks: r.bookmarks, predicate: r.predicate }))),
    );
    const written: { ns: string; n: number }[] = [];
    for (let burst = 0; burst < 4; burst++) {
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => {
          const n = burst * 12 + i;
          const ns = n % 3 === 0 ? 'other' : 'ns';
          written.push({ ns, n });
          return cacher.create(`${P}${ns}/o${n}`, { ...cm(`o${n}`), metadata: { name: `o${n}`, namespace: ns, labels: { half: n % 2 ? 'odd' : 'even' } } });
        }),
      );
      cacher.sendBookmarks();
    }
    const wanted = rows.map((r) => written.filter((w) => r.wants(w.ns, w.n)).map((w) => `${w.ns}/o${w.n}`));
    const names = (evs: WatchEvent[]) => evs.filter((e) => e.type === 'ADDED').map((e) => `${e.object.metadata.namespace}/${e.object.metadata.name}`);
    await until(() => got.every((g, i) => names(g).length === wanted[i].length && (!rows[i].bookmarks || g.filter((e) => e.type === 'BOOKMARK').length === 4)));
    for (let i = 0; i < rows.length; i++) {
      expect(names(got[i]).sort()).toEqual([...wanted[i]].sort());
      const r = revs(got[i]);
      expect(r).toEqual([...r].sort((p, q) => p - q));
      expect(got[i].filter((e) => e.type === 'BOOKMARK').length).toBe(rows[i].bookmarks ? 4 : 0);
    }
  });

  it('a watcher that starts between a write and its sweep gets that change once, and the watchers before it get it too', async () => {
    await make();
    const rv = String(await kv.currentRevision());
    const early = await Promise.all([0, 1].map(async () => collect(await cacher.watch(P, { recursive: true, resourceVersion: rv }))));
    const a = await cacher.create(`${P}ns/a`, cm('a'));
    // registered before the sweep that hands out `a` (the fan-out runs on a later turn)
    const late = collect(await cacher.watch(P, { recursive: true, resourceVersion: rv }));
    const after = collect(await cacher.watch(P, { recursive: true, resourceVersion: a.metadata.resourceVersion }));
    await cacher.create(`${P}ns/b`, cm('b'));
    await until(() => [...early, late].every((g) => g.length === 2) && after.length === 1);
    for (const g of [...early, late]) expect(g.map((e) => e.object.metadata.name)).toEqual(['a', 'b']);
    expect(after.map((e) => e.object.metadata.name)).toEqual(['b']);
  });

  it('a bookmark never claims a revision whose change the watcher was not yet handed', async () => {
    await make({ fanoutSliceMs: 0 });
    const rv = String(await kv.currentRevision());
    const a = await cacher.watch(P, { recursive: true, resourceVersion: rv, allowWatchBookmarks: true });
    const b = collect(await cacher.watch(P, { recursive: true, resourceVersion: rv, allowWatchBookmarks: true }));
    const seen = collect(a);
    await cacher.create(`${P}ns/x`, cm('x'));
    a.requestProgress!();
    cacher.sendBookmarks();
    await cacher.create(`${P}ns/y`, cm('y'));
    await until(() => seen.length === 4 && b.length === 3);
    expect(seen.map((e) => e.type).sort()).toEqual(['ADDED', 'ADDED', 'BOOKMARK', 'BOOKMARK']);
    expect(seen.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name)).toEqual(['x', 'y']);
    expect(b.map((e) => e.type).sort()).toEqual(['ADDED', 'ADDED', 'BOOKMARK']);
    for (const evs of [seen, b]) {
      const r = revs(evs);
      expect(r).toEqual([...r].sort((p, q) => p - q));
    }
    expect(revs(seen)[0]).toBe(Number(rv));
  });

  it("serves a consistent list at the store's revision even after writes elsewhere", async () => {
    await make();
    await cacher.create(`${P}ns/x`, cm('x'));
    await kv.create('/registry/core/secrets/ns/s', '{}');
    const res = await cacher.list(P);
    expect(res.resourceVersion).toBe(String(await kv.currentRevision()));
    expect(res.items.map((o) => o.metadata.name)).toEqual(['x']);
  });

  it('a get without resourceVersion sees every acknowledged write (read back in tight loops, many at once)', async () => {
    await make();
    let served = 0;
    const loop = async (n: number) => {
      for (let i = 0; i < 30; i++) {
        const key = `${P}ns/l${n}`;
        const data = { round: String(i) };
        const written = i === 0 ? await cacher.create(key, { ...cm(`l${n}`), data }) : await cacher.guaranteedUpdate(key, { tryUpdate: (cur) => ({ ...cur!, data }) });
        const read = await cacher.get(key);
        expect(read!.data).toEqual(data);
        expect(read!.metadata.resourceVersion).toBe(written.metadata.resourceVersion);
        served++;
      }
      await cacher.delete(`${P}ns/l${n}`);
      expect(await cacher.get(`${P}ns/l${n}`)).toBeNull();
    };
    await Promise.all(Array.from({ length: 20 }, (_, n) => loop(n)));
    expect(served).toBe(600);
  });

  it('a consistent get after writes to other resources is answered once the cache has caught up', async () => {
    await make();
    await cacher.create(`${P}ns/x`, cm('x'));
    await kv.create('/registry/core/secrets/ns/s', '{}');
    expect((await cacher.get(`${P}ns/x`))!.metadata.name).toBe('x');
  });

  it('waits for a version not yet seen, then times out with 504', async () => {
    await make({ freshnessTimeoutMs: 150 });
    const next = (await kv.currentRevision()) + 1;
    const pending = cacher.get(`${P}ns/late`, { resourceVersion: String(next) });
    await sleep(20);
    await cacher.create(`${P}ns/late`, cm('late'));
    expect((await pending)!.metadata.name).toBe('late');
    const far = (await kv.currentRevision()) + 100;
    const err = await cacher.list(P, { resourceVersion: String(far) }).catch((e) => e);
    expect(err.code).toBe(504);
    expect(err.statusMessage).toBe(`Timeout: Too large resource version: ${far}, current: ${await kv.currentRevision()}`);
  });

  it('serves resourceVersion=0 with a limit from memory, whole', async () => {
    await make();
    for (let i = 0; i < 3; i++) await cacher.create(`${P}ns/o${i}`, cm(`o${i}`));
    const written = await kv.currentRevision();
    await until(() => cacher.cacheRevision >= written);
    const res = await cacher.list(P, { resourceVersion: '0', limit: 1 });
    expect(res.items.length).toBe(3);
    expect(res.continue).toBeUndefined();
    const paged = await cacher.list(P, { limit: 1 });
    expect(paged.items.length).toBe(1);
    expect(paged.continue).toBeTruthy();
  });

  it('returns copies from get so callers may change them', async () => {
    await make();
    await cacher.create(`${P}ns/x`, cm('x'));
    const written = await kv.currentRevision();
    await until(() => cacher.cacheRevision >= written);
    const a = (await cacher.get(`${P}ns/x`, { resourceVersion: '0' }))!;
    a.data.changed = 'yes';
    const b = (await cacher.get(`${P}ns/x`, { resourceVersion: '0' }))!;
    expect(b.data.changed).toBeUndefined();
  });

  it('keeps served JSON: list items are fresh copies, JSON items are the strings a get serializes to', async () => {
    await make();
    await cacher.create(`${P}ns/x`, { ...cm('x'), data: { k: 'é' } });
    await cacher.create(`${P}ns/y`, cm('y'));
    const a = await cacher.list(P);
    a.items[0].data.changed = 'yes';
    const b = await cacher.list(P);
    expect(b.items[0].data.changed).toBeUndefined();
    const enc = await cacher.listEncoded(P);
    expect(enc.resourceVersion).toBe(b.resourceVersion);
    expect(enc.items.map((i) => i.json)).toEqual(b.items.map((o) => JSON.stringify(o)));
    expect(enc.items.map((i) => i.apiVersion)).toEqual(['v1', 'v1']);
    expect((await cacher.getEncoded(`${P}ns/x`))!.json).toBe(JSON.stringify(await cacher.get(`${P}ns/x`)));
    expect(await cacher.getEncoded(`${P}ns/none`)).toBeNull();
  });

  describe('getEncoded answers at once when the cache is known to be fresh enough', () => {
    const isPromise = (v: unknown) => v instanceof Promise;
    it("without resourceVersion, once the cache has seen the store's revision; a missing object is null", async () => {
      await make();
      await cacher.create(`${P}ns/x`, cm('x'));
      const cur = await kv.currentRevision();
      await cacher.getEncoded(`${P}ns/x`, { resourceVersion: String(cur) }); // the cache has caught up
      const now = cacher.getEncoded(`${P}ns/x`);
      expect(isPromise(now)).toBe(false);
      expect((now as { json: string }).json).toBe(JSON.stringify(await cacher.get(`${P}ns/x`)));
      expect(cacher.getEncoded(`${P}ns/none`)).toBeNull();
      for (const rv of ['0', String(cur)]) expect(isPromise(cacher.getEncoded(`${P}ns/x`, { resourceVersion: rv }))).toBe(false);
    });

    it('waits (a promise) while the store is ahead of the cache, or cannot say its revision', async () => {
      await make();
      await cacher.create(`${P}ns/x`, cm('x'));
      const cur = await kv.currentRevision();
      await cacher.getEncoded(`${P}ns/x`, { resourceVersion: String(cur) });
      const ahead = vi.spyOn(base, 'revisionNow').mockReturnValue(cur + 1);
      const later = cacher.getEncoded(`${P}ns/x`);
      expect(isPromise(later)).toBe(true);
      ahead.mockReturnValue(undefined);
      expect(isPromise(cacher.getEncoded(`${P}ns/x`))).toBe(true);
      ahead.mockRestore();
      // the consistent read waited for the store's revision (a progress notification brings the cache there) or asked storage
      expect(((await later) as { json: string }).json).toContain('"name":"x"');
    });

    it('a resourceVersion the cache has not reached waits, and is too large once the wait times out', async () => {
      await make({ freshnessTimeoutMs: 20 });
      const cur = await kv.currentRevision();
      const future = cacher.getEncoded(`${P}ns/x`, { resourceVersion: String(cur + 100) });
      expect(isPromise(future)).toBe(true);
      await expect(future).rejects.toThrow(/Too large resource version/i);
    });

    it('a write acknowledged before the read is always seen (tight loop)', async () => {
      await make();
      await cacher.create(`${P}ns/x`, { ...cm('x'), data: { n: '0' } });
      for (let i = 1; i <= 50; i++) {
        await cacher.guaranteedUpdate(`${P}ns/x`, { tryUpdate: (o) => ({ ...o!, data: { n: String(i) } }) });
        const got = (await cacher.getEncoded(`${P}ns/x`))!;
        expect(JSON.parse(got.json).data.n).toBe(String(i));
      }
    });
  });

  it('hands watchers the object the change came with and keeps only strings in the ring', async () => {
    await make();
    const rv = String(await kv.currentRevision());
    const live = collect(await cacher.watch(P, { recursive: true, resourceVersion: rv }));
    await cacher.create(`${P}ns/x`, cm('x'));
    await cacher.guaranteedUpdate(`${P}ns/x`, { tryUpdate: (o) => ({ ...o!, data: { v: '2' } }) });
    await until(() => live.length >= 2);
    expect(live.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED']);
    for (const e of live) expect(e.json).toBe(JSON.stringify(e.object));
    const ring = (cacher as unknown as { ring: EventRing<unknown> }).ring;
    const held = ring.since(Number(rv))!;
    expect(held.length).toBe(2);
    // no watch event (and no object parsed for one) stays in the ring once delivered
    expect(held.every((ce) => ce.shared === undefined && typeof ce.json === 'string')).toBe(true);
    const replay = collect(await cacher.watch(P, { recursive: true, resourceVersion: rv }));
    await until(() => replay.length >= 2);
    expect(replay.map((e) => e.object)).toEqual(live.map((e) => e.object));
    expect(replay[0].object).not.toBe(live[0].object);
    expect(held.every((ce) => ce.shared === undefined)).toBe(true);
  });

  it('builds initial events from the cached JSON', async () => {
    await make();
    await cacher.create(`${P}ns/x`, cm('x'));
    const w = collect(await cacher.watch(P, { recursive: true, sendInitialEvents: true, allowWatchBookmarks: true, resourceVersionMatch: 'NotOlderThan', resourceVersion: '' }));
    await until(() => w.length > 0);
    expect(w[0].type).toBe('ADDED');
    expect(w[0].json).toBe(JSON.stringify(await cacher.get(`${P}ns/x`)));
    expect(w[0].object).toBe(w[0].object);
    expect(w[0].object).toEqual(await cacher.get(`${P}ns/x`));
  });
});

describe('EventRing', () => {
  /** Events as the ring gives them back: the entry stands for itself here. */
  const make = (kind: 'create' | 'update' | 'delete', cur: string, rev: number, prev: string | undefined, at: number) => ({
    kind,
    key: cur,
    rev,
    obj: {},
    attrs: { labels: {}, fields: {} },
    at,
    prevJson: prev,
  });
  const ring = (startRev: number, windowMs: number, max: number, now: () => number) => new EventRing<string>(startRev, windowMs, max, make, now);
  const push = (r: EventRing<string>, rev: number, at = 0) => r.push('create', `k${rev}`, rev, undefined, at);

  it('evicts by count and answers 410 for evicted versions', () => {
    const r = ring(10, 60_000, 3, () => 0);
    for (let rev = 11; rev <= 15; rev++) push(r, rev);
    expect(r.size).toBe(3);
    expect(r.oldestRev).toBe(12);
    expect(r.since(11)).toBeNull();
    expect(r.since(12)!.map((e) => e.rev)).toEqual([13, 14, 15]);
    expect(r.since(14)!.map((e) => e.rev)).toEqual([15]);
    expect(r.since(15)).toEqual([]);
  });
  it('evicts by age', () => {
    let now = 0;
    const r = ring(0, 100, 1000, () => now);
    push(r, 1, 0);
    now = 50;
    push(r, 2, 50);
    now = 120;
    expect(r.since(0)).toBeNull();
    expect(r.since(1)!.map((e) => e.rev)).toEqual([2]);
  });
  it('keeps nothing with a capacity of none', () => {
    const r = ring(3, 1000, 0, () => 0);
    push(r, 4);
    expect(r.size).toBe(0);
    expect(r.since(3)).toBeNull();
    expect(r.since(4)).toEqual([]);
  });
  // against a plain array of the same events, through growth and wrap-around, gaps in revisions and evictions by both rules
  it.each([
    ['capacity below the first slots', 5, 3000, 40],
    ['capacity past one doubling', 1500, 10_000, 5000],
    ['capacity far above the events', 100_000, 10_000, 4000],
    ['a short window', 100_000, 200, 5000],
  ])('gives what a plain list would: %s', (_name, max, windowMs, n) => {
    let now = 0;
    const r = ring(0, windowMs, max, () => now);
    const model: { kind: string; cur: string; rev: number; prev: string | undefined; at: number }[] = [];
    let oldest = 0;
    let rev = 0;
    const kinds = ['create', 'update', 'delete'] as const;
    for (let i = 0; i < n; i++) {
      now += i % 7;
      rev += 1 + (i % 3);
      const e = { kind: kinds[i % 3], cur: `k${i % 50}`, rev, prev: i % 3 ? `p${i}` : undefined, at: now };
      r.push(e.kind, e.cur, e.rev, e.prev, e.at);
      model.push(e);
      while (model.length > max || (model.length && model[0].at < now - windowMs)) oldest = model.shift()!.rev;
      if (i % 97 === 0 || i === n - 1) {
        expect(r.size).toBe(model.length);
        expect(r.oldestRev).toBe(oldest);
        for (const from of [oldest - 1, oldest, model[0]?.rev ?? rev, rev - 5, rev]) {
          const got = r.since(from);
          if (from < oldest) {
            expect(got).toBeNull();
            continue;
          }
          const want = model.filter((m) => m.rev > from).map((m) => [m.kind, m.cur, m.rev, m.prev, m.at]);
          expect(got!.map((g) => [g.kind, g.key, g.rev, g.prevJson, g.at])).toEqual(want);
        }
      }
    }
  });
});
