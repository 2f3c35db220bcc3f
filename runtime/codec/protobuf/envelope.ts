// The Kubernetes protobuf envelope: the magic prefix `k8s\0` followed by a
// runtime.Unknown {typeMeta {apiVersion, kind}, raw, contentEncoding,
// contentType}. Written and read by hand (four fixed fields) with
// protobuf-es's wire primitives. Anything else is a ProtobufError.
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { ProtobufError } from './errors.ts';

export const MAGIC = new Uint8Array([0x6b, 0x38, 0x73, 0x00]);

export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

export function hasMagic(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x6b && bytes[1] === 0x38 && bytes[2] === 0x73 && bytes[3] === 0x00;
}

export function wrap(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const w = new BinaryWriter();
  w.tag(1, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).string(apiVersion);
  w.tag(2, WireType.LengthDelimited).string(kind);
  w.join();
  w.tag(2, WireType.LengthDelimited).bytes(raw);
  w.tag(3, WireType.LengthDelimited).string('');
  w.tag(4, WireType.LengthDelimited).string('');
  const body = w.finish();
  const out = new Uint8Array(4 + body.length);
  out.set(MAGIC, 0);
  out.set(body, 4);
  return out;
}

function expectWire(actual: WireType, expected: WireType, what: string): void {
  if (actual !== expected) throw new ProtobufError(`invalid protobuf envelope: ${what} has wire type ${actual}`);
}

export function unwrap(bytes: Uint8Array): Envelope {
  if (!hasMagic(bytes)) {
    throw new ProtobufError('the body is not a Kubernetes protobuf object: it does not start with the prefix "k8s\\x00"');
  }
  const env: Envelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  try {
    const r = new BinaryReader(bytes.subarray(4));
    while (r.pos < r.len) {
      const [no, wt] = r.tag();
      switch (no) {
        case 1: {
          expectWire(wt, WireType.LengthDelimited, 'typeMeta');
          const t = new BinaryReader(r.bytes());
          while (t.pos < t.len) {
            const [tno, twt] = t.tag();
            if (tno === 1 && twt === WireType.LengthDelimited) env.apiVersion = t.string();
            else if (tno === 2 && twt === WireType.LengthDelimited) env.kind = t.string();
            else t.skip(twt, tno);
          }
          break;
        }
        case 2:
          expectWire(wt, WireType.LengthDelimited, 'raw');
          env.raw = r.bytes();
          break;
        case 3:
          expectWire(wt, WireType.LengthDelimited, 'contentEncoding');
          env.contentEncoding = r.string();
          break;
        case 4:
          expectWire(wt, WireType.LengthDelimited, 'contentType');
          env.contentType = r.string();
          break;
        default:
          r.skip(wt, no);
      }
    }
  } catch (e) {
    if (e instanceof ProtobufError) throw e;
    throw new ProtobufError(`invalid protobuf envelope: ${(e as Error).message}`);
  }
  if (env.contentEncoding !== '') throw new ProtobufError(`unsupported content encoding ${JSON.stringify(env.contentEncoding)}`);
  if (env.contentType !== '' && env.contentType !== 'application/vnd.kubernetes.protobuf') {
    throw new ProtobufError(`unsupported embedded content type ${JSON.stringify(env.contentType)}`);
  }
  return env;
}
