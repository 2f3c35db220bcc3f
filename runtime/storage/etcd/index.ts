// The etcd backend of the KV contract: the store (etcd-kv.ts), its key
// layout (key-layout.ts), its value encoding (value-codec.ts) and its
// watches (etcd-watch.ts).
export { openEtcdKV, COMPACT_REV_KEY } from './etcd-kv.ts';
export { EtcdCompactor } from './compactor.ts';
export { protobufValues } from './value-codec.ts';
