// Compaction of the SQLite revision log: drops every row superseded at or
// below a revision and every tombstone at or below it, walking only the log
// rows in (done, target] by row id (never a scan of the whole history), in
// short transactions so requests are not blocked for long. Also picks the
// target revision from the history window. No watch or batching logic.
import type Database from 'better-sqlite3';

export interface CompactStatements {
  rowsInRange: Database.Statement;
  deleteRow: Database.Statement;
  setMeta: Database.Statement;
}

export function prepareCompact(db: Database.Database): CompactStatements {
  return {
    rowsInRange: db.prepare('SELECT rev, prev_rev AS prevRev, deleted FROM log WHERE rev > ? AND rev <= ? ORDER BY rev LIMIT ?'),
    deleteRow: db.prepare('DELETE FROM log WHERE rev = ?'),
    setMeta: db.prepare('INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value'),
  };
}

/**
 * Compacts one chunk of rows after `done` up to `target`; returns the new
 * `done` (== target when finished) and the number of rows deleted. The row
 * holding the newest revision is never deleted (it keeps the revision counter
 * across restarts).
 */
export function compactChunk(db: Database.Database, st: CompactStatements, done: number, target: number, maxRev: number, chunk: number): { done: number; deleted: number } {
  let deleted = 0;
  let last = done;
  db.transaction(() => {
    const rows = st.rowsInRange.all(done, target, chunk) as { rev: number; prevRev: number; deleted: number }[];
    for (const r of rows) {
      if (r.prevRev > 0) deleted += st.deleteRow.run(r.prevRev).changes;
      if (r.deleted && r.rev !== maxRev) deleted += st.deleteRow.run(r.rev).changes;
      last = r.rev;
    }
    if (rows.length < chunk) last = target;
    st.setMeta.run('compact_done', last);
  }).immediate();
  return { done: last, deleted };
}

/**
 * Remembers (time, revision) samples and answers the newest revision that is
 * at least `windowMs` old: everything at or below it may be compacted.
 */
export class RevisionClock {
  private samples: { t: number; rev: number }[] = [];
  constructor(
    private windowMs: number,
    private now: () => number = Date.now,
  ) {}

  sample(rev: number): void {
    const t = this.now();
    const last = this.samples[this.samples.length - 1];
    if (last && last.rev === rev) return;
    this.samples.push({ t, rev });
  }

  /** Newest sampled revision older than the window (0 if none); drops older samples. */
  horizon(): number {
    const cutoff = this.now() - this.windowMs;
    let found = 0;
    let i = 0;
    while (i < this.samples.length && this.samples[i].t <= cutoff) {
      found = this.samples[i].rev;
      i++;
    }
    if (i > 1) this.samples.splice(0, i - 1);
    return found;
  }
}
