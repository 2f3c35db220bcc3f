// How object values are laid out in etcd: as kube-apiserver stores them.
// A kind with a protobuf message (the built-in kinds) is stored as protobuf in
// the `k8s\0` envelope (runtime.Unknown: typeMeta apiVersion/kind, raw,
// contentEncoding and contentType empty), exactly what kube-apiserver's
// storage codec writes with its default --storage-media-type; anything else
// (custom resources, objects of kinds without a message) as JSON text. A value
// read back is JSON text again, whatever it was stored as, so a data
// directory written by either server reads. The one place values change
// form: the KV (etcd-kv.ts) encodes on every write and decodes on every
// read and watch event, and everything above it sees JSON objects.
// Only types from the codec here: the server loads it (and its protobuf
// runtime) when it opens etcd, not at start-up (storage/factory.ts).
import type { KubeProtobuf } from '../../codec/protobuf/index.ts';

/** Whether bytes start with the envelope's magic `k8s\0`. */
function enveloped(bytes: Buffer): boolean {
  return bytes.length >= 4 && bytes[0] === 0x6b && bytes[1] === 0x38 && bytes[2] === 0x73 && bytes[3] === 0x00;
}

export interface ValueCodec {
  /** The bytes stored for an object's JSON text. */
  encode(json: string): Buffer;
  /** The JSON text of stored bytes. */
  decode(bytes: Buffer): string;
}

/** Values stored as the JSON text itself. */
export const JSON_VALUES: ValueCodec = {
  encode: (json) => Buffer.from(json, 'utf8'),
  decode: (bytes) => bytes.toString('utf8'),
};

/** kube-apiserver's layout: protobuf for the kinds that have it, JSON for the rest. */
export function protobufValues(codec: KubeProtobuf): ValueCodec {
  return {
    encode(json) {
      const obj = JSON.parse(json) as { apiVersion?: unknown; kind?: unknown };
      if (typeof obj.apiVersion === 'string' && typeof obj.kind === 'string' && codec.supports(obj.apiVersion, obj.kind)) return Buffer.from(codec.encode(obj));
      return Buffer.from(json, 'utf8');
    },
    decode(bytes) {
      if (enveloped(bytes)) return JSON.stringify(codec.decode(bytes));
      return bytes.toString('utf8');
    },
  };
}
