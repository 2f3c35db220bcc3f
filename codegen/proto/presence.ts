// Decides, per field, whether upstream's Go type holds it by value (so gogo
// protobuf writes it even when it is the zero value, and a zero on the wire
// means "unset") or by pointer (written only when set). The OpenAPI form does
// not say; defaults by type plus the overrides in presence.json.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface PresenceData {
  byValue: Record<string, string[]>;
  pointer: Record<string, string[]>;
}

export function readPresence(path = fileURLToPath(new URL('./presence.json', import.meta.url))): PresenceData {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<PresenceData>;
  return { byValue: raw.byValue ?? {}, pointer: raw.pointer ?? {} };
}

const TOP_LEVEL_BY_VALUE = new Set(['metadata', 'spec', 'status']);

export function decidePresence(data: PresenceData, schema: string, json: string, label: 'optional' | 'repeated' | 'map', type: string, topLevel: boolean): boolean {
  if (label !== 'optional') return false;
  if (data.pointer[schema]?.includes(json)) return false;
  if (data.byValue[schema]?.includes(json)) return true;
  if (type === 'string') return true;
  if (topLevel && TOP_LEVEL_BY_VALUE.has(json) && !['bytes', 'int32', 'int64', 'double', 'bool'].includes(type)) return true;
  return false;
}
