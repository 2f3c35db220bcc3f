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
    ['items missing from the order move as upstream\'s insertion sort moves them', ['z', 'b', 'a'], ['a', 'b'], '', 'string', ['a', 'b', 'z']],
    ['items missing from the order, first position', ['b', 'z'], ['a', 'b'], '', 'string', ['z', 'b']],
  ] as [string, JSONValue[], JSONValue[], string, 'string' | 'map', JSONValue[]][])('%s', (_name, toSort, order, key, kind, want) => {
    expect(sortByOrder(toSort, order, key, kind)).toEqual(want);
  });

  it.each([
    ['an item that is not a map', ['x'], 'expected a map[string]interface {}, but received a string'],
    ['an item without the merge key', [{ id: 1 }], 'map: map[id:1] does not contain declared merge key: name'],
  ])('%s: 500', (_n, items, message) => {
    let err: unknown;
    try {
      sortByOrder(items as JSONValue[], n('a'), 'name', 'map');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PatchError);
    expect((err as PatchError).code).toBe(500);
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
