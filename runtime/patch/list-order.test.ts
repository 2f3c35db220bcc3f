// Ordering of merged lists: sorting by an order list, interleaving patch
// items with live-only items, partitioning, and the errors for bad items.
import { describe, expect, it } from 'vitest';
import type { JSONValue } from '../../generated/api-types.ts';
import { PatchError } from './errors.ts';
import { interleave, normalizeOrder, partitionByPresence, sortByOrder } from './list-order.ts';

const n = (...names: string[]) => names.map((name) => ({ name }));

describe('sortByOrder', () => {
  it.each([
    ['scalars by order', ['c', 'a', 'b'], ['a', 'b', 'c'], '', 'string', ['a', 'b', 'c']],
    ['maps by merge key', n('c', 'a'), n('a', 'b', 'c'), 'name', 'map', n('a', 'c')],
    ['deletions go last', [{ name: 'x', $patch: 'delete' }, ...n('b', 'a')], n('a', 'b', 'x'), 'name', 'map', [...n('a', 'b'), { name: 'x', $patch: 'delete' }]],
    ["items missing from the order move as upstream's insertion sort moves them", ['z', 'b', 'a'], ['a', 'b'], '', 'string', ['a', 'b', 'z']],
    ['items missing from the order, first position', ['b', 'z'], ['a', 'b'], '', 'string', ['z', 'b']],
  ] as [string, JSONValue[], JSONValue[], string, 'string' | 'map', JSONValue[]][])('%s', (_name, toSort, order, key, kind, want) => {
    expect(sortByOrder(toSort, order, key, kind)).toEqual(want);
  });

  it.each([
    ['an item that is not a map', ['x'], 'expected a map[string]interface {}, but received a string'],
    ['an item without the merge key', [{ id: 1 }], 'map: map[id:1] does not contain declared merge key: name'],
  ])('%s: 400', (_n, items, message) => {
    let err: unknown;
    try {
      sortByOrder(items as JSONValue[], n('a'), 'name', 'map');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PatchError);
    expect((err as PatchError).code).toBe(400);
    expect((err as PatchError).message).toBe(message);
  });
});

describe('interleave and normalizeOrder', () => {
  it.each([
    ['new patch items come before live-only ones', ['a', 'b'], ['new'], ['a', 'b'], ['new', 'a', 'b']],
    ['live positions decide between known items', ['a', 'c'], ['b'], ['a', 'b', 'c'], ['a', 'b', 'c']],
    ['a run of patch items stays together', ['a', 'd'], ['c', 'b'], ['a', 'b', 'c', 'd'], ['a', 'c', 'b', 'd']],
    ['no live items', [], ['x', 'y'], [], ['x', 'y']],
    ['no patch items', ['a', 'b'], [], ['a', 'b'], ['a', 'b']],
  ])('%s', (_n, serverOnly, patchItems, order, want) => {
    expect(interleave(serverOnly, patchItems, order, '', 'string')).toEqual(want);
  });

  it('orders patch items by the patch order and live items by the live order', () => {
    expect(normalizeOrder(['b', 'x'], ['c', 'a'], ['x', 'b'], ['a', 'b', 'c'], '', 'string')).toEqual(['x', 'a', 'b', 'c']);
  });
});

describe('partitionByPresence', () => {
  it('splits scalars and maps by presence in the other list', () => {
    expect(partitionByPresence(['a', 'b', 'c'], ['c', 'a'], '')).toEqual({ inList: ['a', 'c'], others: ['b'] });
    expect(partitionByPresence(n('a', 'b'), n('b'), 'name')).toEqual({ inList: n('b'), others: n('a') });
  });

  it('rejects map items without the merge key', () => {
    expect(() => partitionByPresence([{ id: 1 }], n('a'), 'name')).toThrow('does not contain declared merge key: name');
    expect(() => partitionByPresence(n('a'), ['x'], 'name')).toThrow('value for key 0 is not a map.');
  });
});

describe('sortByOrder with items missing from the order', () => {
  /** The insertion sort with upstream's comparator that sortByOrder reproduces (quadratic). */
  function insertionSorted(items: string[], order: string[]): string[] {
    const pos = new Map<string, number>();
    order.forEach((v, i) => {
      if (!pos.has(v)) pos.set(v, i);
    });
    const e = items.map((v) => ({ v, p: pos.get(v) ?? -1 }));
    const less = (a: { p: number }, b: { p: number }) => (a.p >= 0 && b.p >= 0 ? a.p < b.p : true);
    for (let i = 1; i < e.length; i++) {
      for (let j = i; j > 0 && less(e[j], e[j - 1]); j--) [e[j], e[j - 1]] = [e[j - 1], e[j]];
    }
    return e.map((x) => x.v);
  }

  // a small deterministic PRNG (mulberry32)
  function rng(seed: number): () => number {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  it('orders exactly as the insertion sort does (2,000 random lists)', () => {
    const rand = rng(12);
    for (let round = 0; round < 2000; round++) {
      const n = Math.floor(rand() * 12);
      const universe = Array.from({ length: 8 }, (_, i) => `v${i}`);
      const items = Array.from({ length: n }, () => universe[Math.floor(rand() * universe.length)]);
      const order = universe.filter(() => rand() < 0.5).sort(() => rand() - 0.5);
      const got = sortByOrder(items, order, '', 'string');
      expect(got, JSON.stringify({ items, order })).toEqual(insertionSorted(items, order));
    }
  });

  it('takes 200,000 items in one pass (the insertion sort would take 10^10 steps)', () => {
    const items = Array.from({ length: 200_000 }, (_, i) => `n${i}`);
    const order = items.filter((_, i) => i % 3 === 0).reverse();
    const got = sortByOrder(items, order, '', 'string');
    expect(got).toHaveLength(items.length);
    expect(new Set(got).size).toBe(items.length);
  });
});
