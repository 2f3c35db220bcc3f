// The SQLite layout of the revision log: an append-only `log` table (row id =
// revision, like kine), a `current` table pointing every live key at its
// latest log row (so reads of the present never scan history), and `meta` for
// the compaction mark, `probe` for the write probe of readiness. Also the
// connection pragmas. Knows nothing of watches or batching.
import type Database from 'better-sqlite3';

export type SyncMode = 'FULL' | 'NORMAL' | 'OFF';

export const DDL = `
CREATE TABLE IF NOT EXISTS log (
  rev        INTEGER PRIMARY KEY,   -- the revision of this write
  key        TEXT    NOT NULL,
  created    INTEGER NOT NULL,      -- 1: this write created the key
  deleted    INTEGER NOT NULL,      -- 1: this write deleted the key (value = last value)
  create_rev INTEGER NOT NULL,
  prev_rev   INTEGER NOT NULL,      -- the key's previous log row (0: none)
  value      TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS log_key_rev ON log (key, rev);
CREATE TABLE IF NOT EXISTS current (
  key        TEXT    PRIMARY KEY,
  rev        INTEGER NOT NULL,
  create_rev INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS probe (
  id  INTEGER PRIMARY KEY,
  pad BLOB NOT NULL             -- written and removed in one transaction: never holds a row
);
`;

/**
 * Exclusive locking (set before the first access: the connection takes the
 * file lock once and keeps it until closed, so no other process can open the
 * file meanwhile; the WAL index then lives in memory, with no -shm file),
 * WAL journal (one sequential append per commit), `synchronous` as chosen
 * (FULL: fsync at every commit, survives power loss), bounded WAL:
 * checkpoint every 1000 pages and truncate the file back to 16 MiB after a
 * checkpoint. The page cache is 4 MiB (PAGE_CACHE_KIB): reads are answered
 * from the watch cache, so SQLite needs only the B-trees' upper levels and
 * the pages a commit touches; the operating system's file cache holds the
 * rest, which a larger cache would only copy into the process.
 */
/** SQLite's page cache per connection, in KiB. */
export const PAGE_CACHE_KIB = 4 * 1024;

export function applyPragmas(db: Database.Database, sync: SyncMode, inMemory: boolean): void {
  if (!inMemory) {
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
  }
  db.pragma(`synchronous = ${sync}`);
  db.pragma('wal_autocheckpoint = 1000');
  db.pragma(`journal_size_limit = ${16 * 1024 * 1024}`);
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  db.pragma('temp_store = MEMORY');
}

/** The smallest string greater than every string that starts with `prefix`. */
export function prefixEnd(prefix: string): string {
  if (prefix === '') return MAX_KEY;
  const last = prefix.charCodeAt(prefix.length - 1);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/** Above every valid UTF-8 key in SQLite's BINARY order. */
export const MAX_KEY = '\u{10FFFF}\u{10FFFF}';
