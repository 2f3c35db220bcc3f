// Durability with the WAL's fsync off the main thread (synchronous FULL on a
// file): a write is answered, seen by reads and watchers, and counted in the
// revision only once an fsync started after its commit is done; commits made
// while an fsync runs share the next one; a failed fsync answers no write
// and stops writes. The fsync is replaced by one the test finishes by hand.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeyExistsError, StorageError, type KVEvent, type KeyValue } from '../interface.ts';
import { openSqliteKV } from './index.ts';
import { WalSync } from './wal-sync.ts';

const dirs: string[] = [];
const tmpDb = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'specserver-sync-'));
  dirs.push(d);
  return path.join(d, 'specserver.db');
};
afterEach(() => {
  vi.restoreAllMocks();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** An fsync that ends when the test says so. */
function manualSync() {
  const waiting: ((err: Error | null) => void)[] = [];
  return {
    fn: (done: (err: Error | null) => void) => void waiting.push(done),
    get started() {
      return waiting.length;
    },
    finish(err: Error | null = null) {
      const done = waiting.shift();
      if (!done) throw new Error('no fsync is running');
      done(err);
    },
  };
}

/** Lets setImmediate callbacks (the group commit) and microtasks run. */
const turn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/** A promise's state without waiting for it. */
function track<T>(p: Promise<T>) {
  const s: { value?: T; error?: unknown; settled: boolean } = { settled: false };
  p.then(
    (value) => Object.assign(s, { value, settled: true }),
    (error: unknown) => Object.assign(s, { error, settled: true }),
  );
  return s;
}

describe('SqliteKV with the fsync off the main thread', () => {
  it('answers, shows and notifies a write only once its fsync is done', async () => {
    const sync = manualSync();
    const kv = openSqliteKV({ path: tmpDb(), syncWal: sync.fn });
    try {
      const first = await settleWith(sync, kv.create('/a', 'one'));
      const events: KVEvent[] = [];
      kv.watch('/', { afterRevision: first.modRevision, onEvents: (e) => events.push(...e) });

      const created = track(kv.create('/b', 'two'));
      const updated = track(kv.update('/a', 'uno', first.modRevision));
      await turn();
      expect(sync.started).toBe(1); // committed in one transaction, one fsync running
      expect(created.settled || updated.settled).toBe(false);
      expect(await kv.currentRevision()).toBe(first.modRevision);
      expect(await kv.get('/b')).toBeNull();
      expect((await kv.get('/a'))!.value).toBe('one');
      const listed = await kv.list('/', { count: true });
      expect(listed.kvs.map((x) => [x.key, x.value])).toEqual([['/a', 'one']]);
      expect([listed.revision, listed.count]).toEqual([first.modRevision, 1]);
      // a watch started now does not get them from its backlog, and gets them once later
      const late: KVEvent[] = [];
      kv.watch('/', { afterRevision: first.modRevision, onEvents: (e) => late.push(...e) });
      await turn();
      expect(events).toEqual([]);
      expect(late).toEqual([]);

      sync.finish();
      await turn();
      expect(created.value?.modRevision).toBe(first.modRevision + 1);
      expect(updated.value?.modRevision).toBe(first.modRevision + 2);
      expect(await kv.currentRevision()).toBe(first.modRevision + 2);
      expect((await kv.get('/a'))!.value).toBe('uno');
      expect((await kv.list('/')).kvs.map((x) => x.value)).toEqual(['uno', 'two']);
      for (const seen of [events, late])
        expect(seen.map((e) => [e.type, e.kv.key, e.kv.modRevision])).toEqual([
          ['PUT', '/b', first.modRevision + 1],
          ['PUT', '/a', first.modRevision + 2],
        ]);
    } finally {
      await closeWith(sync, kv);
    }
  });

  it('commits the writes that arrive while an fsync runs in one transaction when it ends, with one fsync', async () => {
    const sync = manualSync();
    const kv = openSqliteKV({ path: tmpDb(), syncWal: sync.fn });
    try {
      const a = track(kv.create('/a', '1'));
      await turn();
      const b = track(kv.create('/b', '2'));
      await turn();
      const c = track(kv.create('/c', '3'));
      await turn();
      expect(sync.started).toBe(1);
      expect(kv.stats().commits).toBe(1); // /b and /c wait for the running fsync
      sync.finish();
      await turn();
      expect([a.settled, b.settled, c.settled]).toEqual([true, false, false]);
      expect(kv.stats().commits).toBe(2); // both in one transaction
      expect(sync.started).toBe(1); // and one fsync for both
      sync.finish();
      await turn();
      expect([b.value?.modRevision, c.value?.modRevision]).toEqual([a.value!.modRevision + 1, a.value!.modRevision + 2]);
      expect(sync.started).toBe(0);
    } finally {
      await closeWith(sync, kv);
    }
  });

  it('answers a refused write after the fsync of the writes before it, and with no fsync of its own', async () => {
    const sync = manualSync();
    const kv = openSqliteKV({ path: tmpDb(), syncWal: sync.fn });
    try {
      const a = track(kv.create('/a', '1'));
      await turn();
      const again = track(kv.create('/a', '2')); // waits for the fsync of /a
      await turn();
      expect(again.settled).toBe(false);
      sync.finish(); // then refused, and it wrote nothing: no fsync of its own
      await turn();
      expect(sync.started).toBe(0);
      expect(a.value?.value).toBe('1');
      expect(again.error).toBeInstanceOf(KeyExistsError);
      await expect(kv.create('/a', '3')).rejects.toBeInstanceOf(KeyExistsError); // nothing waits: no fsync
      expect(sync.started).toBe(0);
    } finally {
      await closeWith(sync, kv);
    }
  });

  it('answers no write covered by a failed fsync, and takes no more writes', async () => {
    const sync = manualSync();
    const log: string[] = [];
    const kv = openSqliteKV({ path: tmpDb(), syncWal: sync.fn, log: (m) => log.push(m) });
    const rev = await kv.currentRevision();
    const a = track(kv.create('/a', '1'));
    await turn();
    sync.finish(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await turn();
    expect(a.error).toBeInstanceOf(StorageError);
    expect((a.error as Error).message).toBe('storage commit failed: fsync of the write-ahead log: EIO: i/o error, fdatasync');
    expect(kv.commitHealth()).toBe(a.error);
    expect(log).toEqual(['storage: storage commit failed: fsync of the write-ahead log: EIO: i/o error, fdatasync; writes are refused until restart']);
    await expect(kv.create('/b', '2')).rejects.toBe(a.error);
    expect(await kv.currentRevision()).toBe(rev);
    expect(await kv.get('/a')).toBeNull();
    await kv.close();
  });

  it('waits for the running fsync when closed, and answers what it covered', async () => {
    const sync = manualSync();
    const file = tmpDb();
    const kv = openSqliteKV({ path: file, syncWal: sync.fn });
    const a = track(kv.create('/a', '1'));
    await turn();
    const closed = track(kv.close());
    await turn();
    expect([a.settled, closed.settled]).toEqual([false, false]);
    sync.finish();
    await turn();
    expect([a.value?.value, closed.settled]).toEqual(['1', true]);
    const again = openSqliteKV({ path: file, syncWal: sync.fn });
    expect((await again.get('/a'))?.value).toBe('1');
    await again.close();
  });

  it.each([
    ['FULL (the default): one fdatasync of the WAL per commit', undefined, 1],
    ['NORMAL: none', 'NORMAL' as const, 0],
    ['OFF: none', 'OFF' as const, 0],
  ])('syncs the WAL itself only for synchronous %s', async (_name, synchronous, syncs) => {
    const kv = openSqliteKV({ path: tmpDb(), synchronous });
    const spy = vi.spyOn(fs, 'fdatasync');
    await kv.create('/a', '1');
    expect(spy).toHaveBeenCalledTimes(syncs);
    await kv.close();
  });
});

describe('WalSync', () => {
  it('syncs the WAL file at the path (again after it was replaced) and its directory the first time', async () => {
    const file = tmpDb();
    const wal = `${file}-wal`;
    fs.writeFileSync(wal, 'frames');
    const ws = new WalSync(file);
    const data = vi.spyOn(fs, 'fdatasync');
    const full = vi.spyOn(fs, 'fsync');
    const run = () => new Promise<void>((resolve, reject) => ws.sync((err) => (err ? reject(err) : resolve())));
    try {
      const synced = () => data.mock.calls.map(([fd]) => fs.fstatSync(fd as number).ino);
      await run();
      await run();
      expect(synced()).toEqual([fs.statSync(wal).ino, fs.statSync(wal).ino]);
      expect(full).toHaveBeenCalledTimes(1); // the directory, once
      fs.rmSync(wal);
      fs.writeFileSync(`${wal}.new`, 'other frames');
      fs.renameSync(`${wal}.new`, wal);
      await run();
      expect(synced()[2]).toBe(fs.statSync(wal).ino);
      expect(full).toHaveBeenCalledTimes(2); // a new file: its directory again
      fs.rmSync(wal);
      await expect(run()).rejects.toThrow(/ENOENT/);
    } finally {
      ws.close();
    }
  });
});

/** Waits for a write whose fsync the test finishes. */
async function settleWith(sync: ReturnType<typeof manualSync>, p: Promise<KeyValue>): Promise<KeyValue> {
  const s = track(p);
  await turn();
  while (!s.settled && sync.started) {
    sync.finish();
    await turn();
  }
  return p;
}

async function closeWith(sync: ReturnType<typeof manualSync>, kv: ReturnType<typeof openSqliteKV>): Promise<void> {
  const closed = track(kv.close());
  await turn();
  while (!closed.settled && sync.started) {
    sync.finish();
    await turn();
  }
  await closed;
}
