// The storage test suites, written once and run against every backend:
// describeKVSuite for the KV contract (SQLite now, etcd later) and
// describeStorageSuite for the object layer (KVStorage over a KV, Cacher over
// a Storage). A test file calls them with a factory that opens a fresh store.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CompactedError,
  ConflictError,
  FutureRevisionError,
  InvalidRequestError,
  KeyExistsError,
  NotFoundError,
  PreconditionError,
  type KV,
  type KVEvent,
  type Obj,
  type ObjectAttrs,
  type Predicate,
  type Storage,
  type WatchEvent,
  type WatchStream,
} from '../../runtime/storage/interface.ts';
import { EXPIRED_LIST_MESSAGE, INCONSISTENT_CONTINUE_MESSAGE, ListOptionsInvalidError, ResourceExpiredError, TooLargeResourceVersionError } from '../../runtime/storage/errors.ts';
import { parseLabelSelector } from '../../runtime/storage/selectors/labels.ts';
import { parseFieldSelector } from '../../runtime/storage/selectors/fields.ts';

// ---------------------------------------------------------------------------
// KV suite

export interface KVFixture {
  kv: KV;
  close(): Promise<void>;
}

const tick = () => new Promise((r) => setTimeout(r, 5));

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await tick();
  }
}

export function describeKVSuite(name: string, open: () => Promise<KVFixture>): void {
  describe(`KV contract: ${name}`, () => {
    let f: KVFixture;
    let kv: KV;
    beforeEach(async () => {
      f = await open();
      kv = f.kv;
    });
    afterEach(async () => {
      await f.close();
    });

    it('creates, reads and refuses a second create', async () => {
      const r0 = await kv.currentRevision();
      expect(r0).toBeGreaterThanOrEqual(1);
      const a = await kv.create('/t/a', 'A1');
      expect(a).toEqual({ key: '/t/a', value: 'A1', createRevision: r0 + 1, modRevision: r0 + 1 });
      expect(await kv.get('/t/a')).toEqual(a);
      expect(await kv.get('/t/missing')).toBeNull();
      await expect(kv.create('/t/a', 'again')).rejects.toBeInstanceOf(KeyExistsError);
      expect(await kv.currentRevision()).toBe(r0 + 1);
    });

    it('updates only at the expected revision', async () => {
      const a = await kv.create('/t/a', 'A1');
      const b = await kv.update('/t/a', 'A2', a.modRevision);
      expect(b.value).toBe('A2');
      expect(b.createRevision).toBe(a.createRevision);
      expect(b.modRevision).toBeGreaterThan(a.modRevision);
      await expect(kv.update('/t/a', 'A3', a.modRevision)).rejects.toBeInstanceOf(ConflictError);
      await expect(kv.update('/t/none', 'x', 1)).rejects.toBeInstanceOf(NotFoundError);
      expect((await kv.get('/t/a'))!.value).toBe('A2');
    });

    it('deletes with and without a precondition', async () => {
      const a = await kv.create('/t/a', 'A1');
      await kv.create('/t/b', 'B1');
      await expect(kv.delete('/t/a', a.modRevision + 100)).rejects.toBeInstanceOf(ConflictError);
      const d = await kv.delete('/t/a', a.modRevision);
      expect(d.value).toBe('A1');
      expect(d.modRevision).toBe(await kv.currentRevision());
      expect(await kv.get('/t/a')).toBeNull();
      await kv.delete('/t/b');
      await expect(kv.delete('/t/b')).rejects.toBeInstanceOf(NotFoundError);
      // A key can be created again after a delete.
      const again = await kv.create('/t/a', 'A9');
      expect(again.createRevision).toBe(again.modRevision);
    });

    it('reads at a past revision', async () => {
      const a1 = await kv.create('/t/a', 'A1');
      const a2 = await kv.update('/t/a', 'A2', a1.modRevision);
      await kv.delete('/t/a');
      expect(await kv.get('/t/a')).toBeNull();
      expect((await kv.get('/t/a', a1.modRevision))!.value).toBe('A1');
      expect((await kv.get('/t/a', a2.modRevision))!.value).toBe('A2');
      expect(await kv.get('/t/a', a1.modRevision - 1)).toBeNull();
      await expect(kv.get('/t/a', (await kv.currentRevision()) + 10)).rejects.toBeInstanceOf(FutureRevisionError);
    });

    it('lists a prefix in key order with limit, count and start key', async () => {
      for (const k of ['c', 'a', 'b', 'd']) await kv.create(`/t/${k}`, k);
      await kv.create('/u/x', 'x');
      await kv.create('/t', 'not under the prefix');
      const all = await kv.list('/t/');
      expect(all.kvs.map((x) => x.key)).toEqual(['/t/a', '/t/b', '/t/c', '/t/d']);
      expect(all.more).toBe(false);
      expect(all.revision).toBe(await kv.currentRevision());
      const page = await kv.list('/t/', { limit: 2, count: true });
      expect(page.kvs.map((x) => x.value)).toEqual(['a', 'b']);
      expect(page.more).toBe(true);
      expect(page.count).toBe(4);
      const rest = await kv.list('/t/b\x00', { end: '/t0', limit: 2, count: true });
      expect(rest.kvs.map((x) => x.value)).toEqual(['c', 'd']);
      expect(rest.more).toBe(false);
      expect(rest.count).toBe(2);
    });

    it('lists at a past revision, including keys changed or deleted since', async () => {
      const a = await kv.create('/t/a', 'a1');
      await kv.create('/t/b', 'b1');
      const c = await kv.create('/t/c', 'c1');
      const rev = await kv.currentRevision();
      await kv.update('/t/a', 'a2', a.modRevision);
      await kv.delete('/t/b');
      await kv.create('/t/d', 'd1');
      await kv.update('/t/c', 'c2', c.modRevision);
      const past = await kv.list('/t/', { revision: rev, count: true });
      expect(past.kvs.map((x) => x.value)).toEqual(['a1', 'b1', 'c1']);
      expect(past.count).toBe(3);
      expect(past.revision).toBe(rev);
      const page = await kv.list('/t/', { revision: rev, limit: 2, count: true });
      expect(page.kvs.map((x) => x.value)).toEqual(['a1', 'b1']);
      expect(page.more).toBe(true);
      expect(page.count).toBe(3);
      const now = await kv.list('/t/');
      expect(now.kvs.map((x) => x.value)).toEqual(['a2', 'c2', 'd1']);
      await expect(kv.list('/t/', { revision: (await kv.currentRevision()) + 1 })).rejects.toBeInstanceOf(FutureRevisionError);
    });

    it('gives each of many concurrent writes its own revision', async () => {
      const start = await kv.currentRevision();
      const res = await Promise.all(Array.from({ length: 200 }, (_, i) => kv.create(`/c/${String(i).padStart(3, '0')}`, String(i))));
      const revs = res.map((r) => r.modRevision).sort((a, b) => a - b);
      expect(new Set(revs).size).toBe(200);
      expect(revs[0]).toBe(start + 1);
      expect(revs[199]).toBe(start + 200);
      // A failing write in the batch does not fail the others.
      const mixed = await Promise.allSettled([kv.create('/c/000', 'dup'), kv.create('/c/new', 'ok')]);
      expect(mixed[0].status).toBe('rejected');
      expect(mixed[1].status).toBe('fulfilled');
    });

    it('watches a prefix from a revision: backlog then live, with prevKv', async () => {
      const a = await kv.create('/w/a', 'a1');
      const from = a.modRevision;
      await kv.update('/w/a', 'a2', a.modRevision);
      await kv.create('/other/x', 'x');
      const got: KVEvent[] = [];
      const w = kv.watch('/w/', { afterRevision: from, onEvents: (evs) => got.push(...evs) });
      await kv.create('/w/b', 'b1');
      await kv.delete('/w/a');
      await until(() => got.length >= 3);
      w.close();
      expect(got.map((e) => `${e.type} ${e.kv.key} ${e.kv.value}`)).toEqual(['PUT /w/a a2', 'PUT /w/b b1', 'DELETE /w/a ']);
      expect(got[0].prevKv?.value).toBe('a1');
      expect(got[1].prevKv).toBeUndefined();
      expect(got[2].prevKv?.value).toBe('a2');
      expect(got[2].kv.modRevision).toBe(await kv.currentRevision());
      const revs = got.map((e) => e.kv.modRevision);
      expect([...revs].sort((x, y) => x - y)).toEqual(revs);
      await kv.create('/w/c', 'after close');
      await tick();
      expect(got.length).toBe(3);
    });

    it('answers a progress request with the current revision', async () => {
      await kv.create('/p/a', '1');
      let progress = 0;
      const w = kv.watch('/q/', {
        afterRevision: await kv.currentRevision(),
        onEvents: () => {},
        onProgress: (r) => {
          progress = r;
        },
      });
      await kv.create('/p/b', '2');
      if (!w.requestProgress) {
        w.close();
        return;
      }
      w.requestProgress();
      await until(() => progress > 0);
      expect(progress).toBe(await kv.currentRevision());
      w.close();
    });

    it('compacts history but keeps the current values', async () => {
      const a = await kv.create('/k/a', 'a1');
      const a2 = await kv.update('/k/a', 'a2', a.modRevision);
      await kv.create('/k/b', 'b1');
      await kv.delete('/k/b');
      const rev = await kv.currentRevision();
      await kv.compact(rev);
      expect(await kv.compactedRevision()).toBe(rev);
      await expect(kv.get('/k/a', a.modRevision)).rejects.toBeInstanceOf(CompactedError);
      await expect(kv.list('/k/', { revision: a.modRevision })).rejects.toBeInstanceOf(CompactedError);
      expect(() => kv.watch('/k/', { afterRevision: a.modRevision, onEvents: () => {} })).toThrow(CompactedError);
      expect((await kv.get('/k/a'))!.value).toBe('a2');
      expect((await kv.get('/k/a', rev))!.modRevision).toBe(a2.modRevision);
      expect(await kv.get('/k/b', rev)).toBeNull();
      // The revision counter does not go back, and writes go on.
      const c = await kv.create('/k/c', 'c1');
      expect(c.modRevision).toBe(rev + 1);
      const w = kv.watch('/k/', { afterRevision: rev, onEvents: () => {} });
      w.close();
    });
  });
}

// ---------------------------------------------------------------------------
// Storage suite

export interface StorageFixture {
  storage: Storage;
  /** Make every revision before now unavailable (compaction, cache history loss). */
  expire(): Promise<void>;
  /**
   * Wait until every cache has seen the acknowledged writes. Reads with
   * resourceVersion "0" may serve any state, and a cache fed by an
   * asynchronous watch (etcd) may lag a write; tests that read "0" right
   * after writing call this first. Absent: nothing to wait for.
   */
  settle?(): Promise<void>;
  close(): Promise<void>;
}

export const testAttrs = (obj: Obj): ObjectAttrs => ({
  labels: obj.metadata?.labels ?? {},
  fields: {
    'metadata.name': obj.metadata?.name ?? '',
    'metadata.namespace': obj.metadata?.namespace ?? '',
    type: obj.type ?? '',
  },
});

const P = '/registry/core/configmaps/';
const key = (ns: string, name: string) => `${P}${ns}/${name}`;
const cm = (ns: string, name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}, type = ''): Obj => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns, uid: `uid-${ns}-${name}`, labels },
  data,
  ...(type ? { type } : {}),
});
const pred = (label = '', field = ''): Predicate => ({
  label: parseLabelSelector(label),
  field: parseFieldSelector(field),
  attrs: testAttrs,
});

/** Collects events from a stream in the background. */
function collect(s: WatchStream): { events: WatchEvent[]; done: Promise<void> } {
  const events: WatchEvent[] = [];
  const done = (async () => {
    for await (const e of s) events.push(e);
  })();
  return { events, done };
}
const short = (e: WatchEvent) => (e.type === 'BOOKMARK' || e.type === 'ERROR' ? e.type : `${e.type} ${e.object.metadata.name} ${e.object.metadata.resourceVersion}`);

export function describeStorageSuite(name: string, open: () => Promise<StorageFixture>): void {
  describe(`Storage contract: ${name}`, () => {
    let f: StorageFixture;
    let s: Storage;
    beforeEach(async () => {
      f = await open();
      s = f.storage;
    });
    afterEach(async () => {
      await f.close();
    });

    it('creates with resourceVersion = revision and refuses duplicates and preset versions', async () => {
      const o = await s.create(key('ns1', 'a'), cm('ns1', 'a'));
      expect(o.metadata.resourceVersion).toBe(String(await s.currentRevision()));
      await expect(s.create(key('ns1', 'a'), cm('ns1', 'a'))).rejects.toBeInstanceOf(KeyExistsError);
      const bad = cm('ns1', 'b');
      bad.metadata.resourceVersion = '5';
      await expect(s.create(key('ns1', 'b'), bad)).rejects.toThrow('resourceVersion should not be set on objects to be created');
    });

    it('gets with each resourceVersion rule', async () => {
      const o = await s.create(key('ns1', 'a'), cm('ns1', 'a'));
      const rv = o.metadata.resourceVersion;
      expect((await s.get(key('ns1', 'a')))!.metadata.resourceVersion).toBe(rv);
      await f.settle?.();
      expect((await s.get(key('ns1', 'a'), { resourceVersion: '0' }))!.metadata.name).toBe('a');
      expect((await s.get(key('ns1', 'a'), { resourceVersion: rv }))!.metadata.resourceVersion).toBe(rv);
      expect(await s.get(key('ns1', 'zzz'))).toBeNull();
      const future = String(Number(rv) + 1000);
      const err = await s.get(key('ns1', 'a'), { resourceVersion: future }).catch((e) => e);
      expect(err).toBeInstanceOf(TooLargeResourceVersionError);
      expect(err.message).toBe(`Too large resource version: ${future}, current: ${rv}`);
      await expect(s.get(key('ns1', 'a'), { resourceVersion: 'abc' })).rejects.toBeInstanceOf(InvalidRequestError);
    });

    it('lists in key order, under a namespace, with label and field selectors', async () => {
      await s.create(key('ns2', 'b'), cm('ns2', 'b', { app: 'web' }));
      await s.create(key('ns1', 'b'), cm('ns1', 'b', { app: 'db' }, {}, 'special'));
      await s.create(key('ns1', 'a'), cm('ns1', 'a', { app: 'web', tier: 'front' }));
      const all = await s.list(P);
      expect(all.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`)).toEqual(['ns1/a', 'ns1/b', 'ns2/b']);
      expect(all.resourceVersion).toBe(String(await s.currentRevision()));
      expect(all.continue).toBeUndefined();
      expect((await s.list(P + 'ns1/')).items.length).toBe(2);
      const names = async (label: string, field = '') => (await s.list(P, { predicate: pred(label, field) })).items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
      expect(await names('app=web')).toEqual(['ns1/a', 'ns2/b']);
      expect(await names('app in (db,x)')).toEqual(['ns1/b']);
      expect(await names('tier')).toEqual(['ns1/a']);
      expect(await names('!tier,app!=db')).toEqual(['ns2/b']);
      expect(await names('', 'metadata.namespace=ns1')).toEqual(['ns1/a', 'ns1/b']);
      expect(await names('', 'type=special')).toEqual(['ns1/b']);
      expect(await names('app=web', 'metadata.name!=a')).toEqual(['ns2/b']);
      expect(await s.count(P)).toBe(3);
      expect(await s.count(P + 'ns2/')).toBe(1);
    });

    it("pages a list at the first page's revision with continue and remainingItemCount", async () => {
      for (let i = 0; i < 5; i++) await s.create(key('ns', `o${i}`), cm('ns', `o${i}`, { n: String(i % 2) }));
      const p1 = await s.list(P, { limit: 2 });
      expect(p1.items.map((o) => o.metadata.name)).toEqual(['o0', 'o1']);
      expect(p1.remainingItemCount).toBe(3);
      expect(p1.continue).toBeTruthy();
      // Changes after the first page do not show in later pages.
      await s.delete(key('ns', 'o2'));
      await s.create(key('ns', 'o9'), cm('ns', 'o9'));
      const p2 = await s.list(P, { limit: 2, continue: p1.continue });
      expect(p2.items.map((o) => o.metadata.name)).toEqual(['o2', 'o3']);
      expect(p2.resourceVersion).toBe(p1.resourceVersion);
      expect(p2.remainingItemCount).toBe(1);
      const p3 = await s.list(P, { limit: 2, continue: p2.continue });
      expect(p3.items.map((o) => o.metadata.name)).toEqual(['o4']);
      expect(p3.continue).toBeUndefined();
      expect(p3.remainingItemCount).toBeUndefined();
      // With a selector: no remainingItemCount.
      const sel = await s.list(P, { limit: 1, predicate: pred('n=0') });
      expect(sel.items.map((o) => o.metadata.name)).toEqual(['o0']);
      expect(sel.continue).toBeTruthy();
      expect(sel.remainingItemCount).toBeUndefined();
      const sel2 = await s.list(P, { limit: 5, continue: sel.continue, predicate: pred('n=0') });
      expect(sel2.items.map((o) => o.metadata.name)).toEqual(['o4']);
      expect(sel2.continue).toBeUndefined();
    });

    it('refuses bad continue tokens and versions with continue', async () => {
      for (let i = 0; i < 3; i++) await s.create(key('ns', `o${i}`), cm('ns', `o${i}`));
      const p1 = await s.list(P, { limit: 1 });
      await expect(s.list(P, { limit: 1, continue: p1.continue, resourceVersion: '5' })).rejects.toThrow('specifying resource version is not allowed when using continue');
      const e1 = await s.list(P, { continue: '!!!' }).catch((e) => e);
      expect(e1).toBeInstanceOf(InvalidRequestError);
      expect(e1.message).toMatch(/^invalid continue token: continue key is not valid: /);
      const noRv = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 0, start: 'ns/o1' })).toString('base64url');
      await expect(s.list(P, { continue: noRv })).rejects.toThrow('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
      const noKey = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 3, start: '' })).toString('base64url');
      await expect(s.list(P, { continue: noKey })).rejects.toThrow('continue key is not valid: encoded start key empty (version meta.k8s.io/v1)');
      const escape = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 3, start: '../secrets/x' })).toString('base64url');
      await expect(s.list(P, { continue: escape })).rejects.toThrow('continue key is not valid: ../secrets/x');
    });

    it('answers 410 for a compacted list version and a compacted continue token', async () => {
      for (let i = 0; i < 3; i++) await s.create(key('ns', `o${i}`), cm('ns', `o${i}`));
      const old = await s.list(P, { limit: 1 });
      const oldRv = old.resourceVersion;
      await s.create(key('ns', 'o7'), cm('ns', 'o7'));
      await f.expire();
      const e1 = await s.list(P, { limit: 1, continue: old.continue }).catch((e) => e);
      expect(e1).toBeInstanceOf(ResourceExpiredError);
      expect(e1.message).toBe(INCONSISTENT_CONTINUE_MESSAGE);
      expect(e1.code).toBe(410);
      // The token in the error goes on at the latest revision.
      const rest = await s.list(P, { continue: e1.continueToken });
      expect(rest.items.map((o: Obj) => o.metadata.name)).toEqual(['o1', 'o2', 'o7']);
      const e2 = await s.list(P, { resourceVersion: oldRv, resourceVersionMatch: 'Exact' }).catch((e) => e);
      expect(e2).toBeInstanceOf(ResourceExpiredError);
      expect(e2.message).toBe(EXPIRED_LIST_MESSAGE);
    });

    it('serves each list resourceVersion rule', async () => {
      const a = await s.create(key('ns', 'a'), cm('ns', 'a'));
      const rvA = a.metadata.resourceVersion;
      await s.create(key('ns', 'b'), cm('ns', 'b'));
      const names = (r: { items: Obj[] }) => r.items.map((o) => o.metadata.name);
      await f.settle?.();
      expect(names(await s.list(P, { resourceVersion: '0' }))).toEqual(['a', 'b']);
      expect(names(await s.list(P, { resourceVersion: rvA }))).toEqual(['a', 'b']);
      expect(names(await s.list(P, { resourceVersion: rvA, resourceVersionMatch: 'NotOlderThan' }))).toEqual(['a', 'b']);
      const exact = await s.list(P, { resourceVersion: rvA, resourceVersionMatch: 'Exact' });
      expect(names(exact)).toEqual(['a']);
      expect(exact.resourceVersion).toBe(rvA);
      // Legacy: a version with a limit is an exact read.
      expect(names(await s.list(P, { resourceVersion: rvA, limit: 10 }))).toEqual(['a']);
      const tooNew = String(Number(rvA) + 1000);
      await expect(s.list(P, { resourceVersion: tooNew })).rejects.toBeInstanceOf(TooLargeResourceVersionError);
      const invalid: [Record<string, unknown>, string][] = [
        [{ resourceVersionMatch: 'Exact' }, 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
        [{ resourceVersionMatch: 'NotOlderThan' }, 'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided'],
        [{ resourceVersion: '0', resourceVersionMatch: 'Exact' }, 'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"'],
        [{ resourceVersion: '1', resourceVersionMatch: 'Newest' }, 'resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""'],
      ];
      for (const [opts, msg] of invalid) {
        const err = await s.list(P, opts as never).catch((e) => e);
        expect(err).toBeInstanceOf(ListOptionsInvalidError);
        expect(err.errors.map((e: { toString(): string }) => e.toString())).toContain(msg);
      }
    });

    it('updates with retries, preconditions, no-op detection and create-on-missing', async () => {
      const o = await s.create(key('ns', 'a'), cm('ns', 'a', {}, { n: '0' }));
      const inc = (cur: Obj | null) => ({ ...cur!, data: { n: String(Number(cur!.data.n) + 1) } });
      await Promise.all(Array.from({ length: 20 }, () => s.guaranteedUpdate(key('ns', 'a'), { tryUpdate: inc })));
      const after = (await s.get(key('ns', 'a')))!;
      expect(after.data.n).toBe('20');
      const same = await s.guaranteedUpdate(key('ns', 'a'), { tryUpdate: (cur) => cur! });
      expect(same.metadata.resourceVersion).toBe(after.metadata.resourceVersion);
      await expect(s.guaranteedUpdate(key('ns', 'a'), { preconditions: { uid: 'other' }, tryUpdate: inc })).rejects.toThrow(
        new PreconditionError('Precondition failed: UID in precondition: other, UID in object meta: uid-ns-a'),
      );
      await expect(s.guaranteedUpdate(key('ns', 'a'), { preconditions: { resourceVersion: o.metadata.resourceVersion }, tryUpdate: inc })).rejects.toBeInstanceOf(PreconditionError);
      await expect(s.guaranteedUpdate(key('ns', 'none'), { tryUpdate: inc })).rejects.toBeInstanceOf(NotFoundError);
      const made = await s.guaranteedUpdate(key('ns', 'new'), { ignoreNotFound: true, tryUpdate: (cur) => cur ?? cm('ns', 'new') });
      expect(made.metadata.resourceVersion).toBe(String(await s.currentRevision()));
      await expect(
        s.guaranteedUpdate(key('ns', 'a'), {
          tryUpdate: () => {
            throw new Error('refused');
          },
        }),
      ).rejects.toThrow('refused');
    });

    it("updates from the caller's cached copy, reading only when it proves stale", async () => {
      const v1 = await s.create(key('ns', 'c'), cm('ns', 'c', {}, { n: '1' }));
      const inc = (cur: Obj | null) => ({ ...cur!, data: { n: String(Number(cur!.data.n) + 1) } });
      const seen: string[] = [];
      const recordingInc = (cur: Obj | null) => {
        seen.push(cur!.data.n);
        return inc(cur);
      };
      // current: one try, from the copy
      const v2 = await s.guaranteedUpdate(key('ns', 'c'), { cached: v1, tryUpdate: recordingInc });
      expect([v2.data.n, seen]).toEqual(['2', ['1']]);
      // stale (v1 again): the write conflicts, the object is read and the update tried on it
      seen.length = 0;
      const v3 = await s.guaranteedUpdate(key('ns', 'c'), { cached: v1, tryUpdate: recordingInc });
      expect([v3.data.n, seen]).toEqual(['3', ['1', '2']]);
      // a stale copy on which nothing would change: read, and the change made on the stored object
      const v4 = await s.guaranteedUpdate(key('ns', 'c'), { cached: v3, tryUpdate: (cur) => ({ ...cur!, data: { n: '1' } }) });
      const v5 = await s.guaranteedUpdate(key('ns', 'c'), { cached: { ...v3, data: { n: '1' } }, tryUpdate: (cur) => ({ ...cur!, data: { n: '3' } }) });
      expect(Number(v5.metadata.resourceVersion)).toBeGreaterThan(Number(v4.metadata.resourceVersion));
      expect((await s.get(key('ns', 'c')))!.data.n).toBe('3');
      // a precondition the stale copy fails but the stored object meets
      const v6 = await s.guaranteedUpdate(key('ns', 'c'), { cached: v1, preconditions: { resourceVersion: v5.metadata.resourceVersion }, tryUpdate: inc });
      expect(v6.data.n).toBe('4');
      // a copy of an object deleted since: NotFound, as without one
      await s.delete(key('ns', 'c'));
      await expect(s.guaranteedUpdate(key('ns', 'c'), { cached: v6, tryUpdate: inc })).rejects.toBeInstanceOf(NotFoundError);
    });

    it('deletes with preconditions and validation, returning the last state', async () => {
      await s.create(key('ns', 'a'), cm('ns', 'a', {}, { v: '1' }));
      await expect(s.delete(key('ns', 'a'), { preconditions: { uid: 'x' } })).rejects.toBeInstanceOf(PreconditionError);
      await expect(
        s.delete(key('ns', 'a'), {
          validateDeletion: () => {
            throw new Error('has finalizers');
          },
        }),
      ).rejects.toThrow('has finalizers');
      const d = await s.delete(key('ns', 'a'), { preconditions: { uid: 'uid-ns-a' } });
      expect(d.data.v).toBe('1');
      expect(d.metadata.resourceVersion).toBe(String(await s.currentRevision()));
      expect(await s.get(key('ns', 'a'))).toBeNull();
      await expect(s.delete(key('ns', 'a'))).rejects.toBeInstanceOf(NotFoundError);
    });

    it('watches with resourceVersion unset, "0" and a version', async () => {
      const a = await s.create(key('ns', 'a'), cm('ns', 'a'));
      for (const rv of [undefined, '0']) {
        const st = await s.watch(P, { recursive: true, resourceVersion: rv });
        const w = collect(st);
        await until(() => w.events.length >= 1);
        expect(w.events.map(short)).toEqual([`ADDED a ${a.metadata.resourceVersion}`]);
        st.stop();
        await w.done;
      }
      const stream = await s.watch(P, { recursive: true, resourceVersion: a.metadata.resourceVersion });
      const w = collect(stream);
      const a2 = await s.guaranteedUpdate(key('ns', 'a'), { tryUpdate: (c) => ({ ...c!, data: { x: '1' } }) });
      const b = await s.create(key('ns', 'b'), cm('ns', 'b'));
      const d = await s.delete(key('ns', 'a'));
      await until(() => w.events.length >= 3);
      expect(w.events.map(short)).toEqual([`MODIFIED a ${a2.metadata.resourceVersion}`, `ADDED b ${b.metadata.resourceVersion}`, `DELETED a ${d.metadata.resourceVersion}`]);
      stream.stop();
      await w.done;
    });

    it('watches one key, and the changes after a past version', async () => {
      const a = await s.create(key('ns', 'a'), cm('ns', 'a'));
      const b = await s.create(key('ns', 'b'), cm('ns', 'b'));
      const a2 = await s.guaranteedUpdate(key('ns', 'a'), { tryUpdate: (c) => ({ ...c!, data: { x: '1' } }) });
      const stream = await s.watch(key('ns', 'a'), { recursive: false, resourceVersion: a.metadata.resourceVersion });
      const w = collect(stream);
      await s.create(key('ns', 'ab'), cm('ns', 'ab'));
      const a3 = await s.guaranteedUpdate(key('ns', 'a'), { tryUpdate: (c) => ({ ...c!, data: { x: '2' } }) });
      await until(() => w.events.length >= 2);
      await tick();
      expect(w.events.map(short)).toEqual([`MODIFIED a ${a2.metadata.resourceVersion}`, `MODIFIED a ${a3.metadata.resourceVersion}`]);
      expect(b.metadata.name).toBe('b');
      stream.stop();
      await w.done;
    });

    it('turns selector transitions into ADDED and DELETED', async () => {
      const a = await s.create(key('ns', 'a'), cm('ns', 'a', { app: 'web' }));
      const stream = await s.watch(P, { recursive: true, resourceVersion: a.metadata.resourceVersion, predicate: pred('app=web') });
      const w = collect(stream);
      const off = await s.guaranteedUpdate(key('ns', 'a'), { tryUpdate: (c) => ({ ...c!, metadata: { ...c!.metadata, labels: { app: 'db' } } }) });
      await s.create(key('ns', 'z'), cm('ns', 'z', { app: 'db' }));
      const on = await s.guaranteedUpdate(key('ns', 'a'), { tryUpdate: (c) => ({ ...c!, metadata: { ...c!.metadata, labels: { app: 'web' } } }) });
      const mod = await s.guaranteedUpdate(key('ns', 'a'), { tryUpdate: (c) => ({ ...c!, data: { y: '1' } }) });
      await until(() => w.events.length >= 3);
      await tick();
      expect(w.events.map(short)).toEqual([`DELETED a ${off.metadata.resourceVersion}`, `ADDED a ${on.metadata.resourceVersion}`, `MODIFIED a ${mod.metadata.resourceVersion}`]);
      // The DELETED object is the last matching state.
      expect(w.events[0].object.metadata.labels).toEqual({ app: 'web' });
      stream.stop();
      await w.done;
    });

    it('streams initial events then the annotated bookmark (sendInitialEvents)', async () => {
      await s.create(key('ns', 'a'), cm('ns', 'a'));
      await s.create(key('ns', 'b'), cm('ns', 'b'));
      // without progress requests (etcd < 3.4.31) the cache serves the state it has, as kube-apiserver's does
      await f.settle?.();
      const stream = await s.watch(P, {
        recursive: true,
        sendInitialEvents: true,
        resourceVersionMatch: 'NotOlderThan',
        allowWatchBookmarks: true,
      });
      const w = collect(stream);
      await until(() => w.events.length >= 3);
      expect(w.events.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'BOOKMARK']);
      const bm = w.events[2].object;
      expect(bm.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
      expect(bm.metadata.resourceVersion).toBe(String(await s.currentRevision()));
      const c = await s.create(key('ns', 'c'), cm('ns', 'c'));
      await until(() => w.events.length >= 4);
      expect(short(w.events[3])).toBe(`ADDED c ${c.metadata.resourceVersion}`);
      stream.stop();
      await w.done;
      const bad = await s.watch(P, { recursive: true, sendInitialEvents: true }).catch((e) => e);
      expect(bad).toBeInstanceOf(ListOptionsInvalidError);
      expect(bad.errors[0].toString()).toBe('resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
      const bad2 = await s.watch(P, { recursive: true, resourceVersionMatch: 'NotOlderThan' }).catch((e) => e);
      expect(bad2).toBeInstanceOf(ListOptionsInvalidError);
    });

    it('ends a watch from an expired version with an ERROR 410 Expired', async () => {
      const a = await s.create(key('ns', 'a'), cm('ns', 'a'));
      await s.guaranteedUpdate(key('ns', 'a'), { tryUpdate: (c) => ({ ...c!, data: { x: '1' } }) });
      await s.create(key('ns', 'b'), cm('ns', 'b'));
      await f.expire();
      const w = collect(await s.watch(P, { recursive: true, resourceVersion: a.metadata.resourceVersion }));
      await w.done;
      expect(w.events.length).toBe(1);
      expect(w.events[0].type).toBe('ERROR');
      expect(w.events[0].object).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    });

    it('stops a watch on request', async () => {
      const stream = await s.watch(P, { recursive: true, resourceVersion: String(await s.currentRevision()) });
      const w = collect(stream);
      await s.create(key('ns', 'a'), cm('ns', 'a'));
      await until(() => w.events.length >= 1);
      stream.stop();
      stream.stop();
      await w.done;
      await s.create(key('ns', 'b'), cm('ns', 'b'));
      await tick();
      expect(w.events.length).toBe(1);
    });

    it('answers getEncoded and listEncoded with the JSON of get and list, and watch events carry their JSON', async () => {
      const w = collect(await s.watch(P, { recursive: true }));
      await s.create(key('ns1', 'a'), cm('ns1', 'a', { app: 'web' }, { k: 'é"\\' }));
      await s.create(key('ns1', 'b'), cm('ns1', 'b', { app: 'db' }, {}, 'special'));
      await s.create(key('ns2', 'c'), { metadata: { name: 'c', namespace: 'ns2' }, apiVersion: 'v1', kind: 'ConfigMap' });
      const first = await s.currentRevision();
      await s.guaranteedUpdate(key('ns1', 'a'), { tryUpdate: (o) => ({ ...o!, data: { k: 'changed' } }) });
      await s.delete(key('ns1', 'b'));
      await s.create(key('ns1', 'b'), cm('ns1', 'b'));
      if (!s.getEncoded || !s.listEncoded) return;
      await f.settle?.();
      for (const k of [key('ns1', 'a'), key('ns2', 'c'), key('ns1', 'zzz')]) {
        for (const resourceVersion of [undefined, '0']) {
          const obj = await s.get(k, { resourceVersion });
          const enc = await s.getEncoded(k, { resourceVersion });
          expect(enc?.json).toBe(obj ? JSON.stringify(obj) : undefined);
          if (obj) expect(enc!.apiVersion).toBe(obj.apiVersion);
        }
      }
      const rows: [string, Parameters<Storage['list']>[1]][] = [
        [P, {}],
        [P + 'ns1/', {}],
        [P, { resourceVersion: '0' }],
        [P, { predicate: pred('app=web') }],
        [P, { predicate: pred('', 'type=special') }],
        [P, { limit: 2 }],
        [P, { limit: 1, predicate: pred('', 'metadata.namespace=ns1') }],
        [P, { resourceVersion: String(first), resourceVersionMatch: 'Exact' }],
      ];
      for (const [prefix, opts] of rows) {
        const plain = await s.list(prefix, opts);
        const enc = await s.listEncoded(prefix, opts);
        expect(enc.items.map((i) => i.json)).toEqual(plain.items.map((o) => JSON.stringify(o)));
        expect({ ...enc, items: [] }).toEqual({ ...plain, items: [] });
        if (plain.continue) {
          const next = await s.list(prefix, { ...opts, continue: plain.continue });
          const nextEnc = await s.listEncoded(prefix, { ...opts, continue: enc.continue });
          expect(nextEnc.items.map((i) => i.json)).toEqual(next.items.map((o) => JSON.stringify(o)));
        }
      }
      await until(() => w.events.length >= 6);
      for (const ev of w.events) if (ev.json !== undefined) expect(ev.json).toBe(JSON.stringify(ev.object));
    });
  });
}
