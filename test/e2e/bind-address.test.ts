// End-to-end: the server process refuses a non-loopback --bind-address
// (there is no authentication yet) with a clear message and exit code 1,
// unless --insecure-allow-unauthenticated-remote is given; then it warns,
// logs the address really bound, and writes a kubeconfig that reaches it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliToExit, startServerProcess } from '../support/server-process.ts';

const runCli = (args: string[]) => runCliToExit(args);

describe('--bind-address', () => {
  it.each(['0.0.0.0', '::', '192.0.2.10'])('refuses %s without the insecure flag', async (addr) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'specserver-bind-'));
    try {
      const r = await runCli(['--bind-address', addr, '--secure-port', '0', '--data-dir', dataDir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Error: --bind-address "${addr}" is not a loopback address`);
      expect(r.stderr).toContain('--insecure-allow-unauthenticated-remote');
      expect(r.stdout).not.toContain('listening on');
      expect(existsSync(join(dataDir, 'admin.kubeconfig'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serves 0.0.0.0 with the insecure flag: a loud warning, the real address in the log, a loopback kubeconfig', async () => {
    const s = await startServerProcess(['--bind-address', '0.0.0.0', '--insecure-allow-unauthenticated-remote']);
    try {
      const port = new URL(s.url).port;
      expect(s.url).toBe(`http://0.0.0.0:${port}`);
      expect(s.output()).toContain(`specserver listening on http://0.0.0.0:${port} (kubeconfig uses http://127.0.0.1:${port})`);
      expect(s.output()).toMatch(/WARNING: serving on every network interface .*no authentication/);
      expect(readFileSync(s.kubeconfig, 'utf8')).toContain(`server: http://127.0.0.1:${port}`);
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('keeps the loopback default quiet', async () => {
    const s = await startServerProcess([]);
    try {
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(s.output()).not.toContain('WARNING');
    } finally {
      await s.stop();
    }
  });
});
