// The field-number lock: protobuf field numbers cannot be derived from an
// OpenAPI document, so they are kept as data (field-numbers.lock.json beside
// this file). Keys are OpenAPI schema names and JSON property names. Codegen
// reads the lock and extends it: a field not yet locked gets the next number
// above every number the message ever had; entries are never removed, so a
// number is never reused. Also records the two structural facts the OpenAPI
// form hides: inlined Go structs (a proto field whose message's fields appear
// flattened in the parent's JSON) and wrapper messages for named list types.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface FieldLock {
  /** schema name -> JSON property (or inline field) name -> number */
  messages: Record<string, Record<string, number>>;
  /** schema name -> field name -> inlined message schema name */
  inline: Record<string, Record<string, string>>;
  /** schema name -> JSON property -> wrapper message schema name ({ repeated items = 1 }) */
  wrappers: Record<string, Record<string, string>>;
}

export const DEFAULT_LOCK_PATH = fileURLToPath(new URL('./field-numbers.lock.json', import.meta.url));

export function emptyLock(): FieldLock {
  return { messages: {}, inline: {}, wrappers: {} };
}

export function readLock(path = DEFAULT_LOCK_PATH): FieldLock {
  if (!existsSync(path)) return emptyLock();
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<FieldLock>;
  return { messages: raw.messages ?? {}, inline: raw.inline ?? {}, wrappers: raw.wrappers ?? {} };
}

function sortObject<T>(o: Record<string, T>, inner?: (v: T) => T): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k of Object.keys(o).sort()) out[k] = inner ? inner(o[k]) : o[k];
  return out;
}

/** Stable serialisation: sorted message names, fields by number. */
export function serializeLock(lock: FieldLock): string {
  const messages: FieldLock['messages'] = {};
  for (const name of Object.keys(lock.messages).sort()) {
    const f = lock.messages[name];
    const entries = Object.entries(f).sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1));
    messages[name] = Object.fromEntries(entries);
  }
  const out = {
    messages,
    inline: sortObject(lock.inline, (v) => sortObject(v)),
    wrappers: sortObject(lock.wrappers, (v) => sortObject(v)),
  };
  return JSON.stringify(out, null, 1) + '\n';
}

export function writeLock(lock: FieldLock, path = DEFAULT_LOCK_PATH): boolean {
  const text = serializeLock(lock);
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return false;
  writeFileSync(path, text);
  return true;
}

/**
 * Number of `field` in `message`, assigning the next free one when the lock
 * does not have it yet (mutates the lock). Returns the number.
 */
export function lockField(lock: FieldLock, message: string, field: string): number {
  const fields = (lock.messages[message] ??= {});
  const known = fields[field];
  if (known !== undefined) return known;
  let max = 0;
  for (const n of Object.values(fields)) if (n > max) max = n;
  fields[field] = max + 1;
  return max + 1;
}
