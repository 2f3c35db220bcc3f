import { describe, expect, it } from 'vitest';
import { compileStructuralDefaults } from '../schema/structural-defaults.ts';
import type { EncodedObject, Obj, Storage, WatchEvent, WatchStream } from '../storage/interface.ts';
import { withReadDefaults } from './read-defaults.ts';
import { EventQueue } from '../storage/stream/event-queue.ts';
import { compileStructuralPruning } from '../schema/structural-pruning.ts';

const defaults = compileStructuralDefaults({ type: 'object', properties: { spec: { type: 'object', properties: { mode: { type: 'string', default: 'fast' } } } } });

const bare = { metadata: { name: 'a' }, spec: {} };
const full = { metadata: { name: 'b' }, spec: { mode: 'slow' } };
const enc = (o: Obj): EncodedObject => ({ json: JSON.stringify(o), apiVersion: 'x/v1' });

/** A storage whose encoded reads hand out the same entries each time, as the watch cache does. */
function fakeStorage(events: WatchEvent[]): Storage & { lastUpdateSaw?: Obj | null } {
  const entries = new Map([
    ['a', enc(bare)],
    ['b', enc(full)],
  ]);
  const s: Storage & { lastUpdateSaw?: Obj | null } = {
    create: async (_k, o) => o,
    get: async (k) => JSON.parse(entries.get(k)!.json) as Obj,
    list: async () => ({ items: [...entries.values()].map((e) => JSON.parse(e.json) as Obj), resourceVersion: '1' }),
    watch: async () => {
      const stream: WatchStream = {
        stop() {},
        takeBuffered: () => events,
        async *[Symbol.asyncIterator]() {
          yield* events;
        },
      };
      return stream;
    },
    guaranteedUpdate: async (k, o) => {
      s.lastUpdateSaw = JSON.parse(entries.get(k)!.json) as Obj;
      return o.tryUpdate(s.lastUpdateSaw);
    },
    delete: async (k) => JSON.parse(entries.get(k)!.json) as Obj,
    getEncoded: (k) => entries.get(k) ?? null,
    listEncoded: async () => ({ items: [...entries.values()], resourceVersion: '1' }),
    count: async () => entries.size,
    currentRevision: async () => 1,
    close: async () => {},
  };
  return s;
}

describe('withReadDefaults', () => {
  it('defaults parsed reads: get, list, delete, the current object of an update', async () => {
    const inner = fakeStorage([]);
    const s = withReadDefaults(inner, () => defaults);
    expect((await s.get('a'))!.spec).toEqual({ mode: 'fast' });
    expect((await s.list('', {})).items.map((o) => o.spec)).toEqual([{ mode: 'fast' }, { mode: 'slow' }]);
    expect((await s.delete('a')).spec).toEqual({ mode: 'fast' });
    const updated = await s.guaranteedUpdate('a', { tryUpdate: (cur) => ({ ...cur!, seen: cur!.spec.mode }) });
    expect(updated.seen).toBe('fast');
  });

  it('encodes a changed entry once and hands an unchanged one on as it is', async () => {
    const inner = fakeStorage([]);
    const s = withReadDefaults(inner, () => defaults);
    const a1 = s.getEncoded!('a') as EncodedObject;
    const a2 = s.getEncoded!('a') as EncodedObject;
    expect(JSON.parse(a1.json).spec).toEqual({ mode: 'fast' });
    expect(a2).toBe(a1);
    expect(s.getEncoded!('b')).toBe(inner.getEncoded!('b'));
    const listed = await s.listEncoded!('', {});
    expect(listed.items[0]).toBe(a1);
    expect(s.getEncoded!('missing')).toBeNull();
  });

  it('defaults watch events once for every watcher, and passes bookmarks and unchanged events on', async () => {
    const changed: WatchEvent = { type: 'ADDED', object: structuredClone(bare) as Obj };
    const same: WatchEvent = { type: 'MODIFIED', object: structuredClone(full) as Obj };
    const bookmark: WatchEvent = { type: 'BOOKMARK', object: { metadata: { resourceVersion: '5' } } as Obj };
    const events = [changed, same, bookmark];
    const s = withReadDefaults(fakeStorage(events), () => defaults);
    const w1 = await s.watch('', { recursive: true });
    const w2 = await s.watch('', { recursive: true });
    const got1: WatchEvent[] = [];
    for await (const e of w1) got1.push(e);
    const got2 = w2.takeBuffered!();
    expect(got1[0].object.spec).toEqual({ mode: 'fast' });
    expect(got2[0]).toBe(got1[0]);
    expect(got1[1]).toBe(same);
    expect(got1[2]).toBe(bookmark);
    expect(changed.object.spec).toEqual({});
  });

  it('defaults each object with the schema of the version it is stored in', async () => {
    const older = compileStructuralDefaults({ type: 'object', properties: { spec: { type: 'object', properties: { speed: { type: 'integer', default: 1 } } } } });
    const inner = fakeStorage([]);
    const byVersion = (v: unknown) => (v === 'x/v1alpha1' ? older : v === 'x/v1' ? defaults : undefined);
    inner.get = async (k) => ({ ...(k === 'old' ? { apiVersion: 'x/v1alpha1' } : k === 'new' ? { apiVersion: 'x/v1' } : { apiVersion: 'x/v0' }), metadata: { name: k }, spec: {} }) as Obj;
    const s = withReadDefaults(inner, byVersion);
    expect((await s.get('old'))!.spec).toEqual({ speed: 1 });
    expect((await s.get('new'))!.spec).toEqual({ mode: 'fast' });
    expect((await s.get('other'))!.spec).toEqual({});
  });

  it('keeps an event queue (a socket watch stays direct): buffered and later events read once, shared by every queue', async () => {
    const queues: EventQueue[] = [];
    const inner = fakeStorage([]);
    const changed: WatchEvent = { type: 'ADDED', object: structuredClone(bare) as Obj, json: JSON.stringify(bare) };
    inner.watch = async () => {
      const q = new EventQueue(10);
      q.pushInitial(changed);
      queues.push(q);
      return q;
    };
    const s = withReadDefaults(inner, () => defaults);
    const w1 = await s.watch('', { recursive: true });
    const w2 = await s.watch('', { recursive: true });
    expect(w1).toBe(queues[0]);
    expect(w2).toBe(queues[1]);
    const later: WatchEvent = { type: 'MODIFIED', object: structuredClone(bare) as Obj };
    for (const q of queues) q.pushAll([later]);
    const [a, b] = [(w1 as EventQueue).takeBuffered(), (w2 as EventQueue).takeBuffered()];
    expect(a.map((e) => e.object.spec)).toEqual([{ mode: 'fast' }, { mode: 'fast' }]);
    expect(b[0]).toBe(a[0]);
    expect(b[1]).toBe(a[1]);
    // one encoding cache per read event, shared by its watchers
    expect(a[0].encoded).toBeInstanceOf(Map);
  });

  it('prunes before it defaults: a field the schema dropped is gone, a preserved subtree kept', async () => {
    const schema = {
      type: 'object',
      properties: { spec: { type: 'object', properties: { mode: { type: 'string', default: 'fast' }, free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } },
    };
    const pruning = compileStructuralPruning(schema);
    const d = compileStructuralDefaults(schema);
    const inner = fakeStorage([]);
    inner.get = async () => ({ apiVersion: 'x/v1', metadata: { name: 'a' }, spec: { gone: 1, free: { any: 1 } } }) as Obj;
    const s = withReadDefaults(inner, () => ({ apply: (o: Obj) => [pruning.apply(o), d.apply(o)].some(Boolean) }));
    expect((await s.get('a'))!.spec).toEqual({ mode: 'fast', free: { any: 1 } });
  });

  it('reads the ADDED events made afresh for each watcher over the same stored JSON once (initial events)', async () => {
    const inner = fakeStorage([]);
    const json = JSON.stringify(bare);
    let parsed = 0;
    const fresh = (): WatchEvent => ({
      type: 'ADDED',
      get object() {
        parsed++;
        return JSON.parse(json) as Obj;
      },
      json,
      encoded: new Map(),
    });
    inner.watch = async () => {
      const q = new EventQueue(10);
      q.pushInitial(fresh());
      return q;
    };
    const s = withReadDefaults(inner, () => defaults);
    const [a] = ((await s.watch('', { recursive: true })) as EventQueue).takeBuffered();
    const [b] = ((await s.watch('', { recursive: true })) as EventQueue).takeBuffered();
    expect(a.object.spec).toEqual({ mode: 'fast' });
    expect(b).toBe(a);
    expect(parsed).toBe(0);
  });
});
