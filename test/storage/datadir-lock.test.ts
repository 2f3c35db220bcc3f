// One process per data directory: a second server on the same --data-dir
// exits 1 with a message naming the process that holds it, while the first
// keeps serving writes and stays ready; the lock dies with its process, so
// after kill -9 a new server starts (and says it took over). In-process, a
// second open of the same directory is refused the same way until the first
// is closed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliToExit, startServerProcess } from '../support/server-process.ts';
import { openStorage } from '../../runtime/storage/factory.ts';
import { DataDirInUseError } from '../../runtime/storage/sqlite/index.ts';
import { serverFetch } from '../support/server-fetch.ts';
import { ROOT_CA_CONFIGMAP, rootCAPublished } from '../support/root-ca.ts';

const runCli = (args: string[], timeoutMs?: number) => runCliToExit(['--secure-port', '0', ...args], timeoutMs);

const createCM = (url: string, name: string) =>
  serverFetch(`${url}/api/v1/namespaces/default/configmaps`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } }),
  });

describe('data directory lock', () => {
  it('refuses a second server on the same data directory; the first keeps serving; kill -9 frees it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'specserver-lock-'));
    try {
      const first = await startServerProcess([], { dataDir, keepDataDir: true });
      const pid = first.proc.pid!;
      expect((await createCM(first.url, 'before')).status).toBe(201);

      const second = await runCli(['--data-dir', dataDir]);
      expect(second.code).toBe(1);
      expect(second.out).toContain('the data directory is in use');
      expect(second.out).toContain(`pid ${pid}`);
      expect(second.out).toContain(`serving ${first.url}`);
      expect(second.out).toContain(path.join(dataDir, 'specserver.db'));
      expect(second.out).not.toMatch(/\n\s+at /); // no stack trace
      expect(second.out).not.toContain('listening on');

      // the first one is untouched: writes commit, reads see them, it is ready
      expect((await createCM(first.url, 'after')).status).toBe(201);
      await rootCAPublished(first.url);
      const list = await (await serverFetch(`${first.url}/api/v1/namespaces/default/configmaps`)).json();
      expect(list.items.map((o: any) => o.metadata.name).sort()).toEqual(['after', 'before', ROOT_CA_CONFIGMAP]);
      expect((await serverFetch(`${first.url}/readyz`)).status).toBe(200);

      await first.kill();
      const third = await startServerProcess([], { dataDir, keepDataDir: true });
      try {
        expect(third.output()).toContain(`from pid ${pid}`);
        expect(third.output()).toContain('did not shut down cleanly');
        expect((await createCM(third.url, 'third')).status).toBe(201);
        const names = (await (await serverFetch(`${third.url}/api/v1/namespaces/default/configmaps`)).json()).items.map((o: any) => o.metadata.name);
        expect(names.sort()).toEqual(['after', 'before', ROOT_CA_CONFIGMAP, 'third']);
      } finally {
        expect(await third.stop()).toBe(0);
      }
      // a clean stop leaves no owner record behind
      expect(fs.existsSync(path.join(dataDir, 'specserver.db.owner'))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('in one process: a second open of the directory is refused until the first is closed', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'specserver-lock-'));
    try {
      const a = await openStorage({ dataDir });
      a.describeOwner('http://127.0.0.1:1234');
      const err = await openStorage({ dataDir }).then(
        () => null,
        (e) => e,
      );
      expect(err).toBeInstanceOf(DataDirInUseError);
      expect(err.message).toContain(`pid ${process.pid}`);
      expect(err.message).toContain('serving http://127.0.0.1:1234');
      await a.kv.create('/registry/x', '{}');
      await a.close();
      const b = await openStorage({ dataDir });
      expect(b.report.previousOwner).toBeNull(); // a clean close is no take-over
      expect((await b.kv.get('/registry/x'))?.value).toBe('{}');
      await b.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
