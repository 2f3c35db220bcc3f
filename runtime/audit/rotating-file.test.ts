import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backupName, RotatingFile } from './rotating-file.ts';

const T0 = Date.parse('2026-01-02T03:04:05.678Z');
const DAY = 24 * 3600 * 1000;

describe('RotatingFile (lumberjack rotation)', () => {
  it('names a backup <name>-<UTC time><ext>', () => {
    expect(backupName('/var/log/audit.log', T0)).toBe('/var/log/audit-2026-01-02T03-04-05.678.log');
    expect(backupName('/var/log/audit', T0)).toBe('/var/log/audit-2026-01-02T03-04-05.678');
  });

  it('rotates before a write that would pass maxsize, keeps maxbackup backups', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rotate-'));
    const path = join(dir, 'audit.log');
    let now = T0;
    // a "megabyte" of 10 bytes: maxsize 2 is 20 bytes
    const f = new RotatingFile(path, { maxSizeMB: 2, maxBackups: 2, maxAgeDays: 0, megabyte: 10, now: () => now });
    const line = (c: string) => `${c.repeat(9)}\n`; // 10 bytes
    f.write(line('a'));
    f.write(line('b'));
    expect(readdirSync(dir)).toEqual(['audit.log']);
    f.write(line('c')); // 30 > 20: rotate first
    expect(readdirSync(dir).sort()).toEqual(['audit-2026-01-02T03-04-05.678.log', 'audit.log']);
    expect(readFileSync(join(dir, 'audit-2026-01-02T03-04-05.678.log'), 'utf8')).toBe('aaaaaaaaa\nbbbbbbbbb\n');
    expect(readFileSync(path, 'utf8')).toBe('ccccccccc\n');
    for (const [i, c] of ['d', 'e', 'f', 'g', 'h'].entries()) {
      now = T0 + (i + 1) * 1000;
      f.write(line(c));
    }
    f.close();
    // rotations before e and g too; only the two newest backups are kept
    const backups = readdirSync(dir)
      .filter((n) => n !== 'audit.log')
      .sort();
    expect(backups).toEqual(['audit-2026-01-02T03-04-07.678.log', 'audit-2026-01-02T03-04-09.678.log']);
    expect(readFileSync(path, 'utf8')).toBe('ggggggggg\nhhhhhhhhh\n');
  });

  it.each<[string, (string | string[])[]]>([
    ['one line', ['a\n']],
    ['several lines, one write', ['a\n', 'é€\n', '😀\n']],
    ['a line longer than the kept buffer, between short ones', ['a\n', `${'x'.repeat(100_000)}\n`, 'b\n']],
    ['a line past the largest kept buffer, alone', ['a\n', `${'€'.repeat(1_500_000)}\n`, 'b\n']],
    ['lines in pieces, between whole ones', ['a\n', ['{"k":', '"é€"', '}\n'], 'b\n', ['x', `${'y'.repeat(100_000)}\n`]]],
    ['a line in pieces past the largest kept buffer', [['a', `${'€'.repeat(1_500_000)}\n`], 'b\n']],
  ])('writeLines writes the lines as their UTF-8 text: %s', (_name, lines) => {
    const dir = mkdtempSync(join(tmpdir(), 'rotate-'));
    const path = join(dir, 'audit.log');
    const f = new RotatingFile(path, { maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0 });
    f.writeLines(lines);
    f.writeLines(['after\n']);
    f.close();
    expect(readFileSync(path, 'utf8')).toBe(`${lines.map((l) => (typeof l === 'string' ? l : l.join(''))).join('')}after\n`);
  });

  it('writeLines: lines that would pass maxsize together are written line by line, each whole in one file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rotate-'));
    const path = join(dir, 'audit.log');
    const f = new RotatingFile(path, { maxSizeMB: 2, maxBackups: 0, maxAgeDays: 0, megabyte: 10, now: () => T0 });
    f.writeLines(['aaaaaaaaa\n', ['bbbb', 'bbbbb\n'], 'ccccccccc\n']);
    f.close();
    expect(readFileSync(join(dir, 'audit-2026-01-02T03-04-05.678.log'), 'utf8')).toBe('aaaaaaaaa\nbbbbbbbbb\n');
    expect(readFileSync(path, 'utf8')).toBe('ccccccccc\n');
  });

  it('removes backups older than maxage days; leaves other files alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rotate-'));
    const path = join(dir, 'audit.log');
    writeFileSync(join(dir, 'audit-2025-12-01T00-00-00.000.log'), 'old');
    writeFileSync(join(dir, 'audit-2026-01-01T00-00-00.000.log'), 'recent');
    writeFileSync(join(dir, 'other.log'), 'x');
    writeFileSync(path, 'x'.repeat(15));
    const f = new RotatingFile(path, { maxSizeMB: 2, maxBackups: 0, maxAgeDays: 7, megabyte: 10, now: () => T0 + DAY });
    f.write('0123456789'); // 25 > 20 with what the file holds: rotate
    f.close();
    expect(readdirSync(dir).sort()).toEqual(['audit-2026-01-01T00-00-00.000.log', 'audit-2026-01-03T03-04-05.678.log', 'audit.log', 'other.log']);
  });

  it('refuses one write larger than maxsize, as lumberjack does; 0 means 100 megabytes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rotate-'));
    const f = new RotatingFile(join(dir, 'a.log'), { maxSizeMB: 1, maxBackups: 0, maxAgeDays: 0, megabyte: 10 });
    expect(() => f.write('x'.repeat(11))).toThrow('write length 11 exceeds maximum file size 10');
    const big = new RotatingFile(join(dir, 'b.log'), { maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, megabyte: 1 });
    big.write('x'.repeat(100));
    big.write('y');
    f.close();
    big.close();
    expect(readdirSync(dir).length).toBe(2); // b.log and its one backup (a.log was never opened)
  });

  it('compress: each backup becomes <backup>.gz (the plain one removed), counted as a backup', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rotate-gz-'));
    const path = join(dir, 'audit.log');
    let now = T0;
    const f = new RotatingFile(path, { maxSizeMB: 2, maxBackups: 2, maxAgeDays: 0, megabyte: 10, compress: true, now: () => now });
    const line = (c: string) => `${c.repeat(9)}\n`;
    for (const [i, c] of ['a', 'b', 'c', 'd', 'e', 'f', 'g'].entries()) {
      now = T0 + i * 1000;
      f.write(line(c));
      await f.idle();
    }
    f.close();
    await f.idle();
    const names = readdirSync(dir).sort();
    // two backups kept, both compressed
    expect(names).toEqual(['audit-2026-01-02T03-04-09.678.log.gz', 'audit-2026-01-02T03-04-11.678.log.gz', 'audit.log']);
    expect(gunzipSync(readFileSync(join(dir, names[0]))).toString()).toBe('ccccccccc\nddddddddd\n');
    expect(gunzipSync(readFileSync(join(dir, names[1]))).toString()).toBe('eeeeeeeee\nfffffffff\n');
  });
});
