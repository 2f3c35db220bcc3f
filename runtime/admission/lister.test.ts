import { describe, expect, it } from 'vitest';
import { errors } from '../api/errors.ts';
import type { RegistryStore } from '../registry/store.ts';
import { cachedGet, cachedList } from './lister.ts';

/** A store whose cache (resourceVersion 0) and live state (no resourceVersion) hold the given names; `broken` fails every read. */
function storeOf(cached: string[], live: string[], reads: string[], broken = false): RegistryStore {
  const gr = { group: '', resource: 'serviceaccounts' };
  return {
    async get(_ns: string, name: string, rv?: string) {
      reads.push(rv === '0' ? 'cache' : 'live');
      if (broken) throw errors.internal(new Error('etcd down'));
      if (!(rv === '0' ? cached : live).includes(name)) throw errors.notFound(gr, name);
      return { metadata: { name } };
    },
    async list(_ns: string, opts: { resourceVersion?: string }) {
      reads.push(opts.resourceVersion === '0' ? 'cache' : 'live');
      return { items: (opts.resourceVersion === '0' ? cached : live).map((name) => ({ metadata: { name } })), resourceVersion: '1' };
    },
  } as unknown as RegistryStore;
}

describe('cachedGet', () => {
  it.each([
    ['in the cache: no live read', ['a'], ['a'], 'a', ['cache']],
    ['not yet in the cache (made a moment ago): read live', [], ['a'], 'a', ['cache', 'live']],
    ['nowhere', [], [], undefined, ['cache', 'live']],
    ['in the cache, gone since: the cache answers (as a lister)', ['a'], [], 'a', ['cache']],
  ])('%s', async (_n, cached, live, found, madeReads) => {
    const reads: string[] = [];
    const got = await cachedGet(storeOf(cached, live, reads), 'ns', 'a');
    expect(got?.metadata?.name).toBe(found);
    expect(reads).toEqual(madeReads);
  });

  it('passes a failed read on', async () => {
    await expect(cachedGet(storeOf([], [], [], true), 'ns', 'a')).rejects.toMatchObject({ code: 500 });
  });
});

describe('cachedList', () => {
  it('lists the cache as it stands', async () => {
    const reads: string[] = [];
    expect((await cachedList(storeOf(['a', 'b'], ['c'], reads), 'ns')).map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(reads).toEqual(['cache']);
  });
});
