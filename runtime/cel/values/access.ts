// Presence-aware member access and zero-value tests on CEL runtime values,
// used by the optional library (`?.`, `[?]`, `optional.ofNonZeroValue`).
// Boundary: reads values; never converts JSON (see convert.ts).
import { isCelList, isCelMap, isCelUint, type CelValue } from '@bufbuild/cel';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import { isOpaque } from '../opaque.ts';
import { messageValue } from './convert.ts';

export function selectField(target: CelValue, field: string): CelValue | undefined {
  if (isCelMap(target)) return target.get(field);
  if (isReflectMessage(target)) {
    const f = target.fields.find((x) => x.name === field);
    if (!f || !target.isSet(f)) return undefined;
    const msg = target.message as Record<string, unknown>;
    const raw = msg[f.localName];
    if (f.fieldKind === 'scalar') {
      const n = f.scalar;
      // int32/int64/sint/sfixed kinds are ints; uint kinds are left as numbers here.
      if (typeof raw === 'number' && [5, 3, 17, 18, 15, 16].includes(n)) return BigInt(raw);
      return raw as CelValue;
    }
    return messageValue(raw as never);
  }
  return undefined;
}

export function indexValue(target: CelValue, key: CelValue): CelValue | undefined {
  if (isCelMap(target)) {
    if (typeof key === 'number' && !Number.isInteger(key)) return undefined;
    return target.get(key as never);
  }
  if (isCelList(target)) {
    let i: number;
    if (typeof key === 'bigint') i = Number(key);
    else if (isCelUint(key)) i = Number(key.value);
    else if (typeof key === 'number' && Number.isInteger(key)) i = key;
    else return undefined;
    return target.get(i);
  }
  return undefined;
}

export function isZeroValue(v: CelValue): boolean {
  if (v === null) return true;
  switch (typeof v) {
    case 'boolean':
      return v === false;
    case 'bigint':
      return v === 0n;
    case 'number':
      return v === 0;
    case 'string':
      return v === '';
  }
  if (isCelUint(v)) return v.value === 0n;
  if (v instanceof Uint8Array) return v.length === 0;
  if (isCelList(v) || isCelMap(v)) return v.size === 0;
  if (isOpaque(v)) return false;
  if (isReflectMessage(v)) {
    const m = v.message as { seconds?: bigint; nanos?: number; $typeName?: string };
    if (m.$typeName === 'google.protobuf.Timestamp' || m.$typeName === 'google.protobuf.Duration') return !m.seconds && !m.nanos;
    return v.fields.every((f) => !v.isSet(f));
  }
  return false;
}
