// Runs the real kubectl (or helm) against a test server and captures output.

import { spawn } from 'node:child_process';
import { ensureClients } from './clients.ts';

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
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => p.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    p.on('error', reject);
    p.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
    p.stdin.end(opts.input ?? '');
  });
}

export function kubectlFor(kubeconfig: string) {
  const { kubectl } = ensureClients();
  return (args: string[], opts: { input?: string; env?: Record<string, string>; timeoutMs?: number } = {}) =>
    run(kubectl, ['--kubeconfig', kubeconfig, ...args], opts);
}
