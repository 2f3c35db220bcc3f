// An append-only log file that rotates as the lumberjack package does for
// kube-apiserver's --audit-log-path: a write that would take the file past
// maxSize megabytes (100 when 0) first renames it to
// `<name>-<UTC time as 2006-01-02T15-04-05.000><ext>` beside it and starts a
// new file; after a rotation, backups beyond maxBackups (0: all kept) and
// older than maxAge days (0: any age) are removed, oldest first. A single
// write larger than maxSize is refused, as lumberjack refuses it. With
// compress (--audit-log-compress) each backup is then gzipped to
// `<backup>.gz` and the plain one removed, in the background as lumberjack's
// mill does (idle() resolves when that is done); compressed backups count
// as backups for maxBackups and maxAge. Writes are synchronous (the log
// backend makes one per batch of events, after the requests' turn, or one
// per event in the blocking modes: a write to the page cache costs less than
// handing it to libuv's thread pool); a batch's lines are encoded into one
// buffer kept for the file's next writes, not joined into a string first.
// The clock is passed in (tests rotate with a fake one).

import { closeSync, createReadStream, createWriteStream, fstatSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

export interface RotationOptions {
  /** Megabytes before rotating; 0: lumberjack's default of 100. */
  maxSizeMB: number;
  /** Backups kept (0: all). */
  maxBackups: number;
  /** Days a backup is kept (0: forever). */
  maxAgeDays: number;
  /** Gzip backups (lumberjack's Compress). */
  compress?: boolean;
  /** Where a failed compression is reported. */
  warn?: (msg: string) => void;
  /** Bytes per megabyte (tests shrink it). */
  megabyte?: number;
  now?: () => number;
}

const DAY_MS = 24 * 3600 * 1000;
/** The largest buffer kept for encoding lines; a longer line is encoded alone. */
const MAX_SCRATCH = 4 * 1024 * 1024;

/** lumberjack's backup name of `file` at time `ms`: `audit-2024-05-01T12-00-00.000.log`. */
export function backupName(file: string, ms: number): string {
  const ext = extname(file);
  const prefix = basename(file, ext);
  const stamp = new Date(ms).toISOString().slice(0, 23).replace(/:/g, '-');
  return join(dirname(file), `${prefix}-${stamp}${ext}`);
}

const GZ = '.gz';

/** A line's length in UTF-16 units (a line in pieces: theirs together). */
function lengthOf(line: string | readonly string[]): number {
  if (typeof line === 'string') return line.length;
  let n = 0;
  for (let i = 0; i < line.length; i++) n += line[i].length;
  return n;
}

const textOf = (line: string | readonly string[]): string => (typeof line === 'string' ? line : line.join(''));

/** The time a backup name (plain or gzipped) carries, or undefined when the name is not one of `file`'s backups. */
function backupTime(file: string, name: string): number | undefined {
  const ext = extname(file);
  const prefix = `${basename(file, ext)}-`;
  const plain = name.endsWith(GZ) ? name.slice(0, -GZ.length) : name;
  if (!plain.startsWith(prefix) || !plain.endsWith(ext)) return undefined;
  const stamp = plain.slice(prefix.length, plain.length - ext.length);
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(stamp);
  if (!m) return undefined;
  const t = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isNaN(t) ? undefined : t;
}

export class RotatingFile {
  private fd: number | undefined;
  private size = 0;
  private readonly max: number;
  private readonly now: () => number;
  /** Where lines are encoded for a write (grown for a long line, up to MAX_SCRATCH). */
  private scratch = Buffer.allocUnsafe(64 * 1024);
  /** The background work on backups (compression), in order. */
  private milling: Promise<void> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly opts: RotationOptions,
  ) {
    this.max = (opts.maxSizeMB > 0 ? opts.maxSizeMB : 100) * (opts.megabyte ?? 1024 * 1024);
    this.now = opts.now ?? Date.now;
  }

  /** Appends the text (UTF-8), rotating first when it would not fit. */
  write(text: string | Buffer): void {
    const bytes = typeof text === 'string' ? Buffer.from(text) : text;
    if (bytes.length > this.max) throw new Error(`write length ${bytes.length} exceeds maximum file size ${this.max}`);
    if (this.fd === undefined) this.open();
    if (this.size + bytes.length > this.max) this.rotate();
    writeSync(this.fd!, bytes);
    this.size += bytes.length;
  }

  /**
   * Appends lines (each whole in one file, as lumberjack gets one write per
   * line), a line one string or pieces written one after the other:
   * encoded into the kept buffer and written a bufferful at a time when
   * that fits in the file, else line by line.
   */
  writeLines(lines: readonly (string | readonly string[])[]): void {
    if (this.fd === undefined) this.open();
    let buf = this.scratch;
    let from = 0;
    let n = 0;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      // at most 3 bytes per UTF-16 unit
      const most = lengthOf(line) * 3;
      if (n + most > buf.length) {
        if (n > 0) this.writeEncoded(lines, from, i, n);
        n = 0;
        from = i;
        if (most > buf.length) {
          if (most > MAX_SCRATCH) {
            this.write(textOf(line));
            from = i + 1;
            continue;
          }
          buf = this.scratch = Buffer.allocUnsafe(most);
        }
      }
      if (typeof line === 'string') n += buf.write(line, n);
      else for (let j = 0; j < line.length; j++) n += buf.write(line[j], n);
    }
    if (n > 0) this.writeEncoded(lines, from, lines.length, n);
  }

  /** Writes the first `n` bytes of the kept buffer, lines[from..to) encoded: at once when they fit in the file, else line by line. */
  private writeEncoded(lines: readonly (string | readonly string[])[], from: number, to: number, n: number): void {
    if (this.size + n <= this.max) {
      writeSync(this.fd!, this.scratch, 0, n);
      this.size += n;
      return;
    }
    for (let i = from; i < to; i++) this.write(textOf(lines[i]));
  }

  close(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) closeSync(fd);
  }

  /** Resolves once the backups are compressed. */
  idle(): Promise<void> {
    return this.milling;
  }

  private open(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    this.fd = openSync(this.path, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  private rotate(): void {
    this.close();
    renameSync(this.path, backupName(this.path, this.now()));
    this.fd = openSync(this.path, 'a', 0o600);
    this.size = 0;
    this.removeOldBackups();
    // the backups are listed when the compression runs (one run after another), as lumberjack's mill does
    if (this.opts.compress) this.milling = this.milling.then(() => this.compress());
  }

  private backups(): { name: string; t: number }[] {
    const backups: { name: string; t: number }[] = [];
    for (const name of readdirSync(dirname(this.path))) {
      const t = backupTime(this.path, name);
      if (t !== undefined) backups.push({ name, t });
    }
    return backups;
  }

  /** Removes backups past maxBackups or maxAge. */
  private removeOldBackups(): void {
    const { maxBackups, maxAgeDays } = this.opts;
    if (maxBackups <= 0 && maxAgeDays <= 0) return;
    const dir = dirname(this.path);
    const backups = this.backups().sort((a, b) => b.t - a.t); // newest first
    const cutoff = this.now() - maxAgeDays * DAY_MS;
    // a backup and its gzipped form are one backup
    const seen = new Set<number>();
    for (const b of backups) {
      seen.add(b.t);
      if ((maxBackups > 0 && seen.size > maxBackups) || (maxAgeDays > 0 && b.t < cutoff)) rmSync(join(dir, b.name), { force: true });
    }
  }

  /** Gzips the plain backups to `<name>.gz` and removes them. */
  private async compress(): Promise<void> {
    const dir = dirname(this.path);
    for (const { name } of this.backups()) {
      if (name.endsWith(GZ)) continue;
      const src = join(dir, name);
      try {
        await pipeline(createReadStream(src), createGzip(), createWriteStream(`${src}${GZ}`, { mode: 0o600 }));
        await rm(src, { force: true });
      } catch (err) {
        this.opts.warn?.(`failed to compress log file ${src}: ${(err as Error).message}`);
      }
    }
  }
}
