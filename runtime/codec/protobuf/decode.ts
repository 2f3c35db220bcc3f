// Protobuf bytes of one message -> Kubernetes JSON through protobuf-es
// fromBinary (generated descriptors) and a walk of the resulting message with
// the conversion plans. Not on the request path: it is the reference the fast
// one-pass reader (reader.ts) is tested against (Codec.decodeReflect). Same
// output rules: JSON names, inlined structs flattened, special types to their
// JSON form, int64 to numbers, bytes to base64, zero by-value scalars dropped.
import { fromBinary, ScalarType, type DescMessage } from '@bufbuild/protobuf';
import type { MessagePlan, Plans } from './plan.ts';
import { ProtobufError } from './errors.ts';
import { bytesToBase64, formatDuration, formatTime } from './special-values.ts';

type Json = unknown;
/** A decoded protobuf-es message, read field by field through its local names. */
type Fields = Record<string, unknown>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function has(msg: Fields, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(msg, key) && msg[key] !== undefined;
}

function scalarToJson(t: ScalarType, v: Json): Json {
  switch (t) {
    case ScalarType.BYTES:
      return bytesToBase64(v as Uint8Array);
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return Number(v);
    default:
      return v;
  }
}

function isZeroJson(v: Json): boolean {
  return v === '' || v === 0 || v === false || v === null;
}

export class Decoder {
  /** `nested` decodes an enveloped object found inside a RawExtension. */
  constructor(
    private plans: Plans,
    private nested: (bytes: Uint8Array) => Json,
  ) {}

  decode(desc: DescMessage, bytes: Uint8Array): Json {
    let msg: Fields;
    try {
      msg = fromBinary(desc, bytes) as unknown as Fields;
    } catch (e) {
      throw new ProtobufError(`invalid ${desc.typeName} bytes: ${(e as Error).message}`);
    }
    return this.toJson(this.plans.get(desc), msg);
  }

  private toJson(plan: MessagePlan, msg: Fields, out: Record<string, Json> = {}): Json {
    if (plan.special) return this.special(plan, msg);
    for (const f of plan.fields) {
      const v = msg[f.localName];
      if (f.inline) {
        if (has(msg, f.localName)) this.toJson(this.plans.get(f.message!), v as Fields, out);
        continue;
      }
      switch (f.shape) {
        case 'scalar': {
          if (!has(msg, f.localName)) break;
          const j = scalarToJson(f.scalar!, v);
          if (f.always && isZeroJson(j)) break;
          out[f.json] = j;
          break;
        }
        case 'message': {
          if (!has(msg, f.localName)) break;
          const sub = this.plans.get(f.message!);
          const j = this.toJson(sub, v as Fields);
          if (j === null || j === undefined) break;
          out[f.json] = j;
          break;
        }
        case 'list': {
          const list = v as Json[] | undefined;
          if (!list || list.length === 0) break;
          if (f.message) {
            const sub = this.plans.get(f.message);
            out[f.json] = list.map((x) => this.toJson(sub, x as Fields));
          } else out[f.json] = list.map((x) => scalarToJson(f.scalar!, x));
          break;
        }
        case 'map': {
          const entries = v as Record<string, Json> | undefined;
          if (!entries) break;
          const keys = Object.keys(entries);
          if (keys.length === 0) break;
          const m: Record<string, Json> = {};
          const sub = f.message ? this.plans.get(f.message) : undefined;
          for (const k of keys) m[k] = sub ? this.toJson(sub, entries[k] as Fields) : scalarToJson(f.scalar!, entries[k]);
          out[f.json] = m;
          break;
        }
      }
    }
    return out;
  }

  private raw(bytes: Uint8Array | undefined): Json {
    if (!bytes || bytes.length === 0) return null;
    if (bytes.length >= 4 && bytes[0] === 0x6b && bytes[1] === 0x38 && bytes[2] === 0x73 && bytes[3] === 0x00) return this.nested(bytes);
    try {
      return JSON.parse(utf8.decode(bytes));
    } catch {
      throw new ProtobufError('embedded raw object is neither JSON nor a protobuf-encoded object');
    }
  }

  private special(plan: MessagePlan, msg: Fields): Json {
    const f = plan.fields;
    switch (plan.special) {
      case 'Time':
      case 'MicroTime':
        if (!has(msg, f[0].localName) && !has(msg, f[1].localName)) return null;
        return formatTime(Number(msg[f[0].localName] ?? 0), Number(msg[f[1].localName] ?? 0), plan.special === 'MicroTime');
      case 'Duration':
        return formatDuration(Number(msg[f[0].localName] ?? 0));
      case 'Quantity':
        return has(msg, f[0].localName) ? msg[f[0].localName] : '0';
      case 'IntOrString':
        return Number(msg[f[0].localName] ?? 0) === 1 ? (msg[f[2].localName] ?? '') : (msg[f[1].localName] ?? 0);
      case 'RawExtension':
      case 'JSON':
      case 'FieldsV1':
        return this.raw(msg[f[0].localName] as Uint8Array | undefined);
      case 'ListWrapper': {
        const item = f[0];
        const v = (msg[item.localName] ?? []) as Json[];
        if (item.message) {
          const sub = this.plans.get(item.message);
          return v.map((x) => this.toJson(sub, x as Fields));
        }
        return v.map((x) => scalarToJson(item.scalar!, x));
      }
      case 'JSONSchemaPropsOrArray': {
        const [schema, list] = f;
        if (has(msg, schema.localName)) return this.toJson(this.plans.get(schema.message!), msg[schema.localName] as Fields);
        const sub = this.plans.get(list.message!);
        return ((msg[list.localName] ?? []) as Fields[]).map((x) => this.toJson(sub, x));
      }
      case 'JSONSchemaPropsOrBool': {
        const [allows, schema] = f;
        if (has(msg, schema.localName)) return this.toJson(this.plans.get(schema.message!), msg[schema.localName] as Fields);
        return Boolean(msg[allows.localName]);
      }
      case 'JSONSchemaPropsOrStringArray': {
        const [schema, prop] = f;
        if (has(msg, schema.localName)) return this.toJson(this.plans.get(schema.message!), msg[schema.localName] as Fields);
        return [...((msg[prop.localName] ?? []) as Json[])];
      }
      default:
        return this.toJson({ ...plan, special: undefined }, msg);
    }
  }
}
