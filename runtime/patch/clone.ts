// Deep copy of JSON values (plain objects, arrays, scalars). The patch
// functions copy the live object exactly once and then edit the copy, so the
// stored object handed in is never touched. Boundary: JSON data only (no
// Dates, Maps, class instances, cycles).
import type { JSONValue } from '../../generated/api-types.ts';

export function cloneJSON<T extends JSONValue | undefined>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array<JSONValue>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = cloneJSON(value[i]);
    return out as T;
  }
  const out: { [k: string]: JSONValue } = {};
  for (const k of Object.keys(value)) {
    const v = (value as { [k: string]: JSONValue })[k];
    if (v !== undefined) setOwn(out, k, cloneJSON(v));
  }
  return out as T;
}

/** True for a JSON object (not an array, not null). */
export function isJSONObject(v: unknown): v is { [k: string]: JSONValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Sets a field, also when it is named `__proto__` (a legal JSON key, e.g. in a
 * ConfigMap's data), which plain assignment would turn into a prototype change.
 */
export function setOwn(o: { [k: string]: JSONValue }, k: string, v: JSONValue): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** A field's own value (never one inherited from Object.prototype). */
export function getOwn(o: { [k: string]: JSONValue }, k: string): JSONValue | undefined {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}
