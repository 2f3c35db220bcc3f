// Entry point of the object layer over a KV: KVStorage (see kv-storage.ts).
// The continue-token codec, the value codec and the request-size limit are
// imported from their own modules.
export { KVStorage } from './kv-storage.ts';
