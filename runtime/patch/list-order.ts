// Element order of merged lists in strategic merge patch, with upstream's
// rules: items named by the patch (or by `$setElementOrder`) follow that
// order, items only the server has keep their live order, and the two runs
// are interleaved by their positions in the live list. Boundary: ordering and
// partitioning of already-merged lists; no merging.
import type { JSONValue } from '../../generated/api-types.ts';
import { isJSONObject } from './clone.ts';
import { DIRECTIVE_MARKER } from './directives.ts';
import { badPatch } from './errors.ts';
import { goTypeName, goValue } from '../api/go-format.ts';
import type { GoKind } from '../api/go-format.ts';

type JMap = { [k: string]: JSONValue };

export function noMergeKeyError(m: JMap, mergeKey: string): Error {
  return badPatch(`map: ${goValue(m)} does not contain declared merge key: ${mergeKey}`);
}

export function badArgTypeError(expected: string, actual: unknown): Error {
  return badPatch(`expected a ${expected}, but received a ${goTypeName(actual)}`);
}

/** The identity an item is compared by: its merge key value for maps, itself otherwise. */
function identity(item: JSONValue, mergeKey: string, kind: GoKind): unknown {
  if (kind === 'map') return isJSONObject(item) ? item[mergeKey] : undefined;
  return item;
}

/** Position of each identity in `list` (first occurrence). */
function positions(list: readonly JSONValue[], mergeKey: string, kind: GoKind): Map<unknown, number> {
  const pos = new Map<unknown, number>();
  list.forEach((item, i) => {
    const id = identity(item, mergeKey, kind);
    if (!pos.has(id)) pos.set(id, i);
  });
  return pos;
}

/** Splits `items` into those whose identity occurs in `by` and the others, keeping order. */
export function partitionByPresence(items: readonly JSONValue[], by: readonly JSONValue[], mergeKey: string): { inList: JSONValue[]; others: JSONValue[] } {
  const inList: JSONValue[] = [];
  const others: JSONValue[] = [];
  if (mergeKey === '') {
    const present = new Set<unknown>(by);
    for (const v of items) (present.has(v) ? inList : others).push(v);
    return { inList, others };
  }
  const present = new Set<unknown>();
  for (const b of by) {
    if (!isJSONObject(b)) throw badPatch(`value for key ${by.indexOf(b)} is not a map.`);
    if (b[mergeKey] !== undefined) present.add(b[mergeKey]);
  }
  for (const v of items) {
    if (!isJSONObject(v)) throw badArgTypeError('map[string]interface {}', v);
    if (!(mergeKey in v)) throw noMergeKeyError(v, mergeKey);
    (present.has(v[mergeKey]) ? inList : others).push(v);
  }
  return { inList, others };
}

function checkMergeKeys(mergeKey: string, ...lists: (readonly JSONValue[])[]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isJSONObject(item)) throw badArgTypeError('map[string]interface {}', item);
      if (!(mergeKey in item)) throw noMergeKeyError(item, mergeKey);
    }
  }
}

/**
 * Sorts `toSort` by the positions of its items in `order` (stable). For maps,
 * `$patch: delete` items go last. Items missing from `order` sort as upstream's
 * comparator has them (treated as "less" than anything), with an insertion sort.
 */
export function sortByOrder(toSort: JSONValue[], order: readonly JSONValue[], mergeKey: string, kind: GoKind): JSONValue[] {
  const rest: JSONValue[] = [];
  let items = toSort;
  if (kind === 'map') {
    checkMergeKeys(mergeKey, toSort, order);
    items = [];
    for (const v of toSort) ((v as JMap)[DIRECTIVE_MARKER] === 'delete' ? rest : items).push(v);
  }
  const pos = positions(order, mergeKey, kind);
  const idx = items.map((v) => pos.get(identity(v, mergeKey, kind)) ?? -1);
  let sorted: JSONValue[];
  if (idx.every((i) => i >= 0)) {
    sorted = items
      .map((v, i) => ({ v, p: idx[i] }))
      .sort((a, b) => a.p - b.p)
      .map((e) => e.v);
  } else {
    sorted = insertionSortResult(items, idx);
  }
  return rest.length ? sorted.concat(rest) : sorted;
}

/**
 * The order an insertion sort leaves `items` in with upstream's comparator,
 * under which an item missing from the order (position -1) is "less" than
 * anything, computed in O(n log n) instead of the sort's O(n^2). Inserting
 * the items one by one, an item at -1 moves to the front; any other item moves
 * left past items at -1 and items of higher position, and stops right after
 * the nearest item whose position is not higher. So the positioned items stay
 * stably sorted, each followed by the run of -1 items that last sat behind
 * whatever it was inserted after; -1 items arriving later start a new run at
 * the front.
 */
function insertionSortResult(items: JSONValue[], idx: number[]): JSONValue[] {
  // rank of each positioned item in the final (stable) order
  const positioned: number[] = [];
  for (let i = 0; i < items.length; i++) if (idx[i] >= 0) positioned.push(i);
  positioned.sort((a, b) => idx[a] - idx[b] || a - b);
  const rank = new Map<number, number>();
  positioned.forEach((item, r) => rank.set(item, r));

  // Fenwick tree over ranks: which positioned items are in so far
  const tree = new Int32Array(positioned.length + 1);
  const add = (r: number) => {
    for (let i = r + 1; i < tree.length; i += i & -i) tree[i]++;
  };
  const countBelow = (r: number) => {
    let c = 0;
    for (let i = r; i > 0; i -= i & -i) c += tree[i];
    return c;
  };
  /** The rank of the k-th (1-based) item in. */
  const kth = (k: number) => {
    let pos = 0;
    for (let step = 1 << Math.floor(Math.log2(tree.length)); step > 0; step >>= 1) {
      if (pos + step < tree.length && tree[pos + step] < k) {
        pos += step;
        k -= tree[pos];
      }
    }
    return pos;
  };

  // runs of -1 items, each in arrival order (the latest is first in the result)
  let front: JSONValue[] = [];
  const tails: JSONValue[][] = new Array(positioned.length);
  for (let i = 0; i < items.length; i++) {
    if (idx[i] < 0) {
      front.push(items[i]);
      continue;
    }
    const r = rank.get(i)!;
    const below = countBelow(r);
    if (below === 0) {
      tails[r] = front;
      front = [];
    } else {
      const prev = kth(below);
      tails[r] = tails[prev] ?? [];
      tails[prev] = [];
    }
    add(r);
  }
  const out: JSONValue[] = [];
  for (let k = front.length - 1; k >= 0; k--) out.push(front[k]);
  positioned.forEach((item, r) => {
    out.push(items[item]);
    const tail = tails[r] ?? [];
    for (let k = tail.length - 1; k >= 0; k--) out.push(tail[k]);
  });
  return out;
}

/**
 * Interleaves two sorted runs: a server-only item goes before a patch item
 * when both occur in the live list and it comes first there; otherwise the
 * patch item goes first.
 */
export function interleave(serverOnly: JSONValue[], patchItems: JSONValue[], serverOrder: readonly JSONValue[], mergeKey: string, kind: GoKind): JSONValue[] {
  const pos = positions(serverOrder, mergeKey, kind);
  const at = (v: JSONValue) => pos.get(identity(v, mergeKey, kind)) ?? -1;
  const out: JSONValue[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patchItems.length) {
    if (i >= serverOnly.length) out.push(patchItems[j++]);
    else if (j >= patchItems.length) out.push(serverOnly[i++]);
    else {
      const li = at(serverOnly[i]);
      const ri = at(patchItems[j]);
      if (li >= 0 && ri >= 0 && li < ri) out.push(serverOnly[i++]);
      else out.push(patchItems[j++]);
    }
  }
  return out;
}

/** Orders patch items by `patchOrder`, server-only items by `serverOrder`, then interleaves them. */
export function normalizeOrder(patchItems: JSONValue[], serverOnly: JSONValue[], patchOrder: readonly JSONValue[], serverOrder: readonly JSONValue[], mergeKey: string, kind: GoKind): JSONValue[] {
  const p = sortByOrder(patchItems, patchOrder, mergeKey, kind);
  const s = sortByOrder(serverOnly, serverOrder, mergeKey, kind);
  return interleave(s, p, serverOrder, mergeKey, kind);
}
