// A server started as a child process of a bench: node with the given
// arguments, resolved once it prints `listening on <url>`; stop() ends it
// with SIGTERM and waits for the exit. Shared by the benches that time whole
// server processes; spawnedAt (performance.now() just before the spawn) lets
// a bench time the start-up. spawnOnPort starts one whose address is known
// before it listens (a fixed port, as a user's server has), without waiting.

import { spawn, type ChildProcess } from 'node:child_process';

export interface BenchProcess {
  url: string;
  proc: ChildProcess;
  /** performance.now() just before the process was spawned. */
  spawnedAt: number;
  stop(): Promise<void>;
}

/** Runs `node <argv>` in `cwd` until it says where it listens (a process that exits first rejects, with its output). */
export async function spawnListening(argv: string[], cwd: string): Promise<BenchProcess> {
  const spawnedAt = performance.now();
  const proc = spawn(process.execPath, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((res, rej) => {
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (https?\S+)/.exec(out);
      if (m) res(m[1]);
    });
    proc.stderr!.on('data', (d) => {
      out += d;
    });
    proc.on('exit', (c) => rej(new Error(`exited ${c}: ${out}`)));
  });
  return {
    url,
    proc,
    spawnedAt,
    stop: () => stopProcess(proc),
  };
}

/** Runs `node <argv>` in `cwd` that will listen on `url` (its port given in argv or env); returns at once, the URL known beforehand. */
export function spawnOnPort(argv: string[], cwd: string, url: string, env: NodeJS.ProcessEnv = process.env): BenchProcess {
  const spawnedAt = performance.now();
  const proc = spawn(process.execPath, argv, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  proc.stderr!.on('data', (d) => {
    err += d;
  });
  proc.on('exit', (c) => {
    if (c) console.error(`${argv.join(' ')} exited ${c}: ${err}`);
  });
  return {
    url,
    proc,
    spawnedAt,
    stop: () => stopProcess(proc),
  };
}

/** Sends SIGTERM unless the process has ended; resolves when it has. */
function stopProcess(proc: ChildProcess): Promise<void> {
  return new Promise<void>((r) => {
    if (proc.exitCode !== null || proc.signalCode !== null) return r();
    proc.on('exit', () => r());
    proc.kill('SIGTERM');
  });
}
