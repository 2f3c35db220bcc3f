// Runs the real kubectl (or helm) against a test server and captures output;
// kubectlSession() starts a server process with a kubectl bound to it.

import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureClients } from './clients.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function run(bin: string, args: string[], opts: { input?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const p = spawn(bin, args, { env: { ...process.env, HOME: process.env.HOME ?? '/tmp', ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => {
      stdout += d;
    });
    p.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => p.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    p.on('error', reject);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // a command that exits before reading its input closes the pipe: its exit code tells what happened, not the EPIPE
    p.stdin.on('error', () => {});
    p.stdin.end(opts.input ?? '');
  });
}

export function kubectlFor(kubeconfig: string) {
  const { kubectl } = ensureClients();
  return (args: string[], opts: { input?: string; env?: Record<string, string>; timeoutMs?: number } = {}) => run(kubectl, ['--kubeconfig', kubeconfig, ...args], opts);
}

export type Kubectl = (args: string[], opts?: { input?: string; env?: Record<string, string>; timeoutMs?: number }) => Promise<RunResult>;

/** A real server process and a kubectl bound to it with its own HOME (a fresh discovery cache). */
export interface KubectlSession {
  server: ServerProcess;
  home: string;
  k: Kubectl;
  stop(): Promise<void>;
}

export async function kubectlSession(serverArgs: string[] = []): Promise<KubectlSession> {
  const server = await startServerProcess(serverArgs);
  const home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
  const base = kubectlFor(server.kubeconfig);
  const k: Kubectl = (args, opts = {}) => base(args, { ...opts, env: { HOME: home, ...(opts.env ?? {}) } });
  return {
    server,
    home,
    k,
    stop: async () => {
      await server.stop();
    },
  };
}

/** The output of a kubectl run that must succeed. */
export function ok(r: RunResult): string {
  if (r.code !== 0) throw new Error(`kubectl failed (${r.code}): ${r.stderr}\n${r.stdout}`);
  return r.stdout;
}
