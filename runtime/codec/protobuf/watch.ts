// Watch streams in protobuf: each event is a frame of a 4-byte big-endian
// length followed by a meta.k8s.io/v1 WatchEvent {type, object: RawExtension}
// written without envelope (upstream's stream serializer is the raw one), whose
// object.raw holds the enveloped object. Helpers to build and to read frames.
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { ProtobufError } from './errors.ts';

/** WatchEvent bytes (no envelope) for an already enveloped object. */
export function watchEventBytes(type: string, envelopedObject: Uint8Array): Uint8Array {
  const w = new BinaryWriter();
  w.tag(1, WireType.LengthDelimited).string(type);
  w.tag(2, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).bytes(envelopedObject);
  w.join();
  return w.finish();
}

export function frame(payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(4 + payload.length);
  new DataView(out.buffer).setUint32(0, payload.length, false);
  out.set(payload, 4);
  return out;
}

/** Splits a buffer into complete frames; returns them and the unconsumed rest. */
export function splitFrames(buf: Uint8Array): { frames: Uint8Array[]; rest: Uint8Array } {
  const frames: Uint8Array[] = [];
  let pos = 0;
  while (buf.length - pos >= 4) {
    const len = new DataView(buf.buffer, buf.byteOffset + pos, 4).getUint32(0, false);
    if (buf.length - pos - 4 < len) break;
    frames.push(buf.subarray(pos + 4, pos + 4 + len));
    pos += 4 + len;
  }
  return { frames, rest: buf.subarray(pos) };
}

/** WatchEvent bytes -> type and the enveloped object bytes. */
export function readWatchEvent(bytes: Uint8Array): { type: string; object: Uint8Array } {
  let type = '';
  let object: Uint8Array = new Uint8Array(0);
  try {
    const r = new BinaryReader(bytes);
    while (r.pos < r.len) {
      const [no, wt] = r.tag();
      if (no === 1 && wt === WireType.LengthDelimited) type = r.string();
      else if (no === 2 && wt === WireType.LengthDelimited) {
        const x = new BinaryReader(r.bytes());
        while (x.pos < x.len) {
          const [xno, xwt] = x.tag();
          if (xno === 1 && xwt === WireType.LengthDelimited) object = x.bytes();
          else x.skip(xwt, xno);
        }
      } else r.skip(wt, no);
    }
  } catch (e) {
    throw new ProtobufError(`invalid watch event: ${(e as Error).message}`);
  }
  return { type, object };
}
