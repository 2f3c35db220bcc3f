// Deep equality of JSON values, the one copy: key order ignored, arrays
// element by element, a key present with any value differs from a key
// absent. Used by the registry (unchanged specs, immutable fields), the
// built-ins and server-side apply. typedEqual is the equality Go's
// apimachinery Semantic.DeepEqual gives two objects decoded into Go structs:
// there a member sent as null, [] or {} and an absent one decode to the same
// empty value, so they compare equal.

export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a as object);
  if (ak.length !== Object.keys(b as object).length) return false;
  for (const k of ak) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** A member value that decodes to the same Go value as an absent member (nil and empty slices and maps). */
function emptyMember(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v as object).length === 0;
}

/** Equality of two JSON values as decoded into typed Go structs (members null, [] or {} count as absent). */
export function typedEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (emptyMember(a) && emptyMember(b)) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!typedEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const k of Object.keys(ao)) if (!typedEqual(ao[k], Object.prototype.hasOwnProperty.call(bo, k) ? bo[k] : undefined)) return false;
  for (const k of Object.keys(bo)) if (!Object.prototype.hasOwnProperty.call(ao, k) && !emptyMember(bo[k])) return false;
  return true;
}
