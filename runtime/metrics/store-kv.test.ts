// Tests of the store's timing: every key-value call that reaches the
// database is observed once with its operation and object type.
import { describe, expect, it } from 'vitest';
import { instrumentKV, objectType } from './store-kv.ts';
import type { KV, KeyValue } from '../storage/interface.ts';

describe('objectType', () => {
  it.each([
    ['/registry/core/pods/default/p', 'pods'],
    ['/registry/apps/deployments/default/d', 'deployments.apps'],
    ['/registry/core/namespaces/', 'namespaces'],
    ['/other/key', ''],
  ])('%s is %s', (key, want) => {
    expect(objectType(key)).toBe(want);
  });
});

describe('instrumentKV', () => {
  const kv0: KeyValue = { key: '/registry/core/pods/ns/p', value: '{}', createRevision: 1, modRevision: 1 } as KeyValue;
  const fake = {
    currentRevision: async () => 7,
    compactedRevision: async () => 1,
    get: async () => kv0,
    list: async () => ({ kvs: [], revision: 7 }),
    create: async () => kv0,
    update: async () => kv0,
    delete: async () => {
      throw new Error('gone');
    },
    watch: () => ({ close() {} }),
    compact: async () => {},
    close: async () => {},
  } as unknown as KV;

  it('times each call with its operation and type, errors included, and leaves other calls alone', async () => {
    const seen: [string, string, number][] = [];
    let clock = 0;
    const kv = instrumentKV(
      fake,
      (op, type, s) => seen.push([op, type, s]),
      () => (clock += 5),
    );
    await kv.get('/registry/core/pods/ns/p');
    await kv.list('/registry/apps/deployments/', { limit: 1, count: true });
    await kv.list('/registry/apps/deployments/');
    await kv.create('/registry/core/configmaps/ns/c', '{}');
    await kv.update('/registry/core/configmaps/ns/c', '{}', 1);
    await expect(kv.delete('/registry/core/configmaps/ns/c')).rejects.toThrow('gone');
    expect(await kv.currentRevision()).toBe(7);
    expect(seen).toEqual([
      ['get', 'pods', 0.005],
      ['listWithCount', 'deployments.apps', 0.005],
      ['list', 'deployments.apps', 0.005],
      ['create', 'configmaps', 0.005],
      ['update', 'configmaps', 0.005],
      ['delete', 'configmaps', 0.005],
    ]);
  });
});
