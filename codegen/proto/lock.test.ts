import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emptyLock, lockField, readLock, serializeLock, writeLock } from './lock.ts';

describe('field-number lock', () => {
  it('keeps locked numbers and gives a new field the next number above all ever used', () => {
    const lock = emptyLock();
    lock.messages.M = { a: 1, b: 5, gone: 9 };
    expect(lockField(lock, 'M', 'b')).toBe(5);
    expect(lockField(lock, 'M', 'c')).toBe(10); // 9 belonged to a removed field: never reused
    expect(lockField(lock, 'M', 'd')).toBe(11);
    expect(lockField(lock, 'N', 'x')).toBe(1);
    expect(lock.messages.M).toEqual({ a: 1, b: 5, gone: 9, c: 10, d: 11 });
  });

  it('serialises deterministically (messages sorted, fields by number) and writes only on change', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lock-'));
    try {
      const a = emptyLock();
      a.messages = { Z: { y: 2, x: 1 }, A: { q: 1 } };
      a.inline = { Z: { s: 'S' } };
      const b = emptyLock();
      b.messages = { A: { q: 1 }, Z: { x: 1, y: 2 } };
      b.inline = { Z: { s: 'S' } };
      expect(serializeLock(a)).toBe(serializeLock(b));
      const path = join(dir, 'l.json');
      expect(writeLock(a, path)).toBe(true);
      expect(writeLock(b, path)).toBe(false);
      expect(readLock(path)).toEqual({ messages: { A: { q: 1 }, Z: { x: 1, y: 2 } }, inline: { Z: { s: 'S' } }, wrappers: {} });
      expect(Object.keys(JSON.parse(readFileSync(path, 'utf8')).messages)).toEqual(['A', 'Z']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a missing lock as empty', () => {
    expect(readLock('/nonexistent/lock.json')).toEqual(emptyLock());
  });
});
