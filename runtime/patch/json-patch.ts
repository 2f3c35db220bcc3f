// JSON patch (RFC 6902, application/json-patch+json), applied with the npm
// library fast-json-patch (see docs/decisions/patch.md), with the behaviours
// of the library kube-apiserver uses (evanphx/json-patch v4) where they
// differ: negative array indices count from the end, `test` of a missing
// field against null passes, operations on the document root are rejected.
// Status codes and texts are kube-apiserver's: a body that is not a list of
// operations is 400, more than 10000 operations 413, any failing operation 422
// with the generic Invalid message; `copy` operations may add at most 3 MiB
// in all. Boundary: one patch against one object. The library is loaded on
// the first JSON patch (synchronously, its CommonJS build), not at start-up.
import { createRequire } from 'node:module';
import type { Operation } from 'fast-json-patch';
import type { JSONValue } from '../../generated/api-types.ts';
import { cloneJSON, getOwn, isJSONObject } from './clone.ts';
import { badRequest, genericUnprocessable, tooLarge } from './errors.ts';
import { jsonKindName } from '../api/go-format.ts';

type JMap = { [k: string]: JSONValue };

type JSONPatchModule = typeof import('fast-json-patch');
let library: JSONPatchModule | undefined;

/** fast-json-patch (loaded on the first call). */
function lib(): JSONPatchModule {
  library ??= createRequire(import.meta.url)('fast-json-patch') as JSONPatchModule;
  return library;
}

export const MAX_JSON_PATCH_OPERATIONS = 10000;
/** kube-apiserver's default limit of bytes a patch's `copy` operations may add (JSONPatchMaxCopyBytes). */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

/**
 * Our own bound (kube-apiserver has none) on the list items that adding,
 * removing and moving list items may shift, summed over a patch: each such
 * operation shifts up to the whole list, so 10,000 moves at the front of a
 * 700,000-item list held the single thread for seconds. 10^9 shifts take a
 * fraction of a second; ordinary patches shift a few thousand.
 */
export const MAX_JSON_PATCH_LIST_SHIFTS = 1_000_000_000;

/** Returns the patched document (the caller checks that it is still an object). */
export function jsonPatch(current: JMap, patch: unknown): JSONValue {
  if (patch === null) return cloneJSON(current);
  if (!Array.isArray(patch)) {
    throw badRequest(`json: cannot unmarshal ${jsonKindName(patch)} into Go value of type jsonpatch.Patch`);
  }
  for (const op of patch) {
    if (op !== null && !isJSONObject(op)) {
      throw badRequest(`json: cannot unmarshal ${jsonKindName(op)} into Go value of type jsonpatch.Operation`);
    }
  }
  if (patch.length > MAX_JSON_PATCH_OPERATIONS) {
    throw tooLarge(`The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${patch.length}`);
  }
  return applyOperations(cloneJSON(current), patch as (JMap | null)[]);
}

/**
 * Applies the operations in order to `doc` (owned by the caller, edited in
 * place where possible) and returns the document. Operation values are copied
 * so the patch body is never aliased. Any failing operation is a 422.
 */
export function applyOperations(doc: JSONValue, ops: readonly (JMap | null)[]): JSONValue {
  let copied = 0;
  let shifts = 0;
  ops.forEach((raw, index) => {
    if (raw === null) throw genericUnprocessable('Unexpected kind: unknown');
    const op = { ...raw } as JMap;
    if (op.value !== undefined) op.value = cloneJSON(op.value);
    if (op.path === '' || op.from === '') {
      throw genericUnprocessable(`${String(op.op)} operation does not apply: doc is missing path: ""`);
    }
    if (typeof op.path === 'string') op.path = countFromEnd(doc, op.path);
    if (typeof op.from === 'string') op.from = countFromEnd(doc, op.from);
    if (op.op === 'test' && op.value === null && typeof op.path === 'string' && isMissingField(doc, op.path)) return;
    if (op.op === 'copy' && typeof op.from === 'string') {
      copied += copySize(doc, op.from);
      if (copied > MAX_JSON_PATCH_COPY_BYTES) {
        throw genericUnprocessable(`Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${MAX_JSON_PATCH_COPY_BYTES}`);
      }
    }
    if (op.op === 'add' || op.op === 'remove' || op.op === 'move' || op.op === 'copy') {
      if (typeof op.path === 'string') shifts += parentListLength(doc, op.path);
      if (op.op === 'move' && typeof op.from === 'string') shifts += parentListLength(doc, op.from);
      if (shifts > MAX_JSON_PATCH_LIST_SHIFTS) {
        throw genericUnprocessable(`operation ${index} (${String(op.op)} ${String(op.path)}): the operations would shift more than ${MAX_JSON_PATCH_LIST_SHIFTS} list items`);
      }
    }
    try {
      doc = lib().applyOperation(doc, op as unknown as Operation, validate, true, true, index).newDocument;
    } catch (e) {
      // The library's message embeds the whole document; keep its first line.
      const text = (e instanceof Error ? e.message : String(e)).split('\n')[0];
      const code = e instanceof lib().JsonPatchError ? ` [${e.name}]` : '';
      throw genericUnprocessable(`operation ${index} (${String(op.op)} ${String(op.path)}): ${text}${code}`);
    }
  });
  return doc;
}

/**
 * The library's operation check, except that a `move` or `copy` source is
 * looked up directly: the library checks it by deep-copying the whole
 * document, once per operation (10,000 moves on a large object would take
 * minutes of the single thread).
 */
function validate(operation: Operation, index: number, document: unknown, existingPathFragment?: string): void {
  if ((operation.op === 'move' || operation.op === 'copy') && typeof operation.from === 'string') {
    lib().validator(operation, index, undefined, existingPathFragment);
    if (!pointerExists(document as JSONValue, operation.from)) {
      throw new (lib().JsonPatchError)('Cannot perform the operation from a path that does not exist', 'OPERATION_FROM_UNRESOLVABLE', index, operation);
    }
    return;
  }
  lib().validator(operation, index, document, existingPathFragment);
}

/** Whether a JSON pointer names a value of the document (own fields, array positions in range). */
function pointerExists(doc: JSONValue, pointer: string): boolean {
  if (pointer === '') return true;
  let node: JSONValue | undefined = doc;
  for (const tok of pointer.split('/').slice(1).map(unescapeToken)) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9][0-9]*)$/.test(tok) || Number(tok) >= node.length) return false;
      node = node[Number(tok)];
    } else if (isJSONObject(node)) {
      if (!Object.hasOwn(node, tok)) return false;
      node = node[tok];
    } else return false;
  }
  return node !== undefined;
}

function unescapeToken(t: string): string {
  return t.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Rewrites negative array indices (`/spec/containers/-1`) to positions counted
 * from the end, as evanphx/json-patch v4 reads them (-1 is the last item; for
 * `add`, the item before which to insert). Out-of-range values are left for
 * the library to reject.
 */
function countFromEnd(doc: JSONValue, path: string): string {
  if (!path.includes('/-')) return path;
  const tokens = path.split('/');
  let node: JSONValue | undefined = doc;
  let changed = false;
  for (let i = 1; i < tokens.length; i++) {
    const tok = tokens[i];
    if (Array.isArray(node)) {
      if (/^-[0-9]+$/.test(tok)) {
        const n = Number(tok);
        if (n < 0 && n >= -node.length) {
          tokens[i] = String(n + node.length);
          changed = true;
        }
      }
      node = node[Number(tokens[i])];
    } else if (isJSONObject(node)) {
      node = getOwn(node, unescapeToken(tok));
    } else {
      break;
    }
  }
  return changed ? tokens.join('/') : path;
}

/** Size in bytes of the JSON text of the value at `from` (0 when absent: the copy then fails anyway). */
function copySize(doc: JSONValue, from: string): number {
  let node: JSONValue | undefined = doc;
  for (const tok of from.split('/').slice(1).map(unescapeToken)) {
    if (Array.isArray(node)) node = node[Number(tok)];
    else if (isJSONObject(node)) node = getOwn(node, tok);
    else return 0;
  }
  if (node === undefined) return 0;
  try {
    return Buffer.byteLength(JSON.stringify(node));
  } catch (e) {
    // a subtree too deep to serialize (moves can nest subtrees below each other)
    if (e instanceof RangeError) throw genericUnprocessable(`copy operation does not apply: the value at ${from} is nested too deeply`);
    throw e;
  }
}

/** The length of the list the pointer's last token indexes (0 when its parent is not a list). */
function parentListLength(doc: JSONValue, pointer: string): number {
  const tokens = pointer.split('/').slice(1);
  let node: JSONValue | undefined = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    if (Array.isArray(node)) node = node[Number(tokens[i])];
    else if (isJSONObject(node)) node = getOwn(node, unescapeToken(tokens[i]));
    else return 0;
  }
  return Array.isArray(node) ? node.length : 0;
}

/** True when the path's parent is an object that lacks the last key. */
function isMissingField(doc: JSONValue, path: string): boolean {
  const tokens = path.split('/').slice(1).map(unescapeToken);
  let node: JSONValue | undefined = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    if (Array.isArray(node)) node = node[Number(tokens[i])];
    else if (isJSONObject(node)) node = getOwn(node, tokens[i]);
    else return false;
  }
  return isJSONObject(node) && !Object.hasOwn(node, tokens[tokens.length - 1]);
}
