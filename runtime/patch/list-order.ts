// Element order of merged lists in strategic merge patch, with upstream's
// rules: items named by the patch (or by `$setElementOrder`) follow that
// order, items only the server has keep their live order, and the two runs
// are interleaved by their positions in the live list. Boundary: ordering and
// partitioning of already-merged lists; no merging.
import type { JSONValue } from '../../generated/api-types.ts';
import { isJSONObject } from './clone.ts';
import { DIRECTIVE_MARKER } from './directives.ts';
import { internal } from './errors.ts';
import { goTypeName, goValue } from './go-format.ts';
import type { GoKind } from './go-format.ts';

type JMap = { [k: string]: JSONValue };

export function noMergeKeyError(m: JMap, mergeKey: string): Error {
  return internal(`map: ${goValue(m)} does not contain declared merge key: ${mergeKey}`);
}

export function badArgTypeError(expected: string, actual: unknown): Error {
  return internal(`expected a ${expected}, but received a ${goTypeName(actual)}`);
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
export function partitionByPresence(
  items: readonly JSONValue[],
  by: readonly JSONValue[],
  mergeKey: string,
): { inList: JSONValue[]; others: JSONValue[] } {
  const inList: JSONValue[] = [];
  const others: JSONValue[] = [];
  if (mergeKey === '') {
    const present = new Set<unknown>(by);
    for (const v of items) (present.has(v) ? inList : others).push(v);
    return { inList, others };
  }
  const present = new Set<unknown>();
  for (const b of by) {
    if (!isJSONObject(b)) throw internal(`value for key ${by.indexOf(b)} is not a map.`);
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
  let rest: JSONValue[] = [];
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
    sorted = items.map((v, i) => ({ v, p: idx[i] })).sort((a, b) => a.p - b.p).map((e) => e.v);
  } else {
    const e = items.map((v, i) => ({ v, p: idx[i] }));
    const less = (a: { p: number }, b: { p: number }) => (a.p >= 0 && b.p >= 0 ? a.p < b.p : true);
    for (let i = 1; i < e.length; i++) {
      for (let j = i; j > 0 && less(e[j], e[j - 1]); j--) [e[j], e[j - 1]] = [e[j - 1], e[j]];
    }
    sorted = e.map((x) => x.v);
  }
  return rest.length ? sorted.concat(rest) : sorted;
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
export function normalizeOrder(
  patchItems: JSONValue[],
  serverOnly: JSONValue[],
  patchOrder: readonly JSONValue[],
  serverOrder: readonly JSONValue[],
  mergeKey: string,
  kind: GoKind,
): JSONValue[] {
  const p = sortByOrder(patchItems, patchOrder, mergeKey, kind);
  const s = sortByOrder(serverOnly, serverOrder, mergeKey, kind);
  return interleave(s, p, serverOrder, mergeKey, kind);
}
