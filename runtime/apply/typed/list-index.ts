// Indexes the items of an associative list by path element, keeping item
// order and noting keys that occur more than once (allowed in stored objects,
// where such items are treated as whole units).
// Boundary: helper for the compare and merge walkers.
import type { ListDef } from '../../../generated/api-types.ts';
import type { PathElement } from '../fieldpath/element.ts';
import type { SchemaView } from '../schema/resolve.ts';
import type { JSONValue } from '../value/json.ts';

export interface ListIndex {
  order: PathElement[];
  items: Map<string, JSONValue>;
  /** Ids of path elements that several items share, with all those items. */
  dups: Map<string, JSONValue[]>;
}

export function indexList(view: SchemaView, list: ListDef, v: JSONValue | undefined): ListIndex {
  const idx: ListIndex = { order: [], items: new Map(), dups: new Map() };
  if (!Array.isArray(v)) return idx;
  for (const item of v) {
    const pe = view.listItemPE(list, item);
    const prev = idx.items.get(pe.id);
    if (prev !== undefined || idx.items.has(pe.id)) {
      const d = idx.dups.get(pe.id);
      if (d) d.push(item);
      else idx.dups.set(pe.id, [prev as JSONValue, item]);
      continue;
    }
    idx.items.set(pe.id, item);
    idx.order.push(pe);
  }
  return idx;
}

/** The item(s) under an id: the single item, or the array of duplicates. */
export function itemOrDups(idx: ListIndex, id: string): { value: JSONValue | undefined; dup: boolean } {
  const d = idx.dups.get(id);
  if (d) return { value: d, dup: true };
  return { value: idx.items.get(id), dup: false };
}
