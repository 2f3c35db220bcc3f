// The fsync that makes committed transactions durable, done off the main
// thread. SQLite in WAL mode with synchronous=FULL syncs the WAL file after
// every commit, blocking the caller; with synchronous=NORMAL it does the same
// syncs at checkpoints and when the WAL is reused, and leaves the per-commit
// one out. The store runs NORMAL and calls sync() after its commits: an
// fdatasync of the WAL file in libuv's thread pool (and, the first time, of
// its directory, as SQLite does for a newly created WAL), and acknowledges
// the writes only when it is done. Knows nothing of SQL.
import fs from 'node:fs';
import path from 'node:path';

/** Makes every byte written to the WAL before the call durable, then calls done. */
export type SyncFn = (done: (err: Error | null) => void) => void;

export class WalSync {
  private readonly walPath: string;
  private fd: number | undefined;
  private ino = 0;
  private dirSynced = false;

  constructor(dbPath: string) {
    this.walPath = `${dbPath}-wal`;
  }

  readonly sync: SyncFn = (done) => {
    let fd: number;
    try {
      fd = this.open();
    } catch (err) {
      done(err as Error);
      return;
    }
    fs.fdatasync(fd, (err) => {
      if (err || this.dirSynced) {
        done(err);
        return;
      }
      syncDir(path.dirname(this.walPath), (dirErr) => {
        if (!dirErr) this.dirSynced = true;
        done(dirErr);
      });
    });
  };

  close(): void {
    if (this.fd === undefined) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      /* closing only releases the descriptor */
    }
    this.fd = undefined;
  }

  /**
   * The WAL file's descriptor, opened again when the file at the path is no
   * longer the one held (SQLite keeps it while the connection is open, but a
   * stale descriptor would sync the wrong file).
   */
  private open(): number {
    const ino = fs.statSync(this.walPath).ino;
    if (this.fd !== undefined && ino === this.ino) return this.fd;
    this.close();
    this.fd = fs.openSync(this.walPath, 'r');
    this.ino = fs.fstatSync(this.fd).ino;
    this.dirSynced = false;
    return this.fd;
  }
}

function syncDir(dir: string, done: (err: Error | null) => void): void {
  fs.open(dir, 'r', (err, fd) => {
    if (err) {
      done(err);
      return;
    }
    fs.fsync(fd, (syncErr) => fs.close(fd, () => done(syncErr)));
  });
}
