// SQLite-specific behaviour beyond the shared KV suite: persistence across
// reopen, time-window compaction in the background, the revision counter
// surviving compaction, batch rollback, and closed-store errors.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CompactedError, StorageError } from '../interface.ts';
import { openSqliteKV } from './index.ts';
import { RevisionClock } from './compactor.ts';
import { prefixEnd } from './schema.ts';

const dirs: string[] = [];
const tmpDb = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'specserver-sqlite-'));
  dirs.push(d);
  return path.join(d, 'specserver.db');
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('SqliteKV', () => {
  it('keeps data, revision and compaction mark across reopen', async () => {
    const file = tmpDb();
    let kv = openSqliteKV({ path: file });
    const a = await kv.create('/a', '1');
    await kv.update('/a', '2', a.modRevision);
    await kv.create('/b', '3');
    await kv.delete('/b');
    const rev = await kv.currentRevision();
    await kv.compact(rev - 1);
    await kv.close();
    kv = openSqliteKV({ path: file });
    expect(await kv.currentRevision()).toBe(rev);
    expect(await kv.compactedRevision()).toBe(rev - 1);
    expect((await kv.get('/a'))!.value).toBe('2');
    expect(await kv.get('/b')).toBeNull();
    await expect(kv.get('/a', a.modRevision)).rejects.toBeInstanceOf(CompactedError);
    expect((await kv.create('/c', '4')).modRevision).toBe(rev + 1);
    await kv.close();
  });

  it('keeps the revision when the newest write was a compacted delete', async () => {
    const file = tmpDb();
    let kv = openSqliteKV({ path: file });
    await kv.create('/a', '1');
    await kv.delete('/a');
    const rev = await kv.currentRevision();
    await kv.compact(rev);
    await kv.close();
    kv = openSqliteKV({ path: file });
    expect(await kv.currentRevision()).toBe(rev);
    expect((await kv.create('/a', 'again')).modRevision).toBe(rev + 1);
    await kv.close();
  });

  it('compacts history older than the window in the background', async () => {
    const kv = openSqliteKV({ path: tmpDb(), historyWindowMs: 40, compactIntervalMs: 10 });
    let cur = await kv.create('/lease', '0');
    for (let i = 1; i <= 50; i++) cur = await kv.update('/lease', String(i), cur.modRevision);
    const first = cur.createRevision;
    const deadline = Date.now() + 3000;
    while ((await kv.compactedRevision()) < cur.modRevision && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await kv.compactedRevision()).toBeGreaterThanOrEqual(cur.modRevision);
    await expect(kv.get('/lease', first)).rejects.toBeInstanceOf(CompactedError);
    expect(kv.stats().logRows).toBe(1);
    expect((await kv.get('/lease'))!.value).toBe('50');
    await kv.close();
  });

  it('rolls back a whole batch when a write fails in SQLite, keeping the revision', async () => {
    const kv = openSqliteKV({ path: ':memory:' });
    const rev = await kv.currentRevision();
    const results = await Promise.allSettled([kv.create('/ok', 'fine'), kv.create('/bad', null as unknown as string)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await kv.currentRevision()).toBe(rev);
    expect(await kv.get('/ok')).toBeNull();
    expect((await kv.create('/ok', 'now')).modRevision).toBe(rev + 1);
    await kv.close();
  });

  it('refuses work once closed', async () => {
    const kv = openSqliteKV({ path: ':memory:' });
    const pending = kv.create('/a', '1');
    await kv.close();
    await expect(pending).resolves.toMatchObject({ key: '/a' });
    await expect(kv.create('/b', '1')).rejects.toBeInstanceOf(StorageError);
    await expect(kv.get('/a')).rejects.toBeInstanceOf(StorageError);
  });
});

describe('RevisionClock', () => {
  it('answers the newest revision older than the window', () => {
    let now = 0;
    const c = new RevisionClock(100, () => now);
    c.sample(5);
    now = 50;
    c.sample(9);
    now = 120;
    c.sample(12);
    expect(c.horizon()).toBe(5);
    now = 151;
    expect(c.horizon()).toBe(9);
    now = 1000;
    expect(c.horizon()).toBe(12);
  });
});

describe('prefixEnd', () => {
  it.each([
    ['/registry/core/pods/', '/registry/core/pods0'],
    ['/a', '/b'],
  ])('%s -> %s', (p, want) => expect(prefixEnd(p)).toBe(want));
  it('bounds every key for the empty prefix', () => expect('/zzz' < prefixEnd('')).toBe(true));
});
