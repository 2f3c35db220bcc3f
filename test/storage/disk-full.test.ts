// A full database (made with SQLite's max_page_count, no real full disk):
// writes answer the Status kube-apiserver sends when etcd refuses writes
// (500, no reason, the storage's text), /readyz fails its `etcd` check while
// commits fail and /livez stays up, reads go on, and once space is back
// writes resume and readiness returns — after a client's write, or by the
// readiness probe alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { openSqliteKV } from '../../runtime/storage/sqlite/index.ts';
import { CommitFailedError } from '../../runtime/storage/errors.ts';
import { rootCAPublished } from '../support/root-ca.ts';

const CM = '/api/v1/namespaces/default/configmaps';
const pad = 'x'.repeat(2000);

describe('full database through the API', () => {
  let s: RunningServer;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'specserver-full-'));
    s = await startServer({ authorizationMode: ['AlwaysAllow'], dataDir: dir });
    // default's ConfigMaps are counted below: the published root CA is one of them
    await rootCAPublished(s);
  });
  afterAll(async () => {
    await s?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const create = (name: string) =>
    s.app.request(CM, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { pad } }),
    });

  it('answers writes with the pass-through 500 Status, fails readiness on etcd, recovers when space is back', async () => {
    expect((await s.app.request('/readyz')).status).toBe(200);
    expect((await create('before-full')).status).toBe(201);
    // no page beyond those the file has now: free pages inside it are used up first
    s.storage.setMaxPageCount(s.storage.pageCount());
    let failed: Response | undefined;
    const created: string[] = [];
    for (let i = 0; i < 5000 && !failed; i++) {
      const r = await create(`fill-${i}`);
      if (r.status === 201) created.push(`fill-${i}`);
      else failed = r;
    }
    expect(failed, 'the database never filled up').toBeDefined();
    expect(failed!.status).toBe(500);
    expect(failed!.headers.get('content-type')).toContain('application/json');
    const body = await failed!.json();
    expect(body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'database space exceeded: database or disk is full',
      code: 500,
    });

    // an update fails the same way; reads go on
    const upd = await s.app.request(`${CM}/before-full`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ data: { more: pad.repeat(3) } }),
    });
    expect(upd.status).toBe(500);
    expect((await upd.json()).message).toBe('database space exceeded: database or disk is full');
    const list = await (await s.app.request(CM)).json();
    expect(list.items.length).toBe(created.length + 2);

    const ready = await s.app.request('/readyz?verbose');
    expect(ready.status).toBe(500);
    const text = await ready.text();
    expect(text).toContain('[-]etcd failed: reason withheld');
    expect(text).toContain('readyz check failed');
    expect((await s.app.request('/readyz/etcd')).status).toBe(500);
    expect((await s.app.request('/livez')).status).toBe(200);

    // space is back: the next write commits and readiness follows
    s.storage.setMaxPageCount(1_000_000);
    expect((await create('after-space')).status).toBe(201);
    expect((await s.app.request('/readyz')).status).toBe(200);
  });
});

describe('commit health of the SQLite KV', () => {
  it('fails while commits cannot be made and recovers by its probe alone when space is back', async () => {
    const kv = openSqliteKV({ path: ':memory:', probeIntervalMs: 0 });
    try {
      expect(kv.commitHealth()).toBeNull();
      kv.setMaxPageCount(kv.pageCount());
      let err: unknown;
      for (let i = 0; i < 5000 && !err; i++) {
        await kv.create(`/k/${i}`, JSON.stringify({ pad })).catch((e) => {
          err = e;
        });
      }
      expect(err).toBeInstanceOf(CommitFailedError);
      expect((err as CommitFailedError).backendCode).toBe('SQLITE_FULL');
      // the probe (a real commit) still fails: the database is still full
      expect(kv.commitHealth()).toBeInstanceOf(CommitFailedError);
      expect(kv.commitHealth()?.message).toBe('database space exceeded: database or disk is full');
      kv.setMaxPageCount(1_000_000);
      // no client write: the probe's commit succeeds and clears the state
      expect(kv.commitHealth()).toBeNull();
      expect((await kv.create('/k/after', '{}')).modRevision).toBeGreaterThan(1);
    } finally {
      await kv.close();
    }
  });

  it('does not count a rejected bad write (a constraint) as the store failing', async () => {
    const kv = openSqliteKV({ path: ':memory:' });
    try {
      await expect(kv.create('/bad', null as unknown as string)).rejects.toThrow();
      expect(kv.commitHealth()).toBeNull();
    } finally {
      await kv.close();
    }
  });
});
