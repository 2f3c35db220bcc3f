// JSON values (as stored and served) to CEL runtime values, typed by the
// static type derived from the schema: integers become int, `date-time`
// strings timestamps, `byte` strings bytes, objects and arrays lazy views
// (TypedMap / TypedList) that convert a member only when it is read.
// Also CEL values back to JSON. Boundary: value conversion; no evaluation.
import { celMap, celList, isCelList, isCelMap, isCelUint, isCelError, type CelValue, type CelInput } from '@bufbuild/cel';
import { create, isMessage } from '@bufbuild/protobuf';
import { DurationSchema, timestampFromMs } from '@bufbuild/protobuf/wkt';
import { isReflectMessage } from '@bufbuild/protobuf/reflect';
import type { CelT, ListType } from '../schema/types.ts';
import { isOpaque } from '../opaque.ts';

const LIST_MARKER = Symbol.for('@bufbuild/cel/list');
const MAP_MARKER = Symbol.for('@bufbuild/cel/map');

/** Converts a protobuf message (timestamp, duration) to the evaluator's value form. */
export function messageValue(m: CelInput): CelValue {
  const tmp = celMap(new Map([['v', m]]));
  return tmp.get('v') as CelValue;
}

export function timestampValue(s: string): CelValue | undefined {
  const ms = Date.parse(s);
  if (Number.isNaN(ms)) return undefined;
  const frac = /\.(\d+)/.exec(s);
  const ts = timestampFromMs(Math.floor(ms / 1000) * 1000);
  if (frac) ts.nanos = Number(frac[1].slice(0, 9).padEnd(9, '0'));
  return messageValue(ts);
}

const DURATION_UNITS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };
/** Parses a Go duration string (`1h30m`, `-1.5s`, `300ms`) into nanoseconds. */
export function parseGoDuration(s: string): bigint | undefined {
  const m = /^([-+])?((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(s);
  if (s === '0') return 0n;
  if (!m) return undefined;
  const neg = s.startsWith('-');
  let total = 0n;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;
  for (const part of s.replace(/^[-+]/, '').matchAll(re)) {
    const [int, frac = ''] = part[1].split('.');
    const unit = BigInt(DURATION_UNITS[part[2]]);
    total += BigInt(int || '0') * unit;
    if (frac) total += (BigInt(frac.slice(0, 18)) * unit) / 10n ** BigInt(Math.min(frac.length, 18));
  }
  return neg ? -total : total;
}
export function durationValue(s: string): CelValue | undefined {
  const ns = parseGoDuration(s);
  if (ns === undefined) return undefined;
  return messageValue(create(DurationSchema, { seconds: ns / 1_000_000_000n, nanos: Number(ns % 1_000_000_000n) }));
}

function bytesFromBase64(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, 'base64'));
}

/** JSON without a schema (preserve-unknown-fields, int-or-string): integers are int. */
export function dynValue(v: unknown): CelValue {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) && Number.isSafeInteger(v) ? BigInt(v) : v;
    case 'string':
    case 'boolean':
    case 'bigint':
      return v;
  }
  if (Array.isArray(v)) return asValue(new TypedList(v, undefined));
  if (typeof v === 'object') return asValue(new TypedMap(v as Record<string, unknown>, undefined));
  return null;
}

/** A JSON value as a CEL value of type `t`; undefined type means dynamic. */
export function toCel(v: unknown, t: CelT | undefined): CelValue {
  if (v === null || v === undefined) return null;
  if (!t) return dynValue(v);
  switch (t.k) {
    case 'int':
      return typeof v === 'number' && Number.isInteger(v) ? BigInt(v) : dynValue(v);
    case 'double':
      return typeof v === 'number' ? v : dynValue(v);
    case 'bytes':
      return typeof v === 'string' ? bytesFromBase64(v) : dynValue(v);
    case 'timestamp':
      return typeof v === 'string' ? (timestampValue(v) ?? v) : dynValue(v);
    case 'duration':
      return typeof v === 'string' ? (durationValue(v) ?? v) : dynValue(v);
    case 'list':
      return Array.isArray(v) ? asValue(new TypedList(v, t)) : dynValue(v);
    case 'map':
    case 'object':
      return typeof v === 'object' && !Array.isArray(v) ? asValue(new TypedMap(v as Record<string, unknown>, t)) : dynValue(v);
    default:
      return dynValue(v);
  }
}

type MapKey = bigint | string | boolean;

/** Our lazy views carry the evaluator's list / map markers; its types cannot name them. */
function asValue(v: TypedList | TypedMap): CelValue {
  return v as unknown as CelValue;
}

/** A JSON object seen as a CEL map or object; members convert on read. */
export class TypedMap implements ReadonlyMap<MapKey, CelValue> {
  readonly [MAP_MARKER] = {};
  constructor(
    readonly raw: Record<string, unknown>,
    readonly type: (CelT & { k: 'map' | 'object' }) | undefined,
  ) {}
  private memberType(key: string): CelT | undefined {
    const t = this.type;
    if (!t) return undefined;
    return t.k === 'object' ? t.fields.get(key) : t.value;
  }
  get size(): number {
    let n = 0;
    for (const k in this.raw) if (this.raw[k] !== undefined) n++;
    return n;
  }
  get(key: MapKey | number | { value: bigint }): CelValue | undefined {
    if (typeof key !== 'string') return undefined;
    const v = this.raw[key];
    if (v === undefined || !Object.prototype.hasOwnProperty.call(this.raw, key)) return undefined;
    return toCel(v, this.memberType(key));
  }
  has(key: MapKey | number | { value: bigint }): boolean {
    return typeof key === 'string' && Object.prototype.hasOwnProperty.call(this.raw, key) && this.raw[key] !== undefined;
  }
  *keys(): MapIterator<MapKey> {
    for (const k in this.raw) if (this.raw[k] !== undefined) yield k;
  }
  *values(): MapIterator<CelValue> {
    for (const k of this.keys()) yield this.get(k)!;
  }
  *entries(): MapIterator<[MapKey, CelValue]> {
    for (const k of this.keys()) yield [k, this.get(k)!];
  }
  [Symbol.iterator](): MapIterator<[MapKey, CelValue]> {
    return this.entries();
  }
  forEach(cb: (v: CelValue, k: MapKey, m: ReadonlyMap<MapKey, CelValue>) => void): void {
    for (const [k, v] of this.entries()) cb(v, k, this);
  }
}

/** A JSON array (or a computed list) seen as a CEL list that remembers its list type. */
export class TypedList {
  readonly [LIST_MARKER] = {};
  constructor(
    readonly raw: readonly unknown[],
    readonly type: (CelT & { k: 'list' }) | undefined,
    readonly converted = false,
  ) {}
  get size(): number {
    return this.raw.length;
  }
  get listType(): ListType {
    return this.type?.listType ?? 'atomic';
  }
  get(i: number): CelValue | undefined {
    if (i < 0 || i >= this.raw.length) return undefined;
    return this.converted ? (this.raw[i] as CelValue) : toCel(this.raw[i], this.type?.elem);
  }
  *values(): IterableIterator<CelValue> {
    for (let i = 0; i < this.raw.length; i++) yield this.get(i)!;
  }
  [Symbol.iterator](): IterableIterator<CelValue> {
    return this.values();
  }
}

/** A CEL value as JSON (for messages and results handed back to callers). */
export function celToJSON(v: unknown): unknown {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (isCelUint(v)) return Number(v.value);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (v instanceof TypedMap) return v.raw;
  if (v instanceof TypedList && !v.converted) return v.raw;
  if (isCelList(v)) return [...v].map(celToJSON);
  if (isCelMap(v)) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v) o[String(isCelUint(k) ? k.value : k)] = celToJSON(x);
    return o;
  }
  if (isOpaque(v)) return String(v);
  if (isCelError(v)) return undefined;
  if (isReflectMessage(v)) {
    const m = v.message as { seconds?: bigint; nanos?: number; $typeName?: string };
    if (m.$typeName === 'google.protobuf.Timestamp') return new Date(Number(m.seconds ?? 0n) * 1000 + Math.floor((m.nanos ?? 0) / 1e6)).toISOString().replace('.000Z', 'Z');
    if (m.$typeName === 'google.protobuf.Duration') return `${Number(m.seconds ?? 0n) + (m.nanos ?? 0) / 1e9}s`;
  }
  if (isMessage(v)) return String(v);
  return String(v);
}

/** Wraps computed elements as a list carrying a list type (for set/map concatenation results). */
export function computedList(elems: CelValue[], like?: TypedList): CelValue {
  if (like?.type && like.listType !== 'atomic') return asValue(new TypedList(elems, like.type, true));
  return celList(elems);
}
