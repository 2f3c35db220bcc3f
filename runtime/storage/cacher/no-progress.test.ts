// A cache over a KV whose watches cannot answer progress requests (etcd
// before 3.4.31/3.5.13): it cannot learn that it has seen a revision written
// under another prefix, so a consistent read goes to storage at once and a
// watch without resourceVersion starts at the cache's revision, instead of
// waiting for a progress answer that never comes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteKV } from '../sqlite/index.ts';
import { KVStorage } from '../kvstore/index.ts';
import { Cacher } from './index.ts';
import type { KV, KVWatcher, Obj } from '../interface.ts';
import type { SqliteKV } from '../sqlite/index.ts';

const P = '/registry/core/configmaps/';
const attrs = (o: Obj) => ({ labels: o.metadata?.labels ?? {}, fields: { 'metadata.name': o.metadata?.name ?? '' } });
const cm = (name: string): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'ns' } });

/** Calls of the KV's currentRevision() (a round trip on etcd). */
let revisionCalls = 0;

/** The KV with progress requests taken off its watchers. */
function withoutProgress(kv: SqliteKV): KV {
  return new Proxy(kv, {
    get(target, prop, recv) {
      if (prop === 'currentRevision') {
        return () => {
          revisionCalls++;
          return target.currentRevision();
        };
      }
      if (prop === 'watch') {
        return (...args: Parameters<KV['watch']>): KVWatcher => {
          const w = target.watch(...args);
          return { close: () => w.close() };
        };
      }
      const v = Reflect.get(target, prop, recv);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  }) as KV;
}

describe('Cacher over a watch without progress requests', () => {
  let kv: SqliteKV;
  let cacher: Cacher;
  beforeEach(async () => {
    kv = openSqliteKV({ path: ':memory:' });
    // a freshness wait longer than the test's timeout: waiting at all fails the test
    cacher = new Cacher(new KVStorage(withoutProgress(kv)), { prefix: P, attrs, freshnessTimeoutMs: 600_000 });
    await cacher.whenReady();
  });
  afterEach(async () => {
    await cacher.close();
    await kv.close();
  });

  it('serves a consistent list from storage when the store moved on under another prefix', async () => {
    await cacher.create(`${P}ns/a`, cm('a'));
    await kv.create('/registry/core/secrets/ns/s', '{}');
    const list = await cacher.list(P);
    expect(list.items.map((o) => o.metadata.name)).toEqual(['a']);
    expect(list.resourceVersion).toBe(String(await kv.currentRevision()));
    expect((await cacher.get(`${P}ns/a`))!.metadata.name).toBe('a');
  });

  it('sends a consistent get to storage without asking storage its revision first (one read, not two)', async () => {
    await cacher.create(`${P}ns/c`, cm('c'));
    await kv.create('/registry/core/secrets/ns/s', '{}');
    revisionCalls = 0;
    expect((await cacher.get(`${P}ns/c`))!.metadata.name).toBe('c');
    expect(await cacher.getEncoded(`${P}ns/c`)).toMatchObject({ apiVersion: 'v1' });
    expect(revisionCalls).toBe(0);
  });

  it('starts a watch without resourceVersion at the cache revision', async () => {
    await kv.create('/registry/core/secrets/ns/s', '{}');
    const stream = await cacher.watch(P, { recursive: true });
    expect(stream.progressSupported).toBeUndefined();
    await cacher.create(`${P}ns/b`, cm('b'));
    for await (const ev of stream) {
      expect([ev.type, ev.object.metadata.name]).toEqual(['ADDED', 'b']);
      break;
    }
    stream.stop();
  });
});
