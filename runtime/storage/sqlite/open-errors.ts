// Why the SQLite store refused to open: the data directory is held by another
// process, the file is not a usable SQLite database, or some stored values
// cannot be read back as objects. Each message is written for the operator
// (it names the file, the holder or the keys, and the way out) and is printed
// without a stack trace. Pure types and message builders; no I/O.
import type { OwnerRecord } from './owner.ts';

/** The flag (and startServer option) that moves unreadable rows aside. */
export const QUARANTINE_FLAG = '--quarantine-unreadable';

/** Base class: a refusal to open the store, with a message meant for the operator. */
export class StorageOpenError extends Error {}

/** Another process holds the exclusive lock on the database file. */
export class DataDirInUseError extends StorageOpenError {
  constructor(
    public file: string,
    public owner: OwnerRecord | null,
    ownerAlive: boolean,
  ) {
    let who: string;
    if (owner && ownerAlive) {
      who = `another specserver process (pid ${owner.pid} on ${owner.host}${owner.url ? `, serving ${owner.url}` : ''}, since ${owner.since})`;
    } else if (owner) {
      who = `another process (the last recorded owner, pid ${owner.pid} on ${owner.host}, is gone; some other program has the file open)`;
    } else {
      who = 'another process (no owner record was found; some other program has the file open)';
    }
    super(`the data directory is in use: ${who} holds an exclusive lock on ${file}. ` + 'Stop that process, or start this one with another --data-dir.');
  }
}

/** The file exists but is not a SQLite database, or its structure is damaged (truncated, overwritten). */
export class DatabaseFileError extends StorageOpenError {
  constructor(
    public file: string,
    detail: string,
  ) {
    super(`${file} is not a usable specserver database: ${detail}. ` + 'Restore it from a backup, or move it (with any -wal file beside it) out of the data directory to start with an empty store.');
  }
}

/** One stored value that cannot be decoded as an object. */
export interface UnreadableRow {
  key: string;
  rev: number;
  /** e.g. `invalid JSON: Unexpected token ...`, `not a JSON object`, `stored as a blob` */
  reason: string;
  /** The value is the key's present state (not history). */
  current: boolean;
}

const LISTED = 10;

export function describeRows(rows: UnreadableRow[]): string {
  const shown = rows.slice(0, LISTED).map((r) => `${r.key} (revision ${r.rev}${r.current ? '' : ', history'}: ${r.reason})`);
  const more = rows.length > LISTED ? `; and ${rows.length - LISTED} more` : '';
  return shown.join('; ') + more;
}

/** Stored values that cannot be read; the store does not start without the quarantine flag. */
export class UnreadableRowsError extends StorageOpenError {
  constructor(
    public file: string,
    public rows: UnreadableRow[],
  ) {
    super(
      `${file} holds ${rows.length} unreadable stored value${rows.length === 1 ? '' : 's'}: ${describeRows(rows)}. ` +
        `Start with ${QUARANTINE_FLAG} to move them into the table "quarantine" of that file ` +
        '(their objects disappear from the API; nothing is deleted) and serve everything else. See docs/recovery.md.',
    );
  }
}
