// bench/http: HTTP-level figures of the API server, each next to a baseline
// measured in the same run so the ratios hold on a noisy machine.
//   1. GET of one object: our throughput / a bare Hono JSON handler's
//   2. durable creates with 64 connections (SQLite, group commit)
//   3. list of 10,000 ConfigMaps: latency p50/p99, and / JSON.stringify of the same list
//   4. RSS idle and with 100,000 ConfigMaps
//   5. startServer() in-process; time from process start to /readyz 200, and of a bare Hono process
// Servers run as child processes; autocannon drives them from this process.
// Usage: npx tsx bench/http/run.ts [--quick]

import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const quick = process.argv.includes('--quick');
const DURATION = quick ? 3 : 10;
const MANY = quick ? 10_000 : 100_000;

interface Proc {
  url: string;
  proc: ChildProcess;
  startMs: number;
  stop(): Promise<void>;
}

async function spawnServer(args: string[], ready: RegExp): Promise<Proc> {
  const t0 = performance.now();
  const proc = spawn(tsx, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((res, rej) => {
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = ready.exec(out);
      if (m) res(m[1]);
    });
    proc.stderr!.on('data', (d) => {
      out += d;
    });
    proc.on('exit', (c) => rej(new Error(`exited ${c}: ${out}`)));
  });
  // wait for readiness
  for (;;) {
    try {
      const r = await fetch(`${url}/readyz`);
      if (r.status === 200) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  const startMs = performance.now() - t0;
  return {
    url,
    proc,
    startMs,
    stop: () =>
      new Promise<void>((r) => {
        proc.on('exit', () => r());
        proc.kill('SIGTERM');
      }),
  };
}

function rssMB(p: ChildProcess): number {
  // tsx runs node as a child: sum the tree's RSS
  const pids = [p.pid!];
  try {
    const kids = readFileSync(`/proc/${p.pid}/task/${p.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    pids.push(...kids);
    for (const k of kids) {
      try {
        pids.push(...readFileSync(`/proc/${k}/task/${k}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
      } catch {
        /* gone */
      }
    }
  } catch {
    /* no children */
  }
  let kb = 0;
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) kb += Number(m[1]);
    } catch {
      /* gone */
    }
  }
  return kb / 1024;
}

async function cannon(opts: autocannon.Options): Promise<autocannon.Result> {
  return await autocannon({ duration: DURATION, connections: 16, ...opts });
}

const BARE = `
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
const obj = ${JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'bench', namespace: 'default', uid: '6f1d0a6e-1111-2222-3333-444455556666', resourceVersion: '12', creationTimestamp: '2026-01-01T00:00:00Z' }, data: { key: 'value' } })};
const app = new Hono();
app.get('/readyz', (c) => c.text('ok'));
app.get('*', (c) => c.json(obj));
const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (i) => console.log('listening on http://127.0.0.1:' + i.port));
`;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-http-'));
  const barePath = join(root, '.cache', 'bench-bare-hono.mts');
  (await import('node:fs')).mkdirSync(dirname(barePath), { recursive: true });
  (await import('node:fs')).writeFileSync(barePath, BARE);
  const results: Record<string, string> = {};

  // 5. start-up: in-process startServer() (what tests use), then whole processes
  {
    const { startServer } = await import('../../runtime/index.ts');
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const s = await startServer();
      times.push(performance.now() - t);
      await s.stop();
    }
    times.sort((a, b) => a - b);
    results['startServer() in-process, median of 5 (ms), aim < 300'] = times[2].toFixed(0);
  }
  const bare = await spawnServer([barePath], /listening on (http\S+)/);
  // plain HTTP and no authorization, like the bare baseline (bench/auth compares TLS and authentication)
  const ours = await spawnServer(
    [join(root, 'runtime', 'cli.ts'), '--data-dir', join(scratch, 'd1'), '--secure-port', '0', '--insecure-serve-http', '--authorization-mode', 'AlwaysAllow'],
    /listening on (http\S+)/,
  );
  results['start to ready: specserver (ms)'] = ours.startMs.toFixed(0);
  results['start to ready: bare hono (ms)'] = bare.startMs.toFixed(0);
  results['start-up ratio (ours / bare)'] = (ours.startMs / bare.startMs).toFixed(2);

  // 1. GET throughput
  await fetch(`${ours.url}/api/v1/namespaces/default/configmaps`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench' }, data: { key: 'value' } }),
  });
  await cannon({ url: `${bare.url}/x`, duration: 1 });
  await cannon({ url: `${ours.url}/api/v1/namespaces/default/configmaps/bench`, duration: 1 });
  const bareGet = await cannon({ url: `${bare.url}/api/v1/namespaces/default/configmaps/bench` });
  const ourGet = await cannon({ url: `${ours.url}/api/v1/namespaces/default/configmaps/bench` });
  results['GET req/s: bare hono'] = bareGet.requests.average.toFixed(0);
  results['GET req/s: specserver'] = ourGet.requests.average.toFixed(0);
  results['GET ratio (ours / bare hono), aim >= 0.5'] = (ourGet.requests.average / bareGet.requests.average).toFixed(2);
  await bare.stop();
  results['RSS idle (MB)'] = rssMB(ours.proc).toFixed(0);

  // 2. durable creates, 64 connections
  let n = 0;
  const create = await cannon({
    url: `${ours.url}/api/v1/namespaces/default/configmaps`,
    connections: 64,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (r: any) => ({ ...r, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c-${n++}` }, data: { key: 'value'.repeat(20) } }) }) }],
  });
  results['durable create req/s (64 connections)'] = create.requests.average.toFixed(0);
  results['durable create non-2xx'] = String(create.non2xx);
  await ours.stop();

  // 3. list of 10,000 ConfigMaps and 4. RSS with many
  const many = await spawnServer(
    [join(root, 'runtime', 'cli.ts'), '--data-dir', join(scratch, 'd2'), '--secure-port', '0', '--insecure-serve-http', '--authorization-mode', 'AlwaysAllow'],
    /listening on (http\S+)/,
  );
  let made = 0;
  const makeBatch = async (ns: string, count: number) => {
    const conc = 32;
    let next = 0;
    await Promise.all(
      Array.from({ length: conc }, async () => {
        for (;;) {
          const i = next++;
          if (i >= count) return;
          const r = await fetch(`${many.url}/api/v1/namespaces/${ns}/configmaps`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { app: 'bench', n: String(i % 10) } }, data: { payload: 'x'.repeat(700) } }),
          });
          if (r.status === 201) made++;
          else await r.text();
        }
      }),
    );
  };
  await makeBatch('kube-public', 10_000);
  const times: number[] = [];
  let body = '';
  for (let i = 0; i < (quick ? 10 : 30); i++) {
    const t = performance.now();
    body = await (await fetch(`${many.url}/api/v1/namespaces/kube-public/configmaps`)).text();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const parsed = JSON.parse(body);
  const st: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    JSON.stringify(parsed);
    st.push(performance.now() - t);
  }
  st.sort((a, b) => a - b);
  results['list 10,000 ConfigMaps (~1 KB): p50 ms'] = pct(times, 50).toFixed(1);
  results['list 10,000 ConfigMaps: p99 ms'] = pct(times, 99).toFixed(1);
  results['list p50 / JSON.stringify of the same list (in this process)'] = (pct(times, 50) / pct(st, 50)).toFixed(2);
  if (MANY > 10_000) await makeBatch('default', MANY - 10_000);
  await new Promise((r) => setTimeout(r, 2000));
  results[`RSS with ${made.toLocaleString('en')} ConfigMaps (MB)`] = rssMB(many.proc).toFixed(0);
  await many.stop();
  rmSync(scratch, { recursive: true, force: true });

  console.log('\nbench/http results');
  for (const [k, v] of Object.entries(results)) console.log(`  ${k.padEnd(62)} ${v}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
