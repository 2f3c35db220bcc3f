// Objects in the KV: JSON text without metadata.resourceVersion (the version
// is the key's modRevision, set on every read and never trusted from the
// stored bytes). Pure functions.
import type { KeyValue, Obj } from '../interface.ts';
import { jsonEqual } from '../../api/json-equal.ts';

/** Serializes an object for storage, dropping metadata.resourceVersion. */
export function encodeObject(obj: Obj): string {
  const meta = obj.metadata;
  if (meta && typeof meta === 'object' && 'resourceVersion' in meta) {
    const { resourceVersion: _drop, ...rest } = meta;
    return JSON.stringify({ ...obj, metadata: rest });
  }
  return JSON.stringify(obj);
}

/** Parses stored JSON and stamps metadata.resourceVersion = rev. */
export function decodeValue(value: string, rev: number): Obj {
  const obj = JSON.parse(value) as Obj;
  setResourceVersion(obj, rev);
  return obj;
}

export function decodeKV(kv: KeyValue): Obj {
  return decodeValue(kv.value, kv.modRevision);
}

export function setResourceVersion(obj: Obj, rev: number): void {
  if (!obj.metadata || typeof obj.metadata !== 'object') obj.metadata = {};
  obj.metadata.resourceVersion = String(rev);
}

/**
 * Whether an update leaves the stored object as it is (then nothing is
 * written): equal apart from metadata.resourceVersion, key order ignored (a
 * backend may give a value back in another key order than it was written in,
 * as protobuf storage does).
 */
export function sameObject(next: Obj, current: Obj): boolean {
  const a = next.metadata;
  const b = current.metadata;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return jsonEqual(next, current);
  const { resourceVersion: _a, ...restA } = a;
  const { resourceVersion: _b, ...restB } = b;
  return jsonEqual({ ...next, metadata: restA }, { ...current, metadata: restB });
}
