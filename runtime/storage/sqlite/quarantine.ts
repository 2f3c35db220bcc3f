// Unreadable stored values: finding every log row whose value cannot be read
// back as a JSON object, and moving such rows into the `quarantine` table of
// the same file (nothing is deleted). A quarantined present value makes its
// key disappear (a tombstone takes its place in the log); a quarantined past
// value leaves the history chain linked around it; history up to the new
// revision is then compacted, so no client is served a view that still had
// the damaged row (reads and watches from before get 410 and relist). Runs at
// open, before anything is served.
import type Database from 'better-sqlite3';
import type { UnreadableRow } from './open-errors.ts';

export const QUARANTINE_DDL = `
CREATE TABLE IF NOT EXISTS quarantine (
  rev            INTEGER PRIMARY KEY,  -- the log row's revision
  key            TEXT    NOT NULL,
  created        INTEGER NOT NULL,
  deleted        INTEGER NOT NULL,
  create_rev     INTEGER NOT NULL,
  prev_rev       INTEGER NOT NULL,
  value          BLOB,                 -- exactly as found (BLOB affinity converts nothing)
  was_current    INTEGER NOT NULL,     -- 1: it was the key's present value
  reason         TEXT    NOT NULL,
  quarantined_at TEXT    NOT NULL
);
`;

interface LogRowFull {
  rev: number;
  key: string;
  created: number;
  deleted: number;
  createRev: number;
  prevRev: number;
  value: unknown;
  current: number;
  reason: string;
}

/**
 * Every log row whose value is not a JSON object. SQLite's JSON functions
 * pick the candidates in one pass; each candidate is confirmed with the
 * decoder the server uses, so a value SQLite alone rejects (deep nesting)
 * is not reported.
 */
export function findUnreadable(db: Database.Database): UnreadableRow[] {
  const candidates = db
    .prepare(
      `
    SELECT l.rev, l.key, l.value, (c.rev IS NOT NULL) AS current,
      CASE WHEN typeof(l.value) <> 'text' THEN 'stored as ' || typeof(l.value)
           WHEN NOT json_valid(l.value) THEN 'invalid JSON'
           WHEN json_type(l.value) <> 'object' THEN 'not a JSON object'
      END AS reason
    FROM log l NOT INDEXED LEFT JOIN current c ON c.key = l.key AND c.rev = l.rev
    WHERE typeof(l.value) <> 'text' OR NOT json_valid(l.value) OR json_type(l.value) <> 'object'
    ORDER BY l.rev`,
    )
    .all() as { rev: number; key: string; value: unknown; current: number; reason: string }[];
  const out: UnreadableRow[] = [];
  for (const c of candidates) {
    let reason = c.reason;
    if (typeof c.value === 'string') {
      try {
        const v = JSON.parse(c.value);
        if (v && typeof v === 'object' && !Array.isArray(v)) continue; // readable after all
        reason = 'not a JSON object';
      } catch (err) {
        reason = `invalid JSON: ${(err as Error).message}`;
      }
    }
    out.push({ key: c.key, rev: c.rev, reason, current: !!c.current });
  }
  return out;
}

/**
 * Moves the rows into the quarantine table in one transaction and returns
 * the revision history is to be compacted to (the new newest revision).
 */
export function quarantineRows(db: Database.Database, rows: UnreadableRow[]): number {
  db.exec(QUARANTINE_DDL);
  const getRow = db.prepare(`SELECT l.rev, l.key, l.created, l.deleted, l.create_rev AS createRev, l.prev_rev AS prevRev, l.value,
      (SELECT count(*) FROM current c WHERE c.key = l.key AND c.rev = l.rev) AS current
    FROM log l WHERE l.rev = ?`);
  const insQ = db.prepare(`INSERT INTO quarantine (rev, key, created, deleted, create_rev, prev_rev, value, was_current, reason, quarantined_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const delLog = db.prepare('DELETE FROM log WHERE rev = ?');
  const relink = db.prepare('UPDATE log SET prev_rev = ? WHERE prev_rev = ?');
  const blankTombstone = db.prepare("UPDATE log SET value = '{}' WHERE rev = ?");
  const delCurrent = db.prepare('DELETE FROM current WHERE key = ?');
  const insLog = db.prepare('INSERT INTO log (rev, key, created, deleted, create_rev, prev_rev, value) VALUES (?, ?, 0, 1, ?, ?, ?)');
  const maxRev = db.prepare('SELECT max(rev) FROM log').pluck();
  const setMeta = db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value');
  const now = new Date().toISOString();
  let newest = 0;
  db.transaction(() => {
    const tombstones: LogRowFull[] = [];
    for (const r of rows) {
      const row = getRow.get(r.rev) as LogRowFull | undefined;
      if (!row) continue;
      insQ.run(row.rev, row.key, row.created, row.deleted, row.createRev, row.prevRev, row.value as never, row.current ? 1 : 0, r.reason, now);
      if (row.deleted) {
        // a delete keeps its place in the log (it holds the revision); only its copy of the last value goes
        blankTombstone.run(row.rev);
      } else if (row.current) {
        delLog.run(row.rev);
        delCurrent.run(row.key);
        tombstones.push(row);
      } else {
        delLog.run(row.rev);
        relink.run(row.prevRev, row.rev);
      }
    }
    newest = (maxRev.get() as number | null) ?? 0;
    for (const r of rows) newest = Math.max(newest, r.rev);
    // the keys whose present value went are deleted at new revisions, so watchers and caches see them go
    for (const t of tombstones) insLog.run(++newest, t.key, t.createRev, t.prevRev, '{}');
    setMeta.run('compact_rev', newest);
  }).immediate();
  return newest;
}

/** How many rows the quarantine table holds (0 when it does not exist). */
export function quarantineCount(db: Database.Database): number {
  const exists = db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'quarantine'").pluck().get() as number;
  return exists ? (db.prepare('SELECT count(*) FROM quarantine').pluck().get() as number) : 0;
}
