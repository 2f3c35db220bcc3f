// Reading the fields a mutating plugin changes on an object that has not
// been validated yet: a field of the wrong type (a string where an object
// or a list belongs) is left for validation to refuse, never written over
// or dereferenced.

import type { Obj } from '../../storage/interface.ts';

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** parent[key] as an object, created when absent; undefined when it holds anything else. */
export function objectField(parent: Obj, key: string): Obj | undefined {
  if (parent[key] == null) parent[key] = {};
  return isObj(parent[key]) ? parent[key] : undefined;
}

/** parent[key] as a list ([] when absent); undefined when it holds anything else. */
export function listField(parent: Obj, key: string): unknown[] | undefined {
  const v = parent[key];
  if (v == null) return [];
  return Array.isArray(v) ? v : undefined;
}
