// End-to-end: the server process's life — flags, the kubeconfig it writes,
// graceful shutdown on SIGTERM (readyz 503 at once, serving during the
// delay, clean exit), and acknowledged writes surviving kill -9.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../support/clients.ts';
import { startServerProcess } from '../support/server-process.ts';
import { serverFetch } from '../support/server-fetch.ts';

describe('server process', () => {
  it('refuses an unknown flag with a clear message', () => {
    const r = spawnSync(join(projectRoot, 'node_modules', '.bin', 'tsx'), [join(projectRoot, 'runtime', 'cli.ts'), '--no-such-flag'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('unknown flag: --no-such-flag');
  });

  it('writes an admin kubeconfig pointing at itself', async () => {
    const s = await startServerProcess();
    try {
      expect(existsSync(s.kubeconfig)).toBe(true);
      expect(readFileSync(s.kubeconfig, 'utf8')).toContain(`server: ${s.url}`);
      expect(s.output()).toContain('admin kubeconfig:');
    } finally {
      await s.stop();
    }
  });

  it('on SIGTERM turns readyz 503 at once, keeps serving for the delay, then exits 0', async () => {
    const s = await startServerProcess(['--shutdown-delay-duration', '2s']);
    expect((await serverFetch(`${s.url}/readyz`)).status).toBe(200);
    s.proc.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    const ready = await serverFetch(`${s.url}/readyz?verbose`);
    expect(ready.status).toBe(503);
    expect(await ready.text()).toContain('[-]shutdown failed');
    expect((await serverFetch(`${s.url}/livez`)).status).toBe(200);
    expect((await serverFetch(`${s.url}/api/v1/namespaces/default`)).status).toBe(200);
    expect(await s.stop()).toBe(0);
  });

  it('keeps every acknowledged write across kill -9', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'specserver-kill-'));
    const s1 = await startServerProcess([], { dataDir, keepDataDir: true });
    const acked: string[] = [];
    let stop = false;
    const writers = Array.from({ length: 16 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const name = `w${w}-${i}`;
        try {
          const r = await serverFetch(`${s1.url}/api/v1/namespaces/default/configmaps`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { i: String(i) } }),
          });
          if (r.status === 201) acked.push(name);
        } catch {
          return; // connection dropped by the kill
        }
      }
    });
    // kill in the middle of the storm, once a good number of writes were acknowledged
    const deadline = Date.now() + 30_000;
    while (acked.length < 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await s1.kill();
    expect(() => process.kill(s1.proc.pid!, 0)).toThrow(); // really gone
    stop = true;
    await Promise.all(writers);
    expect(acked.length).toBeGreaterThan(50);
    const s2 = await startServerProcess([], { dataDir });
    try {
      const list = await (await serverFetch(`${s2.url}/api/v1/namespaces/default/configmaps`)).json();
      const present = new Set(list.items.map((o: any) => o.metadata.name));
      const lost = acked.filter((n) => !present.has(n));
      expect(lost).toEqual([]);
      // every written ConfigMap is intact (beside them, the published kube-root-ca.crt)
      for (const o of list.items) if (o.metadata.name !== 'kube-root-ca.crt') expect(o.data.i).toBe(o.metadata.name.split('-')[1]);
    } finally {
      await s2.stop();
    }
  });
});
