// The strategic-merge-patch directive vocabulary and the clean-up applied to
// patch values that land in the result as they are: kube-apiserver decodes the
// patched map into the typed object, which drops directive keys and nulls, and
// since 1.28 it strips maps carrying `$patch` from values merged into absent
// fields. Boundary: value-level helpers; no schema, no merging.
import type { JSONValue } from '../../generated/api-types.ts';
import { isJSONObject, setOwn } from './clone.ts';

export const DIRECTIVE_MARKER = '$patch';
export const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
export const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';
export const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';

/** Keys that only steer the merge and never belong in an object. */
export function isDirectiveKey(key: string): boolean {
  return key === DIRECTIVE_MARKER || key === RETAIN_KEYS_DIRECTIVE || key.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX + '/') || key.startsWith(SET_ELEMENT_ORDER_PREFIX + '/');
}

/**
 * A patch value taken whole into a place the live object does not have (or
 * holds a value of another type): nulls are discarded, maps carrying `$patch`
 * vanish (from maps and from lists), other directive keys are dropped.
 * Returns a fresh copy, or `keep: false` when the value itself vanishes.
 */
export function withoutDirectives(v: JSONValue): { value: JSONValue; keep: boolean } {
  if (Array.isArray(v)) {
    const out: JSONValue[] = [];
    for (const item of v) {
      const r = withoutDirectives(item);
      if (r.keep) out.push(r.value);
    }
    return { value: out, keep: true };
  }
  if (isJSONObject(v)) {
    if (v[DIRECTIVE_MARKER] !== undefined && v[DIRECTIVE_MARKER] !== null) return { value: null, keep: false };
    const out: { [k: string]: JSONValue } = {};
    for (const k of Object.keys(v)) {
      const item = v[k];
      if (item === null || item === undefined || isDirectiveKey(k)) continue;
      const r = withoutDirectives(item);
      if (r.keep) setOwn(out, k, r.value);
    }
    return { value: out, keep: true };
  }
  return { value: v, keep: true };
}

/**
 * A patch value used verbatim by the merge (a replaced list or map, an element
 * appended to a merging list): copied, with directive keys and null fields
 * dropped as decoding into the typed object drops them.
 */
export function asDecoded(v: JSONValue): JSONValue {
  if (Array.isArray(v)) return v.map(asDecoded);
  if (isJSONObject(v)) {
    const out: { [k: string]: JSONValue } = {};
    for (const k of Object.keys(v)) {
      const item = v[k];
      if (item === null || item === undefined || isDirectiveKey(k)) continue;
      setOwn(out, k, asDecoded(item));
    }
    return out;
  }
  return v;
}
