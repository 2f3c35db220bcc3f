// A throw-away three-member etcd cluster on loopback for tests: free client
// and peer ports for every member, one temporary data directory holding a
// directory per member, one `--initial-cluster` naming all of them; started
// together (a member waits for a quorum before /health passes) and waited for
// until every member answers /health. A member can be killed with SIGKILL and
// started again on its ports and data (it rejoins as the member it was).
// stop() kills every member still running and removes the data; a test calls
// it from afterAll or finally, and a process exit kills what is left, so a
// failing test leaves no etcd behind. stopServersAndCluster() is the teardown
// of server processes started on a cluster and of the cluster.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { etcdBinary, freePort, healthy, memberArgs } from './etcd.ts';
import type { ServerProcess } from './server-process.ts';

export interface ClusterMember {
  name: string;
  /** The client URL (http://127.0.0.1:<port>). */
  url: string;
  peerUrl: string;
  /** Whether the member's process is running (not killed, not exited). */
  running(): boolean;
  output(): string;
}

export interface TestEtcdCluster {
  members: ClusterMember[];
  /** Every member's client URL, comma-separated (the value of --etcd-servers). */
  endpoints: string;
  dataDir: string;
  /** SIGKILL member i (data kept) and wait for its exit. */
  kill(i: number): Promise<void>;
  /** Starts member i again on its ports and data after kill(); waits until it answers /health. */
  restart(i: number): Promise<void>;
  /** The index of the member that is the raft leader now (asked of a running member), or -1. */
  leader(): Promise<number>;
  /** Kills every member still running and removes the data directory. */
  stop(): Promise<void>;
  /** Every member's output, for a failure message. */
  output(): string;
}

/** Member processes of every cluster of this process, killed if the process exits with them running. */
const live = new Set<ChildProcess>();
let exitHook = false;
function track(p: ChildProcess): void {
  live.add(p);
  p.once('exit', () => live.delete(p));
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const q of live) q.kill('SIGKILL');
    });
  }
}

function exited(p: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (p.exitCode !== null || p.signalCode !== null) return resolve();
    p.once('exit', () => resolve());
  });
}

export async function startEtcdCluster(opts: { size?: number; quotaBytes?: number } = {}): Promise<TestEtcdCluster> {
  const size = opts.size ?? 3;
  const dataDir = mkdtempSync(join(tmpdir(), 'specserver-etcd-cluster-'));
  const ports: { client: number; peer: number }[] = [];
  const taken = new Set<number>();
  while (ports.length < size) {
    const client = await freePort();
    const peer = await freePort();
    if (client === peer || taken.has(client) || taken.has(peer)) continue;
    taken.add(client).add(peer);
    ports.push({ client, peer });
  }
  const names = ports.map((_, i) => `m${i}`);
  const initialCluster = ports.map((p, i) => `${names[i]}=http://127.0.0.1:${p.peer}`).join(',');
  const token = `specserver-test-${process.pid}-${Date.now()}`;
  const procs: (ChildProcess | undefined)[] = new Array(size).fill(undefined);
  const outs: string[] = new Array(size).fill('');

  const args = (i: number): string[] =>
    memberArgs({
      name: names[i],
      dataDir: join(dataDir, names[i]),
      url: `http://127.0.0.1:${ports[i].client}`,
      peer: `http://127.0.0.1:${ports[i].peer}`,
      initialCluster,
      quotaBytes: opts.quotaBytes ?? 256 * 1024 * 1024,
      cluster: { token },
    });
  const launch = (i: number): void => {
    const p = spawn(etcdBinary(), args(i), { stdio: ['ignore', 'pipe', 'pipe'] });
    track(p);
    p.stdout!.on('data', (d) => (outs[i] += d));
    p.stderr!.on('data', (d) => (outs[i] += d));
    procs[i] = p;
  };
  const waitHealthy = async (which: number[]): Promise<void> => {
    const end = Date.now() + 60_000;
    for (;;) {
      const ok = await Promise.all(which.map((i) => healthy(members[i].url)));
      if (ok.every(Boolean)) return;
      for (const i of which) {
        const p = procs[i]!;
        if (p.exitCode !== null || p.signalCode !== null) throw new Error(`etcd member ${names[i]} exited before it was healthy:\n${outs[i]}`);
      }
      if (Date.now() > end) throw new Error(`etcd members ${which.map((i) => names[i]).join(', ')} did not become healthy:\n${cluster.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const running = (i: number) => {
    const p = procs[i];
    return !!p && p.exitCode === null && p.signalCode === null;
  };

  const members: ClusterMember[] = ports.map((p, i) => ({
    name: names[i],
    url: `http://127.0.0.1:${p.client}`,
    peerUrl: `http://127.0.0.1:${p.peer}`,
    running: () => running(i),
    output: () => outs[i],
  }));

  const cluster: TestEtcdCluster = {
    members,
    endpoints: members.map((m) => m.url).join(','),
    dataDir,
    async kill(i) {
      const p = procs[i];
      if (!p) return;
      p.kill('SIGKILL');
      await exited(p);
    },
    async restart(i) {
      if (running(i)) throw new Error(`etcd member ${names[i]} is running`);
      launch(i);
      await waitHealthy([i]);
    },
    async leader() {
      for (const m of members) {
        if (!m.running()) continue;
        try {
          const res = await fetch(`${m.url}/v3/maintenance/status`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(2000) });
          const st = (await res.json()) as { leader?: string; header?: { member_id?: string } };
          // the member list maps ids to names
          const list = (await (await fetch(`${m.url}/v3/cluster/member/list`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(2000) })).json()) as {
            members?: { ID?: string; name?: string }[];
          };
          const leader = list.members?.find((x) => x.ID === st.leader);
          return leader?.name ? names.indexOf(leader.name) : -1;
        } catch {
          continue;
        }
      }
      return -1;
    },
    async stop() {
      await Promise.all(
        procs.map(async (p) => {
          if (!p) return;
          p.kill('SIGKILL');
          await exited(p);
        }),
      );
      rmSync(dataDir, { recursive: true, force: true });
    },
    output: () => outs.map((o, i) => `--- ${names[i]} ---\n${o}`).join('\n'),
  };

  try {
    for (let i = 0; i < size; i++) launch(i);
    await waitHealthy(members.map((_, i) => i));
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

/**
 * The teardown of server processes started on a cluster with their data
 * directories kept (keepDataDir), and of the cluster: every server still
 * running is killed (SIGKILL: a test of failures may leave one half-stopped),
 * each data directory removed, then the cluster stopped.
 */
export async function stopServersAndCluster(servers: ServerProcess[], cluster: TestEtcdCluster | undefined): Promise<void> {
  for (const s of servers) {
    if (s.proc.exitCode === null && s.proc.signalCode === null) await s.kill();
    rmSync(s.dataDir, { recursive: true, force: true });
  }
  await cluster?.stop();
}
