import { describe, expect, it } from 'vitest';
import type { ApiIndex } from '../../../registry/served.ts';
import { LIVE_LOOKUP_TTL_MS, limitRangeSource } from './plugin.ts';

/** An API whose limitranges store has `cached` in its watch cache and `live` in storage; reads are recorded. */
function apiOf(state: { cached: string[]; live: string[] }, reads: string[]): ApiIndex {
  const store = {
    async list(ns: string, opts: { resourceVersion?: string }) {
      const fromCache = opts.resourceVersion === '0';
      reads.push(`${ns}@${fromCache ? 'cache' : 'live'}`);
      return { items: (fromCache ? state.cached : state.live).map((name) => ({ metadata: { name } })), resourceVersion: '1' };
    },
  };
  return { lookup: (_g: string, _v: string, resource: string) => (resource === 'limitranges' ? { store } : undefined) } as unknown as ApiIndex;
}

describe('limitRangeSource', () => {
  it('lists the cache; when it has none, lists live at most once per namespace in 30 s', async () => {
    const state = { cached: [] as string[], live: [] as string[] };
    const reads: string[] = [];
    let t = 0;
    const source = limitRangeSource(apiOf(state, reads), () => t);
    const names = async (ns: string) => (await source.list(ns)).map((o) => o.metadata.name);

    expect(await names('a')).toEqual([]);
    expect(await names('a')).toEqual([]);
    expect(reads).toEqual(['a@cache', 'a@live', 'a@cache']);

    // made a moment ago, the cache has not seen it: the live answer (empty) holds until it expires
    state.live = ['lr'];
    reads.length = 0;
    t += LIVE_LOOKUP_TTL_MS - 1;
    expect(await names('a')).toEqual([]);
    t += 1;
    expect(await names('a')).toEqual(['lr']);
    expect(reads).toEqual(['a@cache', 'a@cache', 'a@live']);

    // once the cache has it, the cache answers
    state.cached = ['lr2'];
    reads.length = 0;
    expect(await names('a')).toEqual(['lr2']);
    expect(await names('b')).toEqual(['lr2']);
    expect(reads).toEqual(['a@cache', 'b@cache']);
  });
});
