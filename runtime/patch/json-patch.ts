// JSON patch (RFC 6902, application/json-patch+json), applied with the npm
// library fast-json-patch (see docs/decisions/patch.md), with the behaviours
// of the library kube-apiserver uses (evanphx/json-patch v4) where they
// differ: negative array indices count from the end, `test` of a missing
// field against null passes, operations on the document root are rejected.
// Status codes and texts are kube-apiserver's: a body that is not a list of
// operations is 400, more than 10000 operations 413, any failing operation 422
// with the generic Invalid message; `copy` operations may add at most 3 MiB
// in all. Boundary: one patch against one object.
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import type { JSONValue } from '../../generated/api-types.ts';
import { cloneJSON, getOwn, isJSONObject } from './clone.ts';
import { badRequest, genericUnprocessable, tooLarge } from './errors.ts';
import { jsonKindName } from './go-format.ts';

type JMap = { [k: string]: JSONValue };

export const MAX_JSON_PATCH_OPERATIONS = 10000;
/** kube-apiserver's default limit of bytes a patch's `copy` operations may add (JSONPatchMaxCopyBytes). */
export const MAX_JSON_PATCH_COPY_BYTES = 3 * 1024 * 1024;

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
        throw genericUnprocessable(
          `Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${MAX_JSON_PATCH_COPY_BYTES}`,
        );
      }
    }
    try {
      doc = jsonpatch.applyOperation(doc, op as unknown as Operation, true, true, true, index).newDocument;
    } catch (e) {
      // The library's message embeds the whole document; keep its first line.
      const text = (e instanceof Error ? e.message : String(e)).split('\n')[0];
      const code = e instanceof jsonpatch.JsonPatchError ? ` [${e.name}]` : '';
      throw genericUnprocessable(`operation ${index} (${String(op.op)} ${String(op.path)}): ${text}${code}`);
    }
  });
  return doc;
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
  return node === undefined ? 0 : Buffer.byteLength(JSON.stringify(node));
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
