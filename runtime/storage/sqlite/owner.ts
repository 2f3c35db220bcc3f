// The owner record beside a database file (`<db>.owner`, JSON: pid, host,
// start time, URL). The lock itself is SQLite's exclusive file lock, which
// the operating system drops when the process dies (even by kill -9); this
// record only names the holder in the message a second process gets, and
// tells the next owner that the previous one did not stop cleanly. Small
// file I/O only.
import fs from 'node:fs';
import os from 'node:os';

export interface OwnerRecord {
  pid: number;
  host: string;
  /** ISO time the owner opened the store. */
  since: string;
  /** Where the owner serves, once it listens. */
  url?: string;
}

export function ownerPath(dbFile: string): string {
  return `${dbFile}.owner`;
}

export function readOwner(dbFile: string): OwnerRecord | null {
  try {
    const rec = JSON.parse(fs.readFileSync(ownerPath(dbFile), 'utf8'));
    return rec && typeof rec.pid === 'number' ? (rec as OwnerRecord) : null;
  } catch {
    return null;
  }
}

/** Writes (atomically) the record naming this process as the owner. */
export function writeOwner(dbFile: string, extra: { url?: string; since?: string } = {}): OwnerRecord {
  const rec: OwnerRecord = { pid: process.pid, host: os.hostname(), since: extra.since ?? new Date().toISOString(), ...(extra.url ? { url: extra.url } : {}) };
  const tmp = `${ownerPath(dbFile)}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(rec) + '\n');
  fs.renameSync(tmp, ownerPath(dbFile));
  return rec;
}

/** Removes the record if it names this process. */
export function removeOwner(dbFile: string): void {
  const rec = readOwner(dbFile);
  if (rec && rec.pid === process.pid && rec.host === os.hostname()) fs.rmSync(ownerPath(dbFile), { force: true });
}

/** Whether a process with this pid exists on this host. */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
