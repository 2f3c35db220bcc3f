// What KVStorage.create answers: the object as stored, with its
// resourceVersion. When the KV holds the text written, that is the object
// given (not parsed again: its parts are shared, the top level and metadata
// copied, the given object left without a resourceVersion); when it gives
// back another text (etcd's decoded protobuf), the answer is that text's
// object.
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteKV } from '../sqlite/index.ts';
import { KVStorage } from './kv-storage.ts';
import type { KV, KeyValue, Obj } from '../interface.ts';

const KEY = '/registry/core/configmaps/d/a';
const cm = (): Obj => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a', namespace: 'd', labels: { x: 'y' } }, data: { k: 'v' } });

let kv: KV | undefined;
afterEach(async () => {
  await kv?.close();
  kv = undefined;
});

/** A KV that hands back `answer(text)` as the stored value of a create (as a KV decoding another encoding would). */
function rewriting(inner: KV, answer: (text: string) => string): KV {
  return { ...inner, create: async (key, value) => ({ ...(await inner.create(key, value)), value: answer(value) }) as KeyValue };
}

describe('KVStorage.create answers the stored object', () => {
  it.each([
    ['the KV holds the text written', (t: string) => t, cm().data, true],
    ['the KV gives back another text', (t: string) => t.replace('"k":"v"', '"k":"w"'), { k: 'w' }, false],
  ])('%s', async (_what, answer, data, given) => {
    const sqlite = openSqliteKV({ path: ':memory:' });
    kv = sqlite;
    const s = new KVStorage(rewriting(sqlite, answer));
    const obj = cm();
    const created = await s.create(KEY, obj);
    // the object given is the answer only when it is what the KV holds; the caller's object is not changed
    expect(created.data === obj.data).toBe(given);
    expect(created).not.toBe(obj);
    expect(obj).toEqual(cm());
    const rv = String(await sqlite.currentRevision());
    expect(created).toEqual({ ...cm(), metadata: { ...cm().metadata, resourceVersion: rv }, data });
    // the same as a read of what was stored, apart from what the rewriting KV changed
    const read = await new KVStorage(sqlite).get(KEY);
    expect(read).toEqual({ ...cm(), metadata: { ...cm().metadata, resourceVersion: rv } });
  });

  it('refuses an object with a resourceVersion and stores nothing', async () => {
    kv = openSqliteKV({ path: ':memory:' });
    const s = new KVStorage(kv);
    await expect(s.create(KEY, { ...cm(), metadata: { ...cm().metadata, resourceVersion: '5' } })).rejects.toThrow('resourceVersion should not be set');
    expect(await s.get(KEY)).toBeNull();
  });
});
