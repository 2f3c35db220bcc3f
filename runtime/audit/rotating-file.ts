// An append-only log file that rotates as the lumberjack package does for
// kube-apiserver's --audit-log-path: a write that would take the file past
// maxSize megabytes (100 when 0) first renames it to
// `<name>-<UTC time as 2006-01-02T15-04-05.000><ext>` beside it and starts a
// new file; after a rotation, backups beyond maxBackups (0: all kept) and
// older than maxAge days (0: any age) are removed, oldest first. A single
// write larger than maxSize is refused, as lumberjack refuses it. The clock
// is passed in (tests rotate with a fake one).

import { promises as fs } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

export interface RotationOptions {
  /** Megabytes before rotating; 0: lumberjack's default of 100. */
  maxSizeMB: number;
  /** Backups kept (0: all). */
  maxBackups: number;
  /** Days a backup is kept (0: forever). */
  maxAgeDays: number;
  /** Bytes per megabyte (tests shrink it). */
  megabyte?: number;
  now?: () => number;
}

const DAY_MS = 24 * 3600 * 1000;

/** lumberjack's backup name of `file` at time `ms`: `audit-2024-05-01T12-00-00.000.log`. */
export function backupName(file: string, ms: number): string {
  const ext = extname(file);
  const prefix = basename(file, ext);
  const stamp = new Date(ms).toISOString().slice(0, 23).replace(/:/g, '-');
  return join(dirname(file), `${prefix}-${stamp}${ext}`);
}

/** The time a backup name carries, or undefined when the name is not one of `file`'s backups. */
function backupTime(file: string, name: string): number | undefined {
  const ext = extname(file);
  const prefix = `${basename(file, ext)}-`;
  if (!name.startsWith(prefix) || !name.endsWith(ext)) return undefined;
  const stamp = name.slice(prefix.length, name.length - ext.length);
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(stamp);
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(t) ? undefined : t;
}

export class RotatingFile {
  private handle: fs.FileHandle | undefined;
  private size = 0;
  private readonly max: number;
  private readonly now: () => number;

  constructor(
    readonly path: string,
    private readonly opts: RotationOptions,
  ) {
    this.max = (opts.maxSizeMB > 0 ? opts.maxSizeMB : 100) * (opts.megabyte ?? 1024 * 1024);
    this.now = opts.now ?? Date.now;
  }

  /** Appends the bytes, rotating first when they would not fit. */
  async write(bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength > this.max) throw new Error(`write length ${bytes.byteLength} exceeds maximum file size ${this.max}`);
    if (!this.handle) await this.open();
    if (this.size + bytes.byteLength > this.max) await this.rotate();
    await this.handle!.write(bytes);
    this.size += bytes.byteLength;
  }

  /** Appends lines (each whole in one file, as lumberjack gets one write per line), several per write where they fit. */
  async writeLines(lines: readonly string[]): Promise<void> {
    let batch: Buffer[] = [];
    let batchSize = 0;
    const out = async () => {
      if (batch.length) await this.write(batch.length === 1 ? batch[0] : Buffer.concat(batch, batchSize));
      batch = [];
      batchSize = 0;
    };
    if (!this.handle) await this.open();
    for (const line of lines) {
      const b = Buffer.from(line);
      if (this.size + batchSize + b.byteLength > this.max) await out();
      batch.push(b);
      batchSize += b.byteLength;
    }
    await out();
  }

  async close(): Promise<void> {
    const h = this.handle;
    this.handle = undefined;
    await h?.close();
  }

  private async open(): Promise<void> {
    await fs.mkdir(dirname(this.path), { recursive: true });
    this.handle = await fs.open(this.path, 'a', 0o600);
    this.size = (await this.handle.stat()).size;
  }

  private async rotate(): Promise<void> {
    await this.close();
    await fs.rename(this.path, backupName(this.path, this.now()));
    this.handle = await fs.open(this.path, 'a', 0o600);
    this.size = 0;
    await this.removeOldBackups();
  }

  private async removeOldBackups(): Promise<void> {
    const { maxBackups, maxAgeDays } = this.opts;
    if (maxBackups <= 0 && maxAgeDays <= 0) return;
    const dir = dirname(this.path);
    const backups: { name: string; t: number }[] = [];
    for (const name of await fs.readdir(dir)) {
      const t = backupTime(this.path, name);
      if (t !== undefined) backups.push({ name, t });
    }
    backups.sort((a, b) => b.t - a.t); // newest first
    const cutoff = this.now() - maxAgeDays * DAY_MS;
    const remove = backups.filter((b, i) => (maxBackups > 0 && i >= maxBackups) || (maxAgeDays > 0 && b.t < cutoff));
    await Promise.all(remove.map((b) => fs.rm(join(dir, b.name), { force: true })));
  }
}
