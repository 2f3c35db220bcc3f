// Runs the real server as a child process (what `npm start` runs) on a free
// port with its own data directory, for end-to-end tests with real clients.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from './clients.ts';

export interface ServerProcess {
  url: string;
  dataDir: string;
  kubeconfig: string;
  proc: ChildProcess;
  output(): string;
  /** SIGTERM and wait for exit. */
  stop(): Promise<number | null>;
  /** SIGKILL and wait for exit. */
  kill(): Promise<void>;
}

export async function startServerProcess(args: string[] = [], opts: { dataDir?: string; keepDataDir?: boolean } = {}): Promise<ServerProcess> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'specserver-e2e-'));
  // node itself with tsx's loader (not the tsx wrapper, which would run node as a child
  // that a SIGKILL to the wrapper leaves running)
  const proc = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'runtime', 'cli.ts'), '--data-dir', dataDir, '--secure-port', '0', ...args], {
    cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => { out += d; });
  proc.stderr!.on('data', (d) => { out += d; });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const onData = () => {
      const m = /listening on (http\S+)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    };
    proc.stdout!.on('data', onData);
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited with ${code}:\n${out}`)); });
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code, signal) => {
    // a process ended by a signal has no exit code: say which signal, for the failure message
    if (signal) out += `\n[the server process was ended by ${signal}]\n`;
    resolve(code);
  }));
  return {
    url, dataDir, kubeconfig: join(dataDir, 'admin.kubeconfig'), proc,
    output: () => out,
    async stop() {
      proc.kill('SIGTERM');
      const code = await exited;
      if (!opts.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
    async kill() {
      proc.kill('SIGKILL');
      await exited;
    },
  };
}
