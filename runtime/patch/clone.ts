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
    if (v !== undefined) out[k] = cloneJSON(v);
  }
  return out as T;
}

/** True for a JSON object (not an array, not null). */
export function isJSONObject(v: unknown): v is { [k: string]: JSONValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
