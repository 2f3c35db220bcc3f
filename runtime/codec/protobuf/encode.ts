// JSON object -> protobuf bytes of one message, written straight from the
// JSON with protobuf-es's BinaryWriter, driven by the message descriptors.
// Byte-exact with upstream (gogo) output: fields in number order, by-value
// fields written even when unset, map entries sorted by key, repeated scalars
// unpacked (proto2), special types in their wire form.
import { ScalarType } from '@bufbuild/protobuf';
import { WireType } from '@bufbuild/protobuf/wire';
import { WireWriter as BinaryWriter } from './writer.ts';
import type { FieldPlan, MessagePlan, Plans } from './plan.ts';
import type { DescMessage } from '@bufbuild/protobuf';
import { ProtobufError } from './errors.ts';
import { base64ToBytes, parseDuration, parseTime } from './special-values.ts';

type Json = unknown;

const utf8 = new TextEncoder();

function fail(path: string, why: string): never {
  throw new ProtobufError(`${path}: ${why}`);
}

function scalarWire(t: ScalarType): WireType {
  switch (t) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return WireType.LengthDelimited;
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return WireType.Bit64;
    case ScalarType.FLOAT:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return WireType.Bit32;
    default:
      return WireType.Varint;
  }
}

function writeScalarValue(w: BinaryWriter, t: ScalarType, v: Json, path: string): void {
  switch (t) {
    case ScalarType.STRING:
      if (typeof v !== 'string') fail(path, `expected a string, got ${typeof v}`);
      w.string(v);
      return;
    case ScalarType.BYTES:
      if (typeof v !== 'string') fail(path, 'expected base64 data');
      w.bytes(base64ToBytes(v));
      return;
    case ScalarType.BOOL:
      if (typeof v !== 'boolean') fail(path, `expected a boolean, got ${typeof v}`);
      w.bool(v);
      return;
    case ScalarType.INT32:
      if (typeof v !== 'number' || !Number.isInteger(v)) fail(path, 'expected an integer');
      w.varint(v);
      return;
    case ScalarType.INT64:
      if (typeof v !== 'number' || !Number.isInteger(v)) fail(path, 'expected an integer');
      w.varint(v);
      return;
    case ScalarType.DOUBLE:
      if (typeof v !== 'number') fail(path, 'expected a number');
      w.double(v);
      return;
    default:
      fail(path, `scalar type ${t} is not supported`);
  }
}

function zeroScalar(t: ScalarType): Json {
  switch (t) {
    case ScalarType.STRING:
      return '';
    case ScalarType.BOOL:
      return false;
    case ScalarType.BYTES:
      return '';
    default:
      return 0;
  }
}

export class Encoder {
  private scratch = new BinaryWriter();
  private busy = false;

  constructor(private plans: Plans) {}

  /** Encodes `json` as message `desc` (no envelope). */
  encode(desc: DescMessage, json: Json): Uint8Array {
    return this.write(desc, json, true);
  }

  /**
   * The same bytes as encode(), as a view of the encoder's own buffer instead
   * of a copy: valid only until the encoder's next call, for a caller that
   * copies them at once (a list streamed in chunks) or needs only their size.
   */
  encodeView(desc: DescMessage, json: Json): Uint8Array {
    return this.write(desc, json, false);
  }

  private write(desc: DescMessage, json: Json, copy: boolean): Uint8Array {
    const w = this.busy ? new BinaryWriter(1024) : this.scratch;
    const own = w === this.scratch;
    if (own) this.busy = true;
    try {
      w.reset();
      this.writeFields(w, this.plans.get(desc), json, desc.typeName);
      return copy || !own ? w.finish() : w.view();
    } finally {
      if (own) this.busy = false;
    }
  }

  private writeFields(w: BinaryWriter, plan: MessagePlan, json: Json, path: string): void {
    if (plan.special) {
      this.writeSpecial(w, plan, json, path);
      return;
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json)) fail(path, 'expected an object');
    const obj = json as Record<string, unknown>;
    for (const f of plan.fields) {
      if (f.inline) {
        w.tag(f.number, WireType.LengthDelimited).fork();
        this.writeFields(w, this.plans.get(f.message!), obj, path);
        w.join();
        continue;
      }
      const v = obj[f.json];
      const at = `${path}.${f.json}`;
      if (v === undefined || v === null) {
        if (f.always) this.writeZero(w, f, at);
        continue;
      }
      switch (f.shape) {
        case 'scalar':
          w.tag(f.number, scalarWire(f.scalar!));
          writeScalarValue(w, f.scalar!, v, at);
          break;
        case 'message':
          this.writeMessageField(w, f.number, f.message!, v, at);
          break;
        case 'list':
          if (!Array.isArray(v)) fail(at, 'expected an array');
          for (let i = 0; i < v.length; i++) {
            if (f.message) this.writeMessageField(w, f.number, f.message, v[i], `${at}[${i}]`);
            else {
              if (v[i] === null) fail(`${at}[${i}]`, 'null is not allowed in a list');
              w.tag(f.number, scalarWire(f.scalar!));
              writeScalarValue(w, f.scalar!, v[i], `${at}[${i}]`);
            }
          }
          break;
        case 'map': {
          if (typeof v !== 'object' || Array.isArray(v)) fail(at, 'expected an object');
          const entries = v as Record<string, unknown>;
          for (const k of Object.keys(entries).sort()) {
            const mv = entries[k];
            w.tag(f.number, WireType.LengthDelimited).fork();
            w.tag(1, WireType.LengthDelimited).string(k);
            if (f.message) this.writeMessageField(w, 2, f.message, mv ?? null, `${at}[${k}]`, true);
            else {
              w.tag(2, scalarWire(f.scalar!));
              writeScalarValue(w, f.scalar!, mv ?? zeroScalar(f.scalar!), `${at}[${k}]`);
            }
            w.join();
          }
          break;
        }
      }
    }
  }

  private writeMessageField(w: BinaryWriter, no: number, desc: DescMessage, v: Json, path: string, zeroIfNull = false): void {
    w.tag(no, WireType.LengthDelimited).fork();
    if (v === null && zeroIfNull) this.writeZeroContent(w, this.plans.get(desc), path);
    else this.writeFields(w, this.plans.get(desc), v, path);
    w.join();
  }

  private writeZero(w: BinaryWriter, f: FieldPlan, path: string): void {
    if (f.shape === 'scalar') {
      w.tag(f.number, scalarWire(f.scalar!));
      writeScalarValue(w, f.scalar!, zeroScalar(f.scalar!), path);
    } else if (f.shape === 'message') {
      w.tag(f.number, WireType.LengthDelimited).fork();
      this.writeZeroContent(w, this.plans.get(f.message!), path);
      w.join();
    }
  }

  /** The bytes gogo writes for a Go zero value of a by-value struct. */
  private writeZeroContent(w: BinaryWriter, plan: MessagePlan, path: string): void {
    switch (plan.special) {
      case undefined:
        this.writeFields(w, plan, {}, path);
        return;
      case 'IntOrString':
        this.writeSpecial(w, plan, 0, path);
        return;
      case 'Quantity':
        this.writeSpecial(w, plan, '0', path);
        return;
      case 'Duration':
        w.tag(1, WireType.Varint).varint(0);
        return;
      case 'JSONSchemaPropsOrBool':
        w.tag(1, WireType.Varint).bool(false);
        return;
      default:
        return; // Time, MicroTime, RawExtension, FieldsV1, JSON, wrappers: nothing
    }
  }

  private writeSpecial(w: BinaryWriter, plan: MessagePlan, v: Json, path: string): void {
    switch (plan.special) {
      case 'Time':
      case 'MicroTime': {
        if (typeof v !== 'string') fail(path, 'expected an RFC 3339 time string');
        const t = parseTime(v);
        w.tag(1, WireType.Varint).varint(t.seconds);
        const nanos = plan.special === 'MicroTime' ? Math.floor(t.nanos / 1000) * 1000 : 0;
        w.tag(2, WireType.Varint).varint(nanos);
        return;
      }
      case 'Duration':
        if (typeof v !== 'string') fail(path, 'expected a duration string');
        w.tag(1, WireType.Varint).varint(parseDuration(v));
        return;
      case 'Quantity':
        if (typeof v !== 'string' && typeof v !== 'number') fail(path, 'expected a quantity');
        w.tag(1, WireType.LengthDelimited).string(String(v));
        return;
      case 'IntOrString':
        if (typeof v === 'number') {
          if (!Number.isInteger(v)) fail(path, 'expected an integer or a string');
          w.tag(1, WireType.Varint).varint(0).tag(2, WireType.Varint).varint(v).tag(3, WireType.LengthDelimited).string('');
        } else if (typeof v === 'string') {
          w.tag(1, WireType.Varint).varint(1).tag(2, WireType.Varint).varint(0).tag(3, WireType.LengthDelimited).string(v);
        } else fail(path, 'expected an integer or a string');
        return;
      case 'RawExtension':
      case 'JSON':
      case 'FieldsV1':
        w.tag(1, WireType.LengthDelimited).bytes(utf8.encode(JSON.stringify(v)));
        return;
      case 'ListWrapper': {
        if (!Array.isArray(v)) fail(path, 'expected an array');
        const item = plan.fields[0];
        for (let i = 0; i < v.length; i++) {
          if (item.message) this.writeMessageField(w, item.number, item.message, v[i], `${path}[${i}]`);
          else {
            w.tag(item.number, scalarWire(item.scalar!));
            writeScalarValue(w, item.scalar!, v[i], `${path}[${i}]`);
          }
        }
        return;
      }
      case 'JSONSchemaPropsOrArray': {
        const [schema, list] = plan.fields;
        if (Array.isArray(v)) for (let i = 0; i < v.length; i++) this.writeMessageField(w, list.number, list.message!, v[i], `${path}[${i}]`);
        else this.writeMessageField(w, schema.number, schema.message!, v, path);
        return;
      }
      case 'JSONSchemaPropsOrBool': {
        const [allows, schema] = plan.fields;
        if (typeof v === 'boolean') w.tag(allows.number, WireType.Varint).bool(v);
        else {
          w.tag(allows.number, WireType.Varint).bool(true);
          this.writeMessageField(w, schema.number, schema.message!, v, path);
        }
        return;
      }
      case 'JSONSchemaPropsOrStringArray': {
        const [schema, prop] = plan.fields;
        if (Array.isArray(v)) for (const s of v) w.tag(prop.number, WireType.LengthDelimited).string(String(s));
        else this.writeMessageField(w, schema.number, schema.message!, v, path);
        return;
      }
      default:
        this.writeFields(w, { ...plan, special: undefined }, v, path);
    }
  }
}
