// Damaged databases. One unreadable stored value: the server refuses to start
// and names the key and the way out (--quarantine-unreadable); with the flag
// it starts, reports the key, serves everything else, and the row is kept in
// the table "quarantine" of the file. A file that is not SQLite, or is cut
// short: one clear message naming the file, exit 1, no stack trace. Below,
// what quarantining does to the revision log (history, tombstones, the
// revision counter, compaction).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliToExit, startServerProcess } from '../support/server-process.ts';
import { CompactedError } from '../../runtime/storage/interface.ts';
import { openSqliteKV, UnreadableRowsError, DatabaseFileError } from '../../runtime/storage/sqlite/index.ts';
import { serverFetch } from '../support/server-fetch.ts';
import { ROOT_CA_CONFIGMAP, rootCAPublished } from '../support/root-ca.ts';

const dirs: string[] = [];
const tmpDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'specserver-damaged-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const runCli = (args: string[], timeoutMs?: number) => runCliToExit(['--secure-port', '0', ...args], timeoutMs);

const CM = '/api/v1/namespaces/default/configmaps';
const createCM = (url: string, name: string) =>
  serverFetch(`${url}${CM}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { name } }),
  });

describe('a server on a damaged database', () => {
  it('refuses to start naming the unreadable key; with --quarantine-unreadable it starts and keeps the row', async () => {
    const dataDir = tmpDir();
    const file = path.join(dataDir, 'specserver.db');
    const s1 = await startServerProcess([], { dataDir, keepDataDir: true });
    for (const n of ['good-1', 'bad', 'good-2']) expect((await createCM(s1.url, n)).status).toBe(201);
    expect(await s1.stop()).toBe(0);

    const db = new Database(file);
    const key = db.prepare("SELECT key FROM current WHERE key LIKE '%/configmaps/default/bad'").pluck().get() as string;
    expect(key).toBeTruthy();
    db.prepare('UPDATE log SET value = \'{"metadata": {"name": "bad", oops\' WHERE rev = (SELECT rev FROM current WHERE key = ?)').run(key);
    db.close();

    const refused = await runCli(['--data-dir', dataDir]);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain(key);
    expect(refused.out).toContain('--quarantine-unreadable');
    expect(refused.out).toContain(file);
    expect(refused.out).toContain('invalid JSON');
    expect(refused.out).not.toMatch(/\n\s+at /);
    expect(refused.out).not.toContain('listening on');

    const s2 = await startServerProcess(['--quarantine-unreadable'], { dataDir, keepDataDir: true });
    try {
      expect(s2.output()).toContain(`quarantined unreadable value of ${key}`);
      expect((await serverFetch(`${s2.url}${CM}/good-1`)).status).toBe(200);
      expect((await serverFetch(`${s2.url}${CM}/bad`)).status).toBe(404);
      await rootCAPublished(s2.url);
      const list = await (await serverFetch(`${s2.url}${CM}`)).json();
      expect(list.items.map((o: any) => o.metadata.name).sort()).toEqual(['good-1', 'good-2', ROOT_CA_CONFIGMAP]);
      // the name is free again: the object can be re-created by hand
      expect((await createCM(s2.url, 'bad')).status).toBe(201);
    } finally {
      expect(await s2.stop()).toBe(0);
    }

    const after = new Database(file, { readonly: true });
    try {
      const q = after.prepare('SELECT key, value, was_current AS wasCurrent, reason FROM quarantine').all() as any[];
      expect(q).toHaveLength(1);
      expect(q[0]).toMatchObject({ key, value: '{"metadata": {"name": "bad", oops', wasCurrent: 1 });
      expect(q[0].reason).toContain('invalid JSON');
    } finally {
      after.close();
    }

    // a later start needs no flag, and reminds of what the quarantine holds
    const s3 = await startServerProcess([], { dataDir, keepDataDir: true });
    expect(s3.output()).toContain('holds 1 row(s)');
    expect(await s3.stop()).toBe(0);
  });

  it('a file that is not SQLite: exit 1 with a message naming it', async () => {
    const dataDir = tmpDir();
    const file = path.join(dataDir, 'specserver.db');
    fs.writeFileSync(file, 'this is not a database\n'.repeat(200));
    const r = await runCli(['--data-dir', dataDir]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`Error: ${file} is not a usable specserver database`);
    expect(r.out).toContain('SQLITE_NOTADB');
    expect(r.out).not.toMatch(/\n\s+at /);
    expect(fs.readFileSync(file, 'utf8')).toBe('this is not a database\n'.repeat(200)); // left as it was
  });

  it('a database cut short: exit 1 with a message naming it', async () => {
    const dataDir = tmpDir();
    const file = path.join(dataDir, 'specserver.db');
    const kv = openSqliteKV({ path: file });
    for (let i = 0; i < 400; i++) await kv.create(`/registry/x/${i}`, JSON.stringify({ i, pad: 'p'.repeat(1000) }));
    await kv.close();
    fs.truncateSync(file, Math.floor(fs.statSync(file).size / 2));
    const r = await runCli(['--data-dir', dataDir]);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`Error: ${file} is not a usable specserver database`);
    expect(r.out).not.toMatch(/\n\s+at /);
  });
});

describe('quarantining unreadable rows', () => {
  it('handles present values, history and tombstones, keeps the revision moving forward, compacts what was served', async () => {
    const file = path.join(tmpDir(), 'specserver.db');
    let kv = openSqliteKV({ path: file, valueCheck: 'json-object' });
    const a1 = await kv.create('/r/a', JSON.stringify({ v: 1 }));
    const a2 = await kv.update('/r/a', JSON.stringify({ v: 2 }), a1.modRevision);
    const b1 = await kv.create('/r/b', JSON.stringify({ v: 1 }));
    const b2 = await kv.update('/r/b', JSON.stringify({ v: 2 }), b1.modRevision);
    await kv.create('/r/c', JSON.stringify({ v: 1 }));
    const cDel = await kv.delete('/r/c');
    await kv.create('/r/d', JSON.stringify({ v: 1 }));
    const revBefore = await kv.currentRevision();
    await kv.close();

    const db = new Database(file);
    const rowsBefore = db.prepare('SELECT count(*) FROM log').pluck().get();
    const damage = db.prepare('UPDATE log SET value = ? WHERE rev = ?');
    damage.run('not json', a1.modRevision); // history of a live key
    damage.run('[1, 2]', b2.modRevision); // b's present value: JSON, but not an object
    damage.run('{"cut', cDel.modRevision); // a tombstone's copy of the last value
    db.close();

    const err = (() => {
      try {
        openSqliteKV({ path: file, valueCheck: 'json-object' });
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(UnreadableRowsError);
    expect((err as UnreadableRowsError).rows.map((r) => [r.key, r.rev, r.current])).toEqual([
      ['/r/a', a1.modRevision, false],
      ['/r/b', b2.modRevision, true],
      ['/r/c', cDel.modRevision, false],
    ]);
    expect((err as Error).message).toContain('/r/b (revision');
    // the refused open left the file as it was and released it
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT count(*) FROM log').pluck().get()).toBe(rowsBefore);
    expect(raw.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'quarantine'").pluck().get()).toBe(0);
    raw.close();

    kv = openSqliteKV({ path: file, valueCheck: 'json-object', quarantineUnreadable: true });
    try {
      expect(kv.quarantined.map((r) => r.key)).toEqual(['/r/a', '/r/b', '/r/c']);
      expect(JSON.parse((await kv.get('/r/a'))!.value)).toEqual({ v: 2 });
      expect(await kv.get('/r/b')).toBeNull();
      expect(JSON.parse((await kv.get('/r/d'))!.value)).toEqual({ v: 1 });
      const rev = await kv.currentRevision();
      expect(rev).toBe(revBefore + 1); // b's removal is a delete at a new revision
      expect(await kv.compactedRevision()).toBe(rev);
      await expect(kv.get('/r/a', a2.modRevision)).rejects.toBeInstanceOf(CompactedError);
      expect(() => kv.watch('/r/', { afterRevision: revBefore, onEvents: () => {} })).toThrow(CompactedError);
      await kv.compact(rev); // waits for the compaction the open started
      const st = kv.stats();
      expect(st.currentRows).toBe(2);
      expect(st.logRows).toBe(3); // a and d, and b's tombstone holding the newest revision
      expect((await kv.create('/r/e', '{}')).modRevision).toBe(rev + 1);
    } finally {
      await kv.close();
    }

    const check = new Database(file, { readonly: true });
    try {
      const q = check.prepare('SELECT key, rev, value, was_current AS wasCurrent FROM quarantine ORDER BY rev').all();
      expect(q).toEqual([
        { key: '/r/a', rev: a1.modRevision, value: 'not json', wasCurrent: 0 },
        { key: '/r/b', rev: b2.modRevision, value: '[1, 2]', wasCurrent: 1 },
        { key: '/r/c', rev: cDel.modRevision, value: '{"cut', wasCurrent: 0 },
      ]);
      const bad = check.prepare("SELECT count(*) FROM log WHERE NOT json_valid(value) OR json_type(value) <> 'object'").pluck().get();
      expect(bad).toBe(0);
    } finally {
      check.close();
    }
    kv = openSqliteKV({ path: file, valueCheck: 'json-object' });
    expect(kv.quarantinedEarlier).toBe(3);
    await kv.close();
  });

  it('a value SQLite alone would reject but the server reads (deep nesting) is not unreadable', async () => {
    const file = path.join(tmpDir(), 'specserver.db');
    let kv = openSqliteKV({ path: file, valueCheck: 'json-object' });
    const deep = '{"a":' + '['.repeat(1500) + ']'.repeat(1500) + '}';
    await kv.create('/r/deep', deep);
    await kv.close();
    kv = openSqliteKV({ path: file, valueCheck: 'json-object' });
    expect((await kv.get('/r/deep'))!.value).toBe(deep);
    await kv.close();
  });

  it('an integrity failure names the file', () => {
    const file = path.join(tmpDir(), 'specserver.db');
    fs.writeFileSync(file, Buffer.alloc(8192, 7));
    expect(() => openSqliteKV({ path: file })).toThrow(DatabaseFileError);
    expect(() => openSqliteKV({ path: file })).toThrow(file);
  });
});
