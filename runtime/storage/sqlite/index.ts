// Entry point of the SQLite backend: openSqliteKV opens (or creates) the
// revision-log database and returns a KV with a few SQLite-only extras
// (stats, compactNow, checkpoint, commitHealth). See sqlite-kv.ts for the
// design; open-errors.ts lists why an open is refused.
import { SqliteKV, type SqliteKVOptions } from './sqlite-kv.ts';

export { SqliteKV, type SqliteKVOptions };
export { DataDirInUseError, DatabaseFileError, UnreadableRowsError } from './open-errors.ts';

export function openSqliteKV(opts: SqliteKVOptions): SqliteKV {
  return new SqliteKV(opts);
}
