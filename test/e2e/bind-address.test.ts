// End-to-end: over TLS (the default) the server process serves any
// --bind-address; with --insecure-serve-http it refuses a non-loopback one
// with a clear message and exit code 1, unless
// --insecure-allow-unauthenticated-remote is also given; then it warns, logs
// the address really bound, and writes a kubeconfig that reaches it.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliToExit, startServerProcess } from '../support/server-process.ts';
import { serverFetch } from '../support/server-fetch.ts';

const runCli = (args: string[]) => runCliToExit(args);

describe('--bind-address', () => {
  it.each(['0.0.0.0', '::', '192.0.2.10'])('refuses %s over plain HTTP without the insecure-remote flag', async (addr) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'specserver-bind-'));
    try {
      const r = await runCli(['--insecure-serve-http', '--bind-address', addr, '--secure-port', '0', '--data-dir', dataDir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Error: --bind-address "${addr}" is not a loopback address`);
      expect(r.stderr).toContain('--insecure-allow-unauthenticated-remote');
      expect(r.stdout).not.toContain('listening on');
      expect(existsSync(join(dataDir, 'admin.kubeconfig'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('serves 0.0.0.0 over TLS without any insecure flag: the real address in the log, a loopback kubeconfig', async () => {
    const s = await startServerProcess(['--bind-address', '0.0.0.0']);
    try {
      const port = new URL(s.url).port;
      expect(s.url).toBe(`https://0.0.0.0:${port}`);
      expect(s.output()).toContain(`specserver listening on https://0.0.0.0:${port} (kubeconfig uses https://127.0.0.1:${port})`);
      expect(s.output()).not.toContain('WARNING');
      expect(readFileSync(s.kubeconfig, 'utf8')).toContain(`server: https://127.0.0.1:${port}`);
      expect((await serverFetch(`https://127.0.0.1:${port}/readyz`)).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('serves 0.0.0.0 over plain HTTP with both insecure flags: a loud warning', async () => {
    const s = await startServerProcess(['--bind-address', '0.0.0.0', '--insecure-serve-http', '--insecure-allow-unauthenticated-remote']);
    try {
      const port = new URL(s.url).port;
      expect(s.url).toBe(`http://0.0.0.0:${port}`);
      expect(s.output()).toContain(`specserver listening on http://0.0.0.0:${port} (kubeconfig uses http://127.0.0.1:${port})`);
      expect(s.output()).toMatch(/WARNING: serving on every network interface .*no TLS/);
      expect(readFileSync(s.kubeconfig, 'utf8')).toContain(`server: http://127.0.0.1:${port}`);
      expect((await serverFetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    } finally {
      await s.stop();
    }
  });

  it('keeps the loopback default quiet', async () => {
    const s = await startServerProcess([]);
    try {
      expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(s.output()).not.toContain('WARNING');
    } finally {
      await s.stop();
    }
  });
});
