// Runs the real server as a child process (what `npm start` runs) on a free
// port with its own data directory, for end-to-end tests with real clients;
// and runs the CLI to its exit, for tests of start-up refusals.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from './clients.ts';
import { registerServer, tlsFromKubeconfig } from './server-fetch.ts';

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

export async function startServerProcess(args: string[] = [], opts: { dataDir?: string; keepDataDir?: boolean; compiled?: boolean } = {}): Promise<ServerProcess> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'specserver-e2e-'));
  // node itself with tsx's loader (not the tsx wrapper, which would run node as a child
  // that a SIGKILL to the wrapper leaves running); `compiled`: the build's dist/cli.js, as `npm start` runs it
  const entry = opts.compiled ? [join(projectRoot, 'dist', 'cli.js')] : ['--import', 'tsx', join(projectRoot, 'runtime', 'cli.ts')];
  const proc = spawn(process.execPath, [...entry, '--data-dir', dataDir, '--secure-port', '0', ...args], {
    cwd: projectRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => {
    out += d;
  });
  proc.stderr!.on('data', (d) => {
    out += d;
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const onData = () => {
      const m = /listening on (https?\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    proc.stdout!.on('data', onData);
    proc.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
  if (url.startsWith('https:')) {
    // the address logged and the one the kubeconfig uses (loopback, for a wildcard bind address)
    const tls = tlsFromKubeconfig(join(dataDir, 'admin.kubeconfig'));
    registerServer(url, tls);
    const uses = /kubeconfig uses (https:\S+)\)/.exec(out);
    if (uses) registerServer(uses[1], tls);
  }
  const exited = new Promise<number | null>((resolve) =>
    proc.on('exit', (code, signal) => {
      // a process ended by a signal has no exit code: say which signal, for the failure message
      if (signal) out += `\n[the server process was ended by ${signal}]\n`;
      resolve(code);
    }),
  );
  return {
    url,
    dataDir,
    kubeconfig: join(dataDir, 'admin.kubeconfig'),
    proc,
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

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** both, interleaved as they came */ out: string;
}

/**
 * Runs the CLI with `args` until it exits by itself (a refusal happens before
 * it listens); a server that did start is killed after timeoutMs so the test
 * fails instead of hanging.
 */
export function runCliToExit(args: string[], timeoutMs = 30_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', join(projectRoot, 'runtime', 'cli.ts'), ...args], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const run: CliRun = { code: null, stdout: '', stderr: '', out: '' };
    proc.stdout!.on('data', (d) => {
      run.stdout += d;
      run.out += d;
    });
    proc.stderr!.on('data', (d) => {
      run.stderr += d;
      run.out += d;
    });
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.on('error', reject);
    proc.on('close', (code) => {
      clearTimeout(timer);
      run.code = code;
      resolve(run);
    });
  });
}
