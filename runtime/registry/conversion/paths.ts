// Field paths inside the objects the declared conversions move fields of
// (declared.ts, list-rules.ts): read, take out (parents it leaves empty
// below the top level go too), put (parents made on the way), and the
// object's annotations.

import type { FieldPath } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The object holding the field's last segment, made on the way when `create`. */
export function parentOf(obj: Obj, field: FieldPath, create: boolean): Obj | undefined {
  let cur: Obj = obj;
  for (const name of field.slice(0, -1)) {
    let next = cur[name];
    if (!isObj(next)) {
      if (!create || next !== undefined) return undefined;
      next = cur[name] = {};
    }
    cur = next;
  }
  return cur;
}

/** The field's value, or undefined when it (or a parent) is absent. */
export function get(obj: Obj, field: FieldPath): unknown {
  return parentOf(obj, field, false)?.[field[field.length - 1]];
}

/** Takes the field's value out of the object; parents below the top level (spec stays) left empty by it are removed too. */
export function take(obj: Obj, field: FieldPath): unknown {
  const chain: Obj[] = [obj];
  for (const name of field.slice(0, -1)) {
    const next = chain[chain.length - 1][name];
    if (!isObj(next)) return undefined;
    chain.push(next);
  }
  const last = field[field.length - 1];
  const holder = chain[chain.length - 1];
  if (!(last in holder)) return undefined;
  const value = holder[last];
  delete holder[last];
  for (let i = chain.length - 1; i > 1 && Object.keys(chain[i]).length === 0; i--) delete chain[i - 1][field[i - 1]];
  return value;
}

export function put(obj: Obj, field: FieldPath, value: unknown): void {
  if (value === undefined) return;
  const parent = parentOf(obj, field, true);
  if (parent) parent[field[field.length - 1]] = value;
}

export function annotationsOf(obj: Obj, create: boolean): Record<string, string> | undefined {
  if (!isObj(obj.metadata)) {
    if (!create) return undefined;
    obj.metadata = {};
  }
  const meta = obj.metadata as Obj;
  if (!isObj(meta.annotations)) {
    if (!create) return undefined;
    meta.annotations = {};
  }
  return meta.annotations as Record<string, string>;
}

/** Removes an annotation; an annotation map left empty by it goes too. */
export function dropAnnotation(obj: Obj, key: string): string | undefined {
  const annotations = annotationsOf(obj, false);
  if (!annotations || !(key in annotations)) return undefined;
  const value = annotations[key];
  delete annotations[key];
  if (Object.keys(annotations).length === 0) delete (obj.metadata as Obj).annotations;
  return value;
}
