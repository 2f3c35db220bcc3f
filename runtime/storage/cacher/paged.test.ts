// Paged lists from the watch cache: every page the cache answers (a first
// page at the latest revision, a continue token at the cache's own revision)
// is what the storage under it answers for the same options, items, continue
// token and remainingItemCount alike; pages it must not answer (an older
// revision, Exact, resourceVersion=0 with its limit ignored) keep their
// meaning, and a token from before a write still reads the old snapshot.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EncodedListResult, ListOptions, Obj, ObjectAttrs, Predicate } from '../interface.ts';
import { openSqliteKV, type SqliteKV } from '../sqlite/index.ts';
import { KVStorage } from '../kvstore/index.ts';
import { decodeContinue, encodeContinue } from '../kvstore/continue.ts';
import { parseLabelSelector } from '../selectors/labels.ts';
import { parseFieldSelector } from '../selectors/fields.ts';
import { Cacher } from './cacher.ts';

const P = '/registry/core/configmaps/';
const attrs = (o: Obj): ObjectAttrs => ({
  labels: o.metadata?.labels ?? {},
  fields: { 'metadata.name': o.metadata?.name ?? '', 'metadata.namespace': o.metadata?.namespace ?? '' },
});
const pred = (label = '', field = ''): Predicate => ({ label: parseLabelSelector(label), field: parseFieldSelector(field), attrs });
const cm = (ns: string, name: string, i: number): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns, labels: { shard: String(i % 3), ...(i % 4 === 0 ? { four: 'yes' } : {}) } },
  data: { i: String(i), text: 'é😀 "q" \\' },
});

/** The parts of a list two answers must agree on. */
const shape = (l: EncodedListResult) => ({ items: l.items.map((i) => i.json), resourceVersion: l.resourceVersion, continue: l.continue, remainingItemCount: l.remainingItemCount });

describe('paged lists from the watch cache', () => {
  let kv: SqliteKV;
  let base: KVStorage;
  let cacher: Cacher;
  beforeEach(async () => {
    kv = openSqliteKV({ path: ':memory:' });
    base = new KVStorage(kv);
    cacher = new Cacher(base, { prefix: P, attrs });
    await cacher.whenReady();
    let i = 0;
    for (const ns of ['a', 'b', 'c']) for (let n = 0; n < 7; n++, i++) await cacher.create(`${P}${ns}/o${n}`, cm(ns, `o${n}`, i));
    // a changed one and a deleted one
    await cacher.guaranteedUpdate(`${P}b/o3`, { tryUpdate: (o) => ({ ...o, data: { changed: 'yes' } }) });
    await cacher.delete(`${P}c/o0`);
    await cacher.list(P, {}); // the cache has caught up
  });
  afterEach(async () => {
    await cacher.close();
    await kv.close();
  });

  const cases: [string, string, ListOptions][] = [
    ['all, limit 4', P, { limit: 4 }],
    ['all, limit 1', P, { limit: 1 }],
    ['all, limit larger than the list', P, { limit: 100 }],
    ['all, limit exactly the list', P, { limit: 20 }],
    ['a namespace, limit 3', `${P}b/`, { limit: 3 }],
    ['a namespace, limit 7 (its size)', `${P}a/`, { limit: 7 }],
    ['an empty namespace', `${P}none/`, { limit: 2 }],
    ['label selector, limit 2', P, { limit: 2, predicate: pred('shard=1') }],
    ['label selector matching nothing', P, { limit: 2, predicate: pred('shard=9') }],
    ['label selector whose last match ends a page', P, { limit: 2, predicate: pred('four') }],
    ['field selector, limit 2', P, { limit: 2, predicate: pred('', 'metadata.namespace!=b') }],
    ['NotOlderThan a reached version, limit 5', P, { limit: 5, resourceVersion: '1', resourceVersionMatch: 'NotOlderThan' }],
  ];

  it.each(cases)('%s: every page as storage answers it, all but none from memory', async (_name, prefix, opts) => {
    const spy = vi.spyOn(base, 'listEncoded');
    let token: string | undefined;
    let pages = 0;
    do {
      const o: ListOptions = token ? { ...opts, continue: token, resourceVersion: undefined, resourceVersionMatch: undefined } : opts;
      const fromCache = await cacher.listEncoded(prefix, o);
      const calls = spy.mock.calls.length;
      const fromStorage = await base.listEncoded(prefix, o);
      expect(spy.mock.calls.length).toBe(calls + 1);
      expect(shape(fromCache)).toEqual(shape(fromStorage));
      // the parsed form pages the same way
      const parsed = await cacher.list(prefix, o);
      expect(parsed.items.map((x) => JSON.stringify(x))).toEqual(shape(fromStorage).items);
      expect(parsed.continue).toBe(fromStorage.continue);
      expect(parsed.remainingItemCount).toBe(fromStorage.remainingItemCount);
      token = fromCache.continue;
      pages++;
    } while (token);
    // the only storage lists were the ones this test made
    expect(spy.mock.calls.length).toBe(pages);
    expect(pages).toBeGreaterThan(0);
  });

  it('a token from before a write reads the old snapshot from storage', async () => {
    const first = await cacher.listEncoded(P, { limit: 5 });
    await cacher.create(`${P}a/o00`, cm('a', 'o00', 99)); // sorts inside the next page
    await cacher.delete(`${P}a/o6`);
    await cacher.list(P, {});
    const spy = vi.spyOn(base, 'listEncoded');
    const second = await cacher.listEncoded(P, { limit: 5, continue: first.continue });
    expect(spy).toHaveBeenCalledTimes(1);
    expect(second.resourceVersion).toBe(first.resourceVersion);
    expect(second.items.map((i) => JSON.parse(i.json).metadata.name)).toEqual(['o5', 'o6', 'o0', 'o1', 'o2']);
    expect(second.remainingItemCount).toBe(20 - 10);
  });

  it('leaves to storage what only storage can answer', async () => {
    const spy = vi.spyOn(base, 'listEncoded');
    const rev = cacher.cacheRevision;
    // Exact, a version the cache has not reached, a token at "latest" (-1), a garbage token, a version beside a token
    await cacher.listEncoded(P, { limit: 2, resourceVersion: String(rev), resourceVersionMatch: 'Exact' });
    await expect(cacher.listEncoded(P, { limit: 2, resourceVersion: String(rev + 50), resourceVersionMatch: 'NotOlderThan' })).rejects.toThrow(/Too large resource version/);
    const latest = await cacher.listEncoded(P, { limit: 2, continue: encodeContinue(`${P}b/o0`, P, -1) });
    expect(latest.items.map((i) => JSON.parse(i.json).metadata.namespace)).toEqual(['b', 'b']);
    await expect(cacher.listEncoded(P, { limit: 2, continue: 'garbage!' })).rejects.toThrow(/invalid continue token/);
    const token = (await cacher.listEncoded(P, { limit: 2 })).continue!;
    expect(decodeContinue(token, P).rev).toBe(rev);
    await expect(cacher.listEncoded(P, { limit: 2, continue: token, resourceVersion: '5' })).rejects.toThrow('specifying resource version is not allowed when using continue');
    expect(spy).toHaveBeenCalledTimes(5);
  });

  it('serves resourceVersion=0 whole from memory, its limit ignored (as upstream)', async () => {
    const spy = vi.spyOn(base, 'listEncoded');
    const l = await cacher.listEncoded(P, { limit: 2, resourceVersion: '0' });
    expect(l.items.length).toBe(20);
    expect(l.continue).toBeUndefined();
    expect(spy).not.toHaveBeenCalled();
  });
});
