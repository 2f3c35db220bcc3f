// Entry point of the object layer over a KV: KVStorage (see kv-storage.ts)
// and the continue-token codec.
export { KVStorage, checkPreconditions, WATCH_TOO_OLD_MESSAGE, type KVStorageOptions } from './kv-storage.ts';
export { encodeContinue, decodeContinue, ContinueTokenError } from './continue.ts';
export { encodeObject, decodeKV, decodeValue } from './codec.ts';
export { RequestTooLargeError, REQUEST_TOO_LARGE_MESSAGE, DEFAULT_MAX_REQUEST_BYTES } from './request-size.ts';
