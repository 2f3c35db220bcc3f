// Public surface of runtime/storage: the contracts, the error types with
// upstream texts, the factory, each layer, and the selector parsers. Other
// runtime modules import from here (or from the entry points named below).
export * from './interface.ts';
export {
  ResourceExpiredError, TooLargeResourceVersionError, ListOptionsInvalidError, parseResourceVersion,
  EXPIRED_LIST_MESSAGE, CONTINUE_EXPIRED_MESSAGE, INCONSISTENT_CONTINUE_MESSAGE,
} from './errors.ts';
export { openStorage, DB_FILE, type OpenStorageOptions, type OpenedStorage } from './factory.ts';
export { openSqliteKV, SqliteKV, type SqliteKVOptions, type SqliteKVStats } from './sqlite/index.ts';
export { KVStorage, ContinueTokenError, WATCH_TOO_OLD_MESSAGE, type KVStorageOptions } from './kvstore/index.ts';
export { Cacher, type CacherOptions } from './cacher/index.ts';
export { parseLabelSelector, labelSelectorFromObject, SelectorError } from './selectors/labels.ts';
export { parseFieldSelector, type FieldSelector } from './selectors/fields.ts';
export { attrsFor, supportedFields } from './selectors/attrs.ts';
