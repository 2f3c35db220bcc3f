// Writes while many watches are open, over HTTP, against same-run baselines
// (interleaved repetitions, medians):
//   1. durable creates/s of ConfigMaps with W watches open on configmaps / with none
//   2. write → first and last of W HTTP watchers (p50, p99), against a bare
//      node server that fsyncs and writes the same line to W sockets
//      (bench/watch/bare-fanout.ts), measured by the same client
// Both servers are node processes started with `--import tsx`; the watchers
// run in a child process (bench/watch/watchers.ts).
// Usage: npx tsx bench/watch/fanout.ts [--watchers 1000] [--reps 3] [--seconds 5] [--concurrency 1] [--samples 50]
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fork, type ChildProcess } from 'node:child_process';
import { spawnListening, type BenchProcess } from '../support/process.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const WATCHERS = arg('watchers', 1000);
const REPS = arg('reps', 3);
const SECONDS = arg('seconds', 5);
const CONCURRENCY = arg('concurrency', 1);
const SAMPLES = arg('samples', 50);
const now = () => performance.timeOrigin + performance.now();
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
let seq = 0;

function post(base: string, path: string): Promise<number> {
  const name = `b-${process.pid}-${seq++}`;
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { payload: 'x'.repeat(256) } });
  return new Promise((res, rej) => {
    const req = http.request(`${base}${path}`, { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } }, (r) => {
      r.resume();
      r.on('end', () => (r.statusCode === 201 ? res(seq) : rej(new Error(`create answered ${r.statusCode}`))));
    });
    req.on('error', rej);
    req.end(body);
  });
}
const lastName = () => `b-${process.pid}-${seq - 1}`;

async function createsPerSecond(base: string, path: string): Promise<number> {
  const end = now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (now() < end) {
        await post(base, path);
        done++;
      }
    }),
  );
  return done / SECONDS;
}

class Watchers {
  private w: ChildProcess;
  private waiting = new Map<string, (m: unknown) => void>();
  constructor(url: string) {
    this.w = fork(join(root, 'bench/watch/watchers.ts'), [url, String(WATCHERS)], { execArgv: ['--import', 'tsx'] });
    this.w.on('message', (m: { op: string; name?: string }) => {
      const k = m.op === 'arrival' ? `arrival:${m.name}` : m.op;
      const f = this.waiting.get(k);
      this.waiting.delete(k);
      f?.(m);
    });
  }
  private ask<T>(op: string, key: string, extra: object = {}): Promise<T> {
    return new Promise((r) => {
      this.waiting.set(key, r as (m: unknown) => void);
      this.w.send({ op, ...extra });
    });
  }
  open = () => this.ask('open', 'opened');
  close = async () => {
    await this.ask('close', 'closed');
    this.w.kill();
  };
  arrival = (name: string) => this.ask<{ arrival: { count: number; first: number; last: number } | null }>('get', `arrival:${name}`, { name });
}

/** Write → first and last watcher, one write at a time. */
async function latencies(base: string, path: string, ws: Watchers): Promise<{ first: number[]; last: number[] }> {
  const first: number[] = [];
  const last: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = now();
    await post(base, path);
    const name = lastName();
    const deadline = now() + 10_000;
    for (;;) {
      const { arrival } = await ws.arrival(name);
      if (arrival && arrival.count >= WATCHERS) {
        first.push(arrival.first - t0);
        last.push(arrival.last - t0);
        break;
      }
      if (now() > deadline) throw new Error(`${name}: ${arrival?.count ?? 0} of ${WATCHERS} watchers in 10 s`);
      await new Promise((r) => setTimeout(r, 2));
    }
  }
  return { first, last };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (xs: number[]) => pct(xs, 50);

async function readyz(url: string): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fanout-bench-'));
  const spec = await spawnListening(
    [
      ...(process.env.SPEC_NODE_ARGS ? process.env.SPEC_NODE_ARGS.split(' ') : []),
      '--import',
      'tsx',
      'runtime/cli.ts',
      '--insecure-serve-http',
      '--authorization-mode',
      'AlwaysAllow',
      '--secure-port',
      '0',
      '--data-dir',
      dataDir,
      '--max-watches-per-user',
      '0',
      '--controllers',
      '-garbagecollector',
    ].concat(process.env.SPEC_ARGS ? process.env.SPEC_ARGS.split(' ') : []),
    root,
  );
  await readyz(spec.url);
  const bare: BenchProcess = await spawnListening(['--import', 'tsx', 'bench/watch/bare-fanout.ts'], root);
  const path = '/api/v1/namespaces/default/configmaps';
  const watchPath = `${path}?watch=1`;
  const rows: Record<string, number[]> = { none: [], many: [], specFirst50: [], specLast50: [], specLast99: [], bareFirst50: [], bareLast50: [], bareLast99: [] };
  const loads: number[] = [];
  try {
    // warm-up
    for (let i = 0; i < 50; i++) await post(spec.url, path);
    for (let rep = 0; rep < REPS; rep++) {
      loads.push(loadavg()[0]);
      rows.none.push(await createsPerSecond(spec.url, path));
      const ws = new Watchers(`${spec.url}${watchPath}`);
      await ws.open();
      rows.many.push(await createsPerSecond(spec.url, path));
      const l = await latencies(spec.url, path, ws);
      await ws.close();
      rows.specFirst50.push(median(l.first));
      rows.specLast50.push(median(l.last));
      rows.specLast99.push(pct(l.last, 99));
      const bw = new Watchers(`${bare.url}/watch`);
      await bw.open();
      const b = await latencies(bare.url, '/write', bw);
      await bw.close();
      rows.bareFirst50.push(median(b.first));
      rows.bareLast50.push(median(b.last));
      rows.bareLast99.push(pct(b.last, 99));
      console.log(
        `rep ${rep + 1}: creates/s none ${rows.none[rep].toFixed(0)}, ${WATCHERS} watches ${rows.many[rep].toFixed(0)}; write→first p50 ${rows.specFirst50[rep].toFixed(1)} ms (bare ${rows.bareFirst50[rep].toFixed(1)}), →last p50 ${rows.specLast50[rep].toFixed(1)} p99 ${rows.specLast99[rep].toFixed(1)} ms (bare ${rows.bareLast50[rep].toFixed(1)} / ${rows.bareLast99[rep].toFixed(1)}); load ${loads[rep].toFixed(2)}`,
      );
    }
  } finally {
    await spec.stop();
    await bare.stop();
    rmSync(dataDir, { recursive: true, force: true });
    agent.destroy();
  }
  const m = (k: string) => median(rows[k]);
  console.log(`\nmedians of ${REPS} (concurrency ${CONCURRENCY}, ${WATCHERS} watchers, load ${loads.map((x) => x.toFixed(2)).join(' ')}):`);
  console.log(`creates/s with ${WATCHERS} watches ${m('many').toFixed(0)} / none ${m('none').toFixed(0)} = ${(m('many') / m('none')).toFixed(2)} (aim >= 0.8)`);
  console.log(`write -> last watcher p99 ${m('specLast99').toFixed(1)} ms / bare ${m('bareLast99').toFixed(1)} ms = ${(m('specLast99') / m('bareLast99')).toFixed(2)} (aim <= 1.1)`);
  console.log(`write -> last watcher p50 ${m('specLast50').toFixed(1)} ms / bare ${m('bareLast50').toFixed(1)} ms = ${(m('specLast50') / m('bareLast50')).toFixed(2)}`);
  console.log(`write -> first watcher p50 ${m('specFirst50').toFixed(1)} ms (aim <= 5), bare ${m('bareFirst50').toFixed(1)} ms`);
}

await main();
