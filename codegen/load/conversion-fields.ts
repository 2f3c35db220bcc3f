// The pieces every x-specserver-conversions rule is read and checked with
// (conversions.ts, conversion-lists.ts): non-empty strings, dotted field
// paths, the allowed keys of an object, and the schema of a field path.
import type { OpenAPISchema } from '../model/types.ts';
import { resolveNode, type SchemaLookup } from '../../runtime/schema/util.ts';
import { CodegenError, jp } from './errors.ts';
import { properties } from './schema-util.ts';

const PATH = /^[A-Za-z_$][A-Za-z0-9_$-]*(\.[A-Za-z_$][A-Za-z0-9_$-]*)*$/;

export function text(file: string, o: Record<string, unknown>, key: string, at: string): string {
  const v = o[key];
  if (typeof v !== 'string' || v === '') throw new CodegenError(file, jp(at, key), `${key} must be a non-empty string`);
  return v;
}

/** A dotted path from the object's root (not into metadata, apiVersion or kind); `inItem`: from a list item's root, any name. */
export function path(file: string, o: Record<string, unknown>, key: string, at: string, inItem = false): string[] {
  const v = text(file, o, key, at);
  if (!PATH.test(v)) throw new CodegenError(file, jp(at, key), `${key} must be a dotted field path such as spec.limited.nominalConcurrencyShares`);
  const parts = v.split('.');
  if (!inItem && (parts[0] === 'metadata' || parts[0] === 'apiVersion' || parts[0] === 'kind')) {
    throw new CodegenError(file, jp(at, key), `${key} may not name ${parts[0]}: conversions move fields of the object's content`);
  }
  return parts;
}

export function onlyKeys(file: string, o: Record<string, unknown>, allowed: string[], at: string): void {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) throw new CodegenError(file, jp(at, k), `unknown key ${k} (allowed: ${allowed.join(', ')})`);
}

/** The schema of the field at `field` below the schema `root`, or undefined when the schema has no such field. */
export function fieldSchema(root: OpenAPISchema, field: string[], lookup: SchemaLookup): OpenAPISchema | undefined {
  let cur: OpenAPISchema | undefined = resolveNode(root, lookup);
  for (const name of field) {
    const next: OpenAPISchema | undefined = cur ? properties(cur)[name] : undefined;
    if (!next) return undefined;
    cur = resolveNode(next, lookup);
  }
  return cur;
}
