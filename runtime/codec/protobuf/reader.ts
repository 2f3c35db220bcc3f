// Protobuf bytes -> Kubernetes JSON in one pass over the wire bytes, driven by
// the same conversion plans as the encoder (generated descriptors plus
// metadata), without building protobuf-es message objects first. Produces
// the same JSON as the reflection decoder (decode.ts, fromBinary based), which
// the tests use as its oracle; several times faster on large lists.
// Nesting is bounded: `depth` is the JSON depth of the object being filled
// (a nested message one more, a list or map of messages two more, JSON in a
// RawExtension and enveloped objects inside it included), and bodies deeper
// than MAX_NESTING_DEPTH are a ProtobufError before the recursion gets deep.
import { ScalarType } from '@bufbuild/protobuf';
import { WireType } from '@bufbuild/protobuf/wire';
import type { FieldPlan, MessagePlan, Plans } from './plan.ts';
import type { DescMessage } from '@bufbuild/protobuf';
import { ProtobufError } from './errors.ts';
import { JSONSyntaxError, parseJSONStrict } from '../json-parse.ts';
import { MAX_NESTING_DEPTH } from '../limits.ts';
import { formatDuration, formatTime } from './special-values.ts';

type Json = unknown;
type JsonObject = Record<string, Json>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

class Cursor {
  constructor(
    public buf: Uint8Array,
    public pos: number,
    public end: number,
  ) {}

  varint(): number {
    const b = this.buf;
    const start = this.pos;
    let result = 0;
    for (let i = 0, shift = 0; i < 10; i++, shift += 7) {
      if (this.pos >= this.end) throw new ProtobufError('truncated varint');
      const byte = b[this.pos++];
      result = shift < 28 ? result | ((byte & 0x7f) << shift) : result + (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return i < 9 && result < 2 ** 63 ? result : this.exact(start);
    }
    throw new ProtobufError('varint too long');
  }

  /** A ten-byte (negative) varint, read exactly as a signed 64-bit value. */
  private exact(start: number): number {
    let x = 0n;
    for (let p = start, s = 0n; ; p++, s += 7n) {
      const byte = this.buf[p];
      x |= BigInt(byte & 0x7f) << s;
      if (byte < 0x80) break;
    }
    return Number(BigInt.asIntN(64, x));
  }

  len(): number {
    const n = this.varint();
    if (n < 0 || this.pos + n > this.end) throw new ProtobufError('length-delimited field runs past the end');
    return n;
  }

  string(): string {
    const n = this.len();
    const b = this.buf;
    const start = this.pos;
    this.pos += n;
    if (n < 64) {
      let ascii = true;
      for (let i = start; i < start + n; i++)
        if (b[i] >= 0x80) {
          ascii = false;
          break;
        }
      if (ascii) return n === 0 ? '' : String.fromCharCode.apply(null, b.subarray(start, start + n) as unknown as number[]);
    }
    try {
      return utf8.decode(b.subarray(start, start + n));
    } catch {
      throw new ProtobufError('invalid UTF-8 in a string field');
    }
  }

  bytes(): Uint8Array {
    const n = this.len();
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  double(): number {
    if (this.pos + 8 > this.end) throw new ProtobufError('truncated double');
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true);
    this.pos += 8;
    return v;
  }

  skip(wt: number): void {
    switch (wt) {
      case WireType.Varint:
        this.varint();
        return;
      case WireType.Bit64:
        this.pos += 8;
        break;
      case WireType.Bit32:
        this.pos += 4;
        break;
      case WireType.LengthDelimited: {
        const n = this.len();
        this.pos += n;
        return;
      }
      default:
        throw new ProtobufError(`unsupported wire type ${wt}`);
    }
    if (this.pos > this.end) throw new ProtobufError('truncated field');
  }
}

function wireOf(t: ScalarType): number {
  switch (t) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return WireType.LengthDelimited;
    case ScalarType.DOUBLE:
      return WireType.Bit64;
    default:
      return WireType.Varint;
  }
}

function readScalar(c: Cursor, t: ScalarType): Json {
  switch (t) {
    case ScalarType.STRING:
      return c.string();
    case ScalarType.BYTES:
      return Buffer.from(c.bytes()).toString('base64');
    case ScalarType.BOOL:
      return c.varint() !== 0;
    case ScalarType.DOUBLE:
      return c.double();
    case ScalarType.INT32: {
      const v = c.varint();
      return v | 0;
    }
    default:
      return c.varint();
  }
}

function zeroJson(t: ScalarType): Json {
  return t === ScalarType.STRING || t === ScalarType.BYTES ? '' : t === ScalarType.BOOL ? false : 0;
}

const byNumberCache = new WeakMap<MessagePlan, Map<number, FieldPlan>>();

function byNumber(plan: MessagePlan): Map<number, FieldPlan> {
  let m = byNumberCache.get(plan);
  if (!m) {
    m = new Map(plan.fields.map((f) => [f.number, f]));
    byNumberCache.set(plan, m);
  }
  return m;
}

export class Reader {
  /** JSON depth above the object being decoded (non-zero while an enveloped object inside a RawExtension is read). */
  private outer = 0;

  constructor(
    private plans: Plans,
    private nested: (bytes: Uint8Array) => Json,
  ) {}

  decode(desc: DescMessage, bytes: Uint8Array): Json {
    try {
      return this.message(this.plans.get(desc), new Cursor(bytes, 0, bytes.length), {}, this.outer + 1);
    } catch (e) {
      if (e instanceof ProtobufError && !/^invalid /.test(e.message)) throw new ProtobufError(`invalid ${desc.typeName} bytes: ${e.message}`);
      throw e;
    }
  }

  private sub(c: Cursor, wt: number, f: FieldPlan): Cursor {
    if (wt !== WireType.LengthDelimited) throw new ProtobufError(`field ${f.json} has wire type ${wt}`);
    const n = c.len();
    const s = new Cursor(c.buf, c.pos, c.pos + n);
    c.pos += n;
    return s;
  }

  private message(plan: MessagePlan, c: Cursor, out: JsonObject, depth: number): Json {
    if (depth > MAX_NESTING_DEPTH) throw new ProtobufError(`exceeded max depth of ${MAX_NESTING_DEPTH}`);
    if (plan.special) return this.special(plan, c, depth);
    const fields = byNumber(plan);
    while (c.pos < c.end) {
      const key = c.varint();
      const no = key >>> 3;
      const wt = key & 7;
      const f = fields.get(no);
      if (!f) {
        c.skip(wt);
        continue;
      }
      if (f.inline) {
        this.message(this.plans.get(f.message!), this.sub(c, wt, f), out, depth);
        continue;
      }
      switch (f.shape) {
        case 'scalar': {
          if (wt !== wireOf(f.scalar!)) throw new ProtobufError(`field ${f.json} has wire type ${wt}`);
          const v = readScalar(c, f.scalar!);
          if (f.always && (v === '' || v === 0 || v === false)) delete out[f.json];
          else out[f.json] = v;
          break;
        }
        case 'message': {
          const sub = this.plans.get(f.message!);
          const prev = out[f.json];
          const v = this.message(sub, this.sub(c, wt, f), !sub.special && prev && typeof prev === 'object' ? (prev as JsonObject) : {}, depth + 1);
          if (v === null) delete out[f.json];
          else out[f.json] = v;
          break;
        }
        case 'list': {
          const list = (out[f.json] ??= []) as Json[];
          if (f.message) list.push(this.message(this.plans.get(f.message), this.sub(c, wt, f), {}, depth + 2));
          else if (wt === WireType.LengthDelimited && wireOf(f.scalar!) !== WireType.LengthDelimited) {
            const s = this.sub(c, wt, f); // packed
            while (s.pos < s.end) list.push(readScalar(s, f.scalar!));
          } else list.push(readScalar(c, f.scalar!));
          break;
        }
        case 'map': {
          const map = (out[f.json] ??= {}) as JsonObject;
          const e = this.sub(c, wt, f);
          let k = '';
          let v: Json = undefined;
          while (e.pos < e.end) {
            const ek = e.varint();
            if (ek >>> 3 === 1 && (ek & 7) === WireType.LengthDelimited) k = e.string();
            else if (ek >>> 3 === 2) v = f.message ? this.message(this.plans.get(f.message), this.sub(e, ek & 7, f), {}, depth + 2) : readScalar(e, f.scalar!);
            else e.skip(ek & 7);
          }
          if (v === undefined) v = f.message ? this.message(this.plans.get(f.message), new Cursor(e.buf, 0, 0), {}, depth + 2) : zeroJson(f.scalar!);
          map[k] = v;
          break;
        }
      }
    }
    return out;
  }

  /** Reads a special message's fields by number, then converts. */
  private special(plan: MessagePlan, c: Cursor, depth: number): Json {
    const vals: Json[] = [];
    const lists: Json[][] = [];
    const seen: boolean[] = [];
    plan.fields.forEach((_, i) => (lists[i] = []));
    while (c.pos < c.end) {
      const key = c.varint();
      const idx = plan.fields.findIndex((f) => f.number === key >>> 3);
      if (idx < 0) {
        c.skip(key & 7);
        continue;
      }
      const f = plan.fields[idx];
      seen[idx] = true;
      // the message of a special type stands in its place (list wrappers: one level down)
      const v = f.message ? this.message(this.plans.get(f.message), this.sub(c, key & 7, f), {}, depth + 1) : f.scalar === ScalarType.BYTES ? c.bytes() : readScalar(c, f.scalar!);
      if (f.shape === 'list') lists[idx].push(v);
      else vals[idx] = v;
    }
    switch (plan.special) {
      case 'Time':
      case 'MicroTime':
        if (!seen[0] && !seen[1]) return null;
        return formatTime(Number(vals[0] ?? 0), Number(vals[1] ?? 0), plan.special === 'MicroTime');
      case 'Duration':
        return formatDuration(Number(vals[0] ?? 0));
      case 'Quantity':
        return seen[0] ? vals[0] : '0';
      case 'IntOrString':
        return (vals[0] ?? 0) === 1 ? (vals[2] ?? '') : Number(vals[1] ?? 0) | 0;
      case 'RawExtension':
      case 'JSON':
      case 'FieldsV1':
        return this.raw(vals[0] as Uint8Array | undefined, depth);
      case 'ListWrapper':
        return lists[0];
      case 'JSONSchemaPropsOrArray':
        return seen[0] ? vals[0] : lists[1];
      case 'JSONSchemaPropsOrBool':
        return seen[1] ? vals[1] : Boolean(vals[0]);
      case 'JSONSchemaPropsOrStringArray':
        return seen[0] ? vals[0] : lists[1];
      default: {
        const out: JsonObject = {};
        plan.fields.forEach((f, i) => {
          const v = vals[i];
          if (seen[i]) out[f.json] = f.shape === 'list' ? lists[i] : v instanceof Uint8Array ? Buffer.from(v).toString('base64') : v;
        });
        return out;
      }
    }
  }

  /** A RawExtension's bytes standing at JSON depth `depth`: an enveloped object or JSON. */
  private raw(bytes: Uint8Array | undefined, depth: number): Json {
    if (!bytes || bytes.length === 0) return null;
    if (bytes.length >= 4 && bytes[0] === 0x6b && bytes[1] === 0x38 && bytes[2] === 0x73 && bytes[3] === 0x00) {
      const saved = this.outer;
      this.outer = depth - 1;
      try {
        return this.nested(bytes);
      } finally {
        this.outer = saved;
      }
    }
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw new ProtobufError('embedded raw object is neither JSON nor a protobuf-encoded object');
    }
    try {
      return parseJSONStrict(text, { maxDepth: MAX_NESTING_DEPTH - depth + 1 }).value;
    } catch (e) {
      if (e instanceof JSONSyntaxError && e.message.endsWith('exceeded max depth')) throw new ProtobufError(`exceeded max depth of ${MAX_NESTING_DEPTH}`);
      throw new ProtobufError('embedded raw object is neither JSON nor a protobuf-encoded object');
    }
  }
}
