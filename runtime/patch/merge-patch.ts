// JSON merge patch (RFC 7386, application/merge-patch+json) with the details
// of the library kube-apiserver uses (evanphx/json-patch v4 MergePatch):
// null deletes a field, objects merge, anything else replaces; nulls inside a
// value that is set whole are pruned from its objects; a `null` or scalar
// patch is a 400. Boundary: one patch against one object, copied once.
import type { JSONValue } from '../../generated/api-types.ts';
import { cloneJSON, getOwn, isJSONObject, setOwn } from './clone.ts';
import { badRequest } from './errors.ts';

type JMap = { [k: string]: JSONValue };

export const ERR_BAD_JSON_PATCH = 'Invalid JSON Patch';

/**
 * Returns the patched document: an object, or (for an array patch) the array
 * itself, which the caller rejects as not decodable into the kind.
 */
export function mergePatch(current: JMap, patch: unknown): JSONValue {
  if (Array.isArray(patch)) return prunedCopy(patch as JSONValue[]);
  if (!isJSONObject(patch)) throw badRequest(ERR_BAD_JSON_PATCH);
  const doc = cloneJSON(current);
  mergeInto(doc, patch);
  return doc;
}

function mergeInto(doc: JMap, patch: JMap): void {
  for (const k of Object.keys(patch)) {
    const v = patch[k];
    if (v === null) {
      delete doc[k];
      continue;
    }
    const cur = getOwn(doc, k);
    if (cur === undefined || cur === null || !isJSONObject(cur)) setOwn(doc, k, prunedCopy(v));
    else if (!isJSONObject(v)) setOwn(doc, k, cloneJSON(v));
    else mergeInto(cur, v);
  }
}

/** A copy of `v` without the null fields of its objects (null list items stay). */
function prunedCopy(v: JSONValue): JSONValue {
  if (Array.isArray(v)) return v.map((item) => (item === null ? null : prunedCopy(item)));
  if (isJSONObject(v)) {
    const out: JMap = {};
    for (const k of Object.keys(v)) if (v[k] !== null) setOwn(out, k, prunedCopy(v[k]));
    return out;
  }
  return v;
}
