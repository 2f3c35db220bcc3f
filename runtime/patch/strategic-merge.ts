// Strategic merge patch (application/strategic-merge-patch+json), applied the
// way kube-apiserver 1.31 applies it (k8s.io/apimachinery strategicpatch,
// server side: parallel deletion lists merged, unmatched nulls ignored),
// driven by the merge schema's patch strategies and merge keys instead of Go
// struct tags. Directives: `$patch: replace|delete|merge`,
// `$deleteFromPrimitiveList/<field>`, `$setElementOrder/<field>`,
// `$retainKeys`. Boundary: one patch against one object; the patch body is
// never modified and the live object is copied once.
import type { JSONValue, MergeSchema } from '../../generated/api-types.ts';
import { cloneJSON, isJSONObject, setOwn } from './clone.ts';
import { asDecoded, DELETE_FROM_PRIMITIVE_LIST_PREFIX, DIRECTIVE_MARKER, RETAIN_KEYS_DIRECTIVE, SET_ELEMENT_ORDER_PREFIX, withoutDirectives } from './directives.ts';
import { badPatch, badRequest, genericUnprocessable, internal } from './errors.ts';
import { goKind, goTypeName, goValue, jsonKindName } from '../api/go-format.ts';
import type { GoKind } from '../api/go-format.ts';
import { badArgTypeError, noMergeKeyError, normalizeOrder, partitionByPresence } from './list-order.ts';
import { listElement, lookupField, rootNode } from './schema-lookup.ts';
import type { SchemaNode } from './schema-lookup.ts';

type JMap = { [k: string]: JSONValue };

/** Upstream's mergepatch error texts that map to 400 and 422. */
export const ERR_BAD_PRIMITIVE_LIST = 'invalid patch format of primitive list';
export const ERR_BAD_RETAIN_KEYS = 'invalid patch format of retainKeys';
export const ERR_BAD_SET_ELEMENT_ORDER = 'invalid patch format of setElementOrder list';
export const ERR_NO_LIST_OF_LISTS = 'lists of lists are not supported';

/**
 * Applies `patch` to `current` (the object of type `typeName` in `schema`).
 * `patch` must already be decoded JSON; `null` leaves the object unchanged.
 */
export function strategicMergePatch(current: JMap, patch: unknown, schema: MergeSchema, typeName: string): JMap {
  if (patch === null) return cloneJSON(current);
  if (!isJSONObject(patch)) {
    throw badRequest(`json: cannot unmarshal ${jsonKindName(patch)} into Go value of type map[string]interface {}`);
  }
  if (!schema.types[typeName]) throw internal(`no merge schema for type ${typeName}: cannot apply a strategic merge patch`);
  return mergeMap(cloneJSON(current), patch, rootNode(schema, typeName));
}

/** Merges `patch` into `original` (owned, edited in place) and returns the result. */
function mergeMap(original: JMap, patch: JMap, node: SchemaNode): JMap {
  if (Object.hasOwn(patch, DIRECTIVE_MARKER)) return mapDirective(patch[DIRECTIVE_MARKER], patch);
  const done = new Set<string>();
  applyRetainKeys(original, patch, done);
  mergeOrderedLists(original, patch, node, done);

  for (const k of Object.keys(patch)) {
    if (done.has(k)) continue;
    const patchV = patch[k];
    let key = k;
    let isDeleteList = false;
    if (k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX)) {
      key = extractKey(k, DELETE_FROM_PRIMITIVE_LIST_PREFIX);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete original[key];
      continue;
    }
    if (!Object.hasOwn(original, key) || goKind(original[key]) !== goKind(patchV)) {
      if (!isDeleteList) {
        const { value, keep } = withoutDirectives(patchV);
        if (keep) setOwn(original, key, value);
        else delete original[key];
      }
      continue;
    }
    const origV = original[key];
    if (isJSONObject(origV) && isJSONObject(patchV)) {
      const meta = lookupField(node, key);
      setOwn(original, key, meta.strategy === 'replace' ? asDecoded(patchV) : mergeMap(origV, patchV, meta.node));
    } else if (Array.isArray(origV) && Array.isArray(patchV)) {
      const meta = lookupField(node, key);
      setOwn(original, key, mergeListField(origV, patchV, listElement(meta.node), meta.strategy, meta.mergeKey, isDeleteList));
    } else {
      setOwn(original, key, patchV);
    }
  }
  return original;
}

/** `$patch` on a map: replace takes the patch as the value, delete empties it. */
function mapDirective(directive: JSONValue, patch: JMap): JMap {
  if (directive === 'replace') {
    const out: JMap = {};
    for (const k of Object.keys(patch)) if (k !== DIRECTIVE_MARKER) setOwn(out, k, patch[k]);
    return asDecoded(out) as JMap;
  }
  if (directive === 'delete') return {};
  throw badPatchType(directive, patch);
}

function badPatchType(directive: JSONValue, m: JMap): Error {
  // Go's %s of the directive: a string as is, nil and other types flagged.
  const d = typeof directive === 'string' ? directive : directive === null ? '%!s(<nil>)' : `%!s(${goTypeName(directive)}=${goValue(directive)})`;
  return badPatch(`unknown patch type: ${d} in map: ${goValue(m)}`);
}

/** The field name after a directive prefix (`$setElementOrder/containers` -> `containers`). */
function extractKey(key: string, prefix: string): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw badRequest(prefix === SET_ELEMENT_ORDER_PREFIX ? ERR_BAD_SET_ELEMENT_ORDER : ERR_BAD_PRIMITIVE_LIST);
  }
  return key.slice(slash + 1);
}

/**
 * `$retainKeys`: every non-null field of the patch must be listed; fields of
 * the live map that are not listed are cleared.
 */
function applyRetainKeys(original: JMap, patch: JMap, done: Set<string>): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS_DIRECTIVE)) return;
  done.add(RETAIN_KEYS_DIRECTIVE);
  const list = patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(list)) throw badRequest(ERR_BAD_RETAIN_KEYS);
  const keep = new Set<unknown>(list);
  for (const k of Object.keys(patch)) {
    if (k === RETAIN_KEYS_DIRECTIVE || patch[k] === null) continue;
    if (k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || k.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    if (!keep.has(k)) throw badRequest(ERR_BAD_RETAIN_KEYS);
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

/**
 * `$setElementOrder/<field>`: merges the field's list (when the patch has it)
 * and orders the result by the directive, live-only items keeping their place.
 */
function mergeOrderedLists(original: JMap, patch: JMap, node: SchemaNode, done: Set<string>): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    done.add(key);
    const order = patch[key];
    if (!Array.isArray(order)) throw badArgTypeError('[]interface {}', order);
    const field = extractKey(key, SET_ELEMENT_ORDER_PREFIX);
    const foundOriginal = Object.hasOwn(original, field);
    const foundPatch = Object.hasOwn(patch, field) && !done.has(field);
    let originalList: JSONValue[] = [];
    let patchList: JSONValue[] = [];
    if (foundOriginal) {
      const v = original[field];
      if (!Array.isArray(v)) throw badArgTypeError('[]interface {}', v);
      originalList = v;
    }
    if (foundPatch) {
      const v = patch[field];
      if (!Array.isArray(v)) throw badArgTypeError('[]interface {}', v);
      patchList = v;
    }
    const meta = lookupField(node, field);
    checkOrderList(patchList, order, meta.mergeKey);

    let merged: JSONValue[];
    if (foundOriginal && !foundPatch) merged = originalList;
    else if (!foundOriginal && foundPatch) merged = withoutDirectives(patchList).value as JSONValue[];
    else if (foundOriginal && foundPatch) {
      merged = mergeListField(originalList, patchList, listElement(meta.node), meta.strategy, meta.mergeKey, false);
    } else continue;

    const { inList, others } = partitionByPresence(merged, order, meta.mergeKey);
    const kind = elementKind(originalList, patchList);
    setOwn(original, field, normalizeOrder(inList, others, order, originalList, meta.mergeKey, kind));
    done.add(field);
  }
}

/**
 * The patch list's items (deletions aside) must appear in the order list, in
 * the same relative order.
 */
function checkOrderList(patchList: JSONValue[], order: JSONValue[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  let items = patchList;
  if (mergeKey !== '') {
    items = [];
    for (const v of patchList) {
      if (!isJSONObject(v)) throw badArgTypeError('map[string]interface {}', v);
      if (v[DIRECTIVE_MARKER] !== 'delete') items.push(v);
    }
  }
  let p = 0;
  let o = 0;
  while (p < items.length && o < order.length) {
    const item = items[p];
    if (isJSONObject(item) && Object.hasOwn(item, DIRECTIVE_MARKER)) {
      p++;
      continue;
    }
    if (sameIdentity(item, order[o], mergeKey)) p++;
    o++;
  }
  if (p < items.length) {
    throw badPatch(`The order in patch list:\n${goValue(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goValue(order)}\n`);
  }
}

function sameIdentity(a: JSONValue, b: JSONValue, mergeKey: string): boolean {
  if (mergeKey === '') return a === b;
  if (!isJSONObject(a)) throw badArgTypeError('map[string]interface {}', a);
  if (!isJSONObject(b)) throw badArgTypeError('map[string]interface {}', b);
  if (!Object.hasOwn(a, mergeKey)) throw noMergeKeyError(a, mergeKey);
  if (!Object.hasOwn(b, mergeKey)) throw noMergeKeyError(b, mergeKey);
  return a[mergeKey] === b[mergeKey];
}

/** The common Go kind of the elements of the lists, with upstream's errors. */
function elementKind(...lists: JSONValue[][]): GoKind {
  let kind: GoKind | undefined;
  for (const list of lists) {
    for (const v of list) {
      const k = goKind(v);
      if (kind === undefined) {
        if (k === 'slice') throw genericUnprocessable(ERR_NO_LIST_OF_LISTS);
        kind = k;
      } else if (k !== kind) {
        throw badPatch(`list element types are not identical: ${goValue(lists)}`);
      }
    }
  }
  if (kind === undefined) throw badPatch('no elements in any of the given slices');
  return kind;
}

/**
 * A list field present in both: merged when its strategy is `merge` (or the
 * patch is a `$deleteFromPrimitiveList`), replaced by the patch otherwise.
 */
function mergeListField(original: JSONValue[], patch: JSONValue[], element: SchemaNode, strategy: string, mergeKey: string, isDeleteList: boolean): JSONValue[] {
  if (strategy === 'merge' || isDeleteList) return mergeList(original, patch, element, mergeKey, isDeleteList);
  return asDecoded(patch) as JSONValue[];
}

function mergeList(original: JSONValue[], patch: JSONValue[], element: SchemaNode, mergeKey: string, isDeleteList: boolean): JSONValue[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = elementKind(original, patch);
  let merged: JSONValue[];
  if (kind !== 'map') {
    if (isDeleteList) {
      const drop = new Set<unknown>(patch);
      return original.filter((v) => !drop.has(v));
    }
    merged = dedupe(original.concat(patch));
  } else {
    if (mergeKey === '') {
      throw badPatch(`cannot merge lists without merge key for ${element.atom?.map?.fields ? 'struct' : 'map'}`);
    }
    [original, patch] = splitSpecialElements(original, patch, mergeKey);
    merged = mergeByKey(original, patch, mergeKey, element);
  }
  const { inList, others } = partitionByPresence(merged, patch, mergeKey);
  return normalizeOrder(inList, others, patch, original, mergeKey, kind);
}

/** A set: each value once, first occurrence kept. */
function dedupe(list: JSONValue[]): JSONValue[] {
  const seen = new Set<unknown>();
  const out: JSONValue[] = [];
  for (const v of list) {
    if (seen.has(v)) continue;
    seen.add(v);
    out.push(v);
  }
  return out;
}

/**
 * Handles list items carrying `$patch`: `delete` removes the live items with
 * that merge key, `replace` makes the rest of the patch list the whole list,
 * `merge` is rejected. Returns the live list and the remaining patch items.
 */
function splitSpecialElements(original: JSONValue[], patch: JSONValue[], mergeKey: string): [JSONValue[], JSONValue[]] {
  const plain: JSONValue[] = [];
  let replace = false;
  // merge key values to delete, removed in one pass at the end (one filter per
  // deletion would make a long list of deletions quadratic)
  let deletes: Set<unknown> | undefined;
  for (const v of patch) {
    const item = v as JMap;
    if (!Object.hasOwn(item, DIRECTIVE_MARKER)) {
      plain.push(v);
      continue;
    }
    const directive = item[DIRECTIVE_MARKER];
    if (directive === 'delete') {
      if (!Object.hasOwn(item, mergeKey)) throw noMergeKeyError(item, mergeKey);
      if (!deletes) {
        original.forEach((o, i) => {
          if (!isJSONObject(o)) throw badPatch(`value for key ${i} is not a map.`);
        });
        deletes = new Set();
      }
      deletes.add(item[mergeKey]);
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw badPatch('merging lists cannot yet be specified in the patch');
    } else {
      throw badPatchType(directive, item);
    }
  }
  if (deletes) {
    const drop = deletes;
    original = original.filter((o) => !(Object.hasOwn(o as JMap, mergeKey) && drop.has((o as JMap)[mergeKey])));
  }
  if (replace) return [asDecoded(plain) as JSONValue[], []];
  return [original, plain];
}

/** Merges each patch item into the live item with the same merge key, or appends it. */
function mergeByKey(live: JSONValue[], patch: JSONValue[], mergeKey: string, element: SchemaNode): JSONValue[] {
  // A new array: the caller still orders by the live list as it was.
  const original = live.slice();
  // Position of the first item with each merge key value. Upstream scans the
  // list for each patch item and fails at an item that is not a map before
  // finding a match: items past the first such one are never matched.
  const index = new Map<unknown, number>();
  let firstNonMap = -1;
  for (let i = 0; i < original.length; i++) {
    const o = original[i];
    if (!isJSONObject(o)) {
      firstNonMap = i;
      break;
    }
    if (Object.hasOwn(o, mergeKey) && !index.has(o[mergeKey])) index.set(o[mergeKey], i);
  }
  for (const v of patch) {
    const item = v as JMap;
    if (!Object.hasOwn(item, mergeKey)) throw noMergeKeyError(item, mergeKey);
    const value = item[mergeKey];
    const found = index.get(value);
    if (found !== undefined) original[found] = mergeMap(original[found] as JMap, item, element);
    else if (firstNonMap >= 0) throw badPatch(`value for key ${firstNonMap} is not a map.`);
    else {
      index.set(value, original.length);
      original.push(asDecoded(item));
    }
  }
  return original;
}
