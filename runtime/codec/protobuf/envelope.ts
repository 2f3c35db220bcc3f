// The Kubernetes protobuf envelope: the magic prefix `k8s\0` followed by a
// runtime.Unknown {typeMeta {apiVersion, kind}, raw, contentEncoding,
// contentType}. Written by hand into one buffer (four fixed fields; the part
// before raw kept per apiVersion and kind), read with protobuf-es's wire
// primitives. Anything else is a ProtobufError.
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
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

/** Bytes of a varint. */
export function varintLength(n: number): number {
  let len = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    len++;
  }
  return len;
}

/** Writes n as a varint at `at`; returns the position after it. */
export function writeVarint(out: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    out[at++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  out[at++] = n;
  return at;
}

const utf8 = new TextEncoder();

/** The envelope up to raw's length (magic, typeMeta, raw's tag), per apiVersion and kind: servers answer few kinds. */
const heads = new Map<string, Uint8Array>();
const HEADS_MAX = 1024;

function head(apiVersion: string, kind: string): Uint8Array {
  const key = `${apiVersion}\0${kind}`;
  let h = heads.get(key);
  if (h) return h;
  const av = utf8.encode(apiVersion);
  const k = utf8.encode(kind);
  const typeMeta = 1 + varintLength(av.length) + av.length + 1 + varintLength(k.length) + k.length;
  h = new Uint8Array(4 + 1 + varintLength(typeMeta) + typeMeta + 1);
  h.set(MAGIC, 0);
  let at = 4;
  h[at++] = 0x0a; // typeMeta, length-delimited
  at = writeVarint(h, at, typeMeta);
  h[at++] = 0x0a; // apiVersion
  at = writeVarint(h, at, av.length);
  h.set(av, at);
  at += av.length;
  h[at++] = 0x12; // kind
  at = writeVarint(h, at, k.length);
  h.set(k, at);
  at += k.length;
  h[at] = 0x12; // raw, length-delimited
  if (heads.size >= HEADS_MAX) heads.clear();
  heads.set(key, h);
  return h;
}

/** The trailer: contentEncoding and contentType, both written empty (as Go writes them). */
const TAIL = new Uint8Array([0x1a, 0x00, 0x22, 0x00]);

/** Wraps an encoded message in the envelope: one buffer, raw copied once. */
export function wrap(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  return wrapWriting(apiVersion, kind, raw.length, (out, at) => {
    out.set(raw, at);
    return at + raw.length;
  });
}

/**
 * The envelope's bytes before and after a message of `rawSize` bytes, for a
 * writer that sends the message between them in parts (a list streamed in
 * chunks). The tail is shared: read it, never write it.
 */
export function envelopeAround(apiVersion: string, kind: string, rawSize: number): { head: Uint8Array; tail: Uint8Array } {
  const h = head(apiVersion, kind);
  const out = new Uint8Array(h.length + varintLength(rawSize));
  out.set(h, 0);
  writeVarint(out, h.length, rawSize);
  return { head: out, tail: TAIL };
}

/**
 * The envelope around a message of `rawSize` bytes that `write` puts straight
 * into the result at `at` (returning the position after it): a large message
 * made of parts (a list of cached items) is never copied a second time.
 */
function wrapWriting(apiVersion: string, kind: string, rawSize: number, write: (out: Uint8Array, at: number) => number): Uint8Array {
  const h = head(apiVersion, kind);
  const out = new Uint8Array(h.length + varintLength(rawSize) + rawSize + TAIL.length);
  out.set(h, 0);
  const at = writeVarint(out, h.length, rawSize);
  const end = write(out, at);
  if (end !== at + rawSize) throw new ProtobufError(`envelope: wrote ${end - at} of ${rawSize} bytes`);
  out.set(TAIL, end);
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
