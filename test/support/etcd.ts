// A throw-away single-member etcd for tests: started on loopback with free
// client and peer ports, a temporary data directory and a small backend
// quota; waited for until /health answers; stopped with SIGTERM (then
// SIGKILL) and its data directory removed. etcdAvailable() tells whether an
// etcd binary exists, so that tests skip with a clear message where it does
// not (CI installs one: etcdRequired() is true there). memberArgs() builds
// the flags of a member, alone here or one of etcd-cluster.ts's members.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestEtcd {
  /** The client URL (http://127.0.0.1:<port>). */
  url: string;
  dataDir: string;
  proc: ChildProcess;
  output(): string;
  /** SIGKILL without removing the data directory (for a restart). */
  kill(): Promise<void>;
  /** Starts the member again on the same ports and data directory after kill(). */
  restart(): Promise<void>;
  /** SIGTERM, SIGKILL after a grace period, then removes the data directory. */
  stop(): Promise<void>;
}

/** The etcd binary tests use: $ETCD_BIN, else `etcd` on PATH. */
export function etcdBinary(): string {
  return process.env.ETCD_BIN || 'etcd';
}

let available: boolean | undefined;

/** Whether an etcd binary runs here (`etcd --version` exits 0). */
export function etcdAvailable(): boolean {
  if (available === undefined) {
    const r = spawnSync(etcdBinary(), ['--version'], { stdio: 'ignore' });
    available = r.status === 0;
  }
  return available;
}

/** On CI (CI set) etcd must be installed: its tests may not skip there. */
export function etcdRequired(): boolean {
  return !!process.env.CI;
}

/** The message a suite logs when it skips for want of etcd. */
export const ETCD_SKIP_MESSAGE = `no etcd binary (${etcdBinary()}) found: the etcd storage tests are skipped (install etcd-server, or set ETCD_BIN)`;

/** A free TCP port on loopback (bound and released at once). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Whether the member at a client URL answers /health with health true. */
export async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
    const body = (await res.json()) as { health?: string };
    return res.ok && body.health === 'true';
  } catch {
    return false;
  }
}

export interface MemberFlags {
  name: string;
  /** The member's own data directory. */
  dataDir: string;
  /** Client and peer URLs (http://127.0.0.1:<port>). */
  url: string;
  peer: string;
  /** Every member as name=peerURL, comma-separated. */
  initialCluster: string;
  quotaBytes: number;
  /** A cluster of several members: its token, and a short heartbeat and election (loopback) so that a lost leader is replaced quickly. */
  cluster?: { token: string };
}

/** The command-line flags of one test member, alone or in a cluster. */
export function memberArgs(m: MemberFlags): string[] {
  const args = ['--name', m.name, '--data-dir', m.dataDir, '--listen-client-urls', m.url, '--advertise-client-urls', m.url];
  args.push('--listen-peer-urls', m.peer, '--initial-advertise-peer-urls', m.peer, '--initial-cluster', m.initialCluster);
  if (m.cluster) args.push('--initial-cluster-token', m.cluster.token, '--initial-cluster-state', 'new');
  args.push('--quota-backend-bytes', String(m.quotaBytes));
  if (m.cluster) args.push('--heartbeat-interval', '50', '--election-timeout', '500');
  args.push('--logger=zap', '--log-level=error');
  return args;
}

export async function startEtcd(opts: { quotaBytes?: number } = {}): Promise<TestEtcd> {
  const dataDir = mkdtempSync(join(tmpdir(), 'specserver-etcd-'));
  const clientPort = await freePort();
  const peerPort = await freePort();
  const url = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const args = memberArgs({ name: 'test', dataDir: join(dataDir, 'member'), url, peer, initialCluster: `test=${peer}`, quotaBytes: opts.quotaBytes ?? 64 * 1024 * 1024 });
  let out = '';
  let proc!: ChildProcess;
  const launch = async (): Promise<void> => {
    proc = spawn(etcdBinary(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    let exited = false;
    proc.on('exit', () => (exited = true));
    const end = Date.now() + 30_000;
    while (!(await healthy(url))) {
      if (exited) throw new Error(`etcd exited before it was healthy:\n${out}`);
      if (Date.now() > end) {
        proc.kill('SIGKILL');
        throw new Error(`etcd did not become healthy:\n${out}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const waitExit = (p: ChildProcess, graceMs: number): Promise<void> =>
    new Promise((resolve) => {
      if (p.exitCode !== null || p.signalCode !== null) return resolve();
      const timer = setTimeout(() => p.kill('SIGKILL'), graceMs);
      p.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  try {
    await launch();
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const etcd: TestEtcd = {
    url,
    dataDir,
    get proc() {
      return proc;
    },
    output: () => out,
    async kill() {
      const p = proc;
      p.kill('SIGKILL');
      await waitExit(p, 0);
    },
    async restart() {
      await launch();
    },
    async stop() {
      const p = proc;
      p.kill('SIGTERM');
      await waitExit(p, 5000);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return etcd;
}
