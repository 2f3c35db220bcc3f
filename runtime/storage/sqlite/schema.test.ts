// The connection pragmas: a bounded page cache (16 MiB, not the 64 MiB that
// held a copy of the data the watch cache already has), WAL and exclusive
// locking on files, and the synchronous mode asked for.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { applyPragmas, PAGE_CACHE_KIB } from './schema.ts';

describe('applyPragmas', () => {
  it.each([
    ['a file', false],
    ['memory', true],
  ] as const)('on %s: a page cache of 16 MiB and the chosen sync mode', (_name, inMemory) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pragmas-'));
    const db = new Database(inMemory ? ':memory:' : path.join(dir, 'db.sqlite'));
    try {
      applyPragmas(db, 'NORMAL', inMemory);
      expect(PAGE_CACHE_KIB).toBe(4 * 1024);
      expect(db.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(db.pragma('journal_mode', { simple: true })).toBe(inMemory ? 'memory' : 'wal');
    } finally {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
