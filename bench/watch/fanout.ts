// Writes while many watches are open, over HTTP, against same-run baselines
// (interleaved repetitions, medians):
//   1. durable creates/s of ConfigMaps with W watches open on configmaps / with none
//   2. write → first and last of W HTTP watchers (p50, p99), against a bare
//      node server that fsyncs and writes the same line to W sockets
//      (bench/watch/bare-fanout.ts), measured by the same client
// Both servers are node processes started with `--import tsx`; the watchers
// run in a child process (bench/watch/watchers.ts).
// With --before DIR, a second specserver started from DIR (another checkout,
// e.g. `git archive` of an older commit with node_modules linked) runs the
// same repetitions, interleaved, for before/after figures.
// Usage: npx tsx bench/watch/fanout.ts [--watchers 1000] [--reps 3] [--seconds 5] [--concurrency 1] [--samples 50] [--before DIR]
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
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { payload: 'x'.repeat(256) } });
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

/** Waits until every watcher got the object of that name, or until nothing arrives for 10 s; answers how many got it. */
async function catchUp(ws: Watchers, name: string): Promise<number> {
  let count = -1;
  let since = now();
  for (;;) {
    const { arrival } = await ws.arrival(name);
    const n = arrival?.count ?? 0;
    if (n >= WATCHERS) return n;
    if (n !== count) {
      count = n;
      since = now();
    } else if (now() - since > 10_000) return n;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Write → first and last watcher (of `expected`), one write at a time. */
async function latencies(base: string, path: string, ws: Watchers, expected = WATCHERS): Promise<{ first: number[]; last: number[] }> {
  const first: number[] = [];
  const last: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t0 = now();
    await post(base, path);
    const name = lastName();
    const deadline = now() + 10_000;
    for (;;) {
      const { arrival } = await ws.arrival(name);
      if (arrival && arrival.count >= expected) {
        first.push(arrival.first - t0);
        last.push(arrival.last - t0);
        break;
      }
      if (now() > deadline) throw new Error(`${name}: ${arrival?.count ?? 0} of ${expected} watchers in 10 s`);
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

async function namespace(base: string): Promise<string> {
  const name = `bench-${process.pid}-${seq++}`;
  const r = await fetch(`${base}/api/v1/namespaces`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ metadata: { name } }) });
  if (r.status !== 201) throw new Error(`namespace answered ${r.status}`);
  return `/api/v1/namespaces/${name}/configmaps`;
}

async function startSpec(dir: string): Promise<BenchProcess & { dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fanout-bench-'));
  const p = await spawnListening(
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
    ],
    dir,
  );
  await readyz(p.url);
  // warm-up
  const path = await namespace(p.url);
  for (let i = 0; i < 50; i++) await post(p.url, path);
  return { ...p, dataDir };
}

interface Figures {
  none: number;
  many: number;
  first50: number;
  last50: number;
  last99: number;
}

/** One repetition against a specserver: creates/s without and with the watches (each in a fresh namespace), then latencies. */
async function specRep(base: string): Promise<Figures> {
  const none = await createsPerSecond(base, await namespace(base));
  const path = await namespace(base);
  const ws = new Watchers(`${base}${path}?watch=1`);
  await ws.open();
  const many = await createsPerSecond(base, path);
  // the latencies are taken once every watcher has read what the creates sent it
  const caughtUp = await catchUp(ws, lastName());
  if (caughtUp < WATCHERS) console.log(`  only ${caughtUp} of ${WATCHERS} watchers got the last create (the others were cut off)`);
  const l = await latencies(base, path, ws, caughtUp);
  await ws.close();
  return { none, many, first50: median(l.first), last50: median(l.last), last99: pct(l.last, 99) };
}

async function bareRep(base: string): Promise<Figures> {
  const ws = new Watchers(`${base}/watch`);
  await ws.open();
  const l = await latencies(base, '/write', ws);
  await ws.close();
  return { none: NaN, many: NaN, first50: median(l.first), last50: median(l.last), last99: pct(l.last, 99) };
}

async function main(): Promise<void> {
  const beforeAt = process.argv.indexOf('--before');
  const beforeDir = beforeAt >= 0 ? resolve(process.argv[beforeAt + 1]) : undefined;
  const sides: { name: string; start: () => Promise<BenchProcess & { dataDir?: string }>; rep: (base: string) => Promise<Figures> }[] = [];
  if (beforeDir) sides.push({ name: 'before', start: () => startSpec(beforeDir), rep: specRep });
  sides.push({ name: 'specserver', start: () => startSpec(root), rep: specRep });
  sides.push({ name: 'bare', start: () => spawnListening(['--import', 'tsx', 'bench/watch/bare-fanout.ts'], root), rep: bareRep });
  const procs = [];
  for (const side of sides) procs.push(await side.start());
  const figures = new Map<string, Figures[]>(sides.map((x) => [x.name, []]));
  const loads: number[] = [];
  try {
    for (let rep = 0; rep < REPS; rep++) {
      loads.push(loadavg()[0]);
      // interleaved, the order turned round every repetition
      const order = sides.map((_, i) => i);
      if (rep % 2) order.reverse();
      for (const i of order) {
        const f = await sides[i].rep(procs[i].url);
        figures.get(sides[i].name)!.push(f);
        console.log(
          `rep ${rep + 1} ${sides[i].name}: creates/s none ${f.none.toFixed(0)}, ${WATCHERS} watches ${f.many.toFixed(0)}; write→first p50 ${f.first50.toFixed(1)} ms, →last p50 ${f.last50.toFixed(1)} p99 ${f.last99.toFixed(1)} ms; load ${loadavg()[0].toFixed(2)}`,
        );
      }
    }
  } finally {
    for (const p of procs) {
      await p.stop();
      if (p.dataDir) rmSync(p.dataDir, { recursive: true, force: true });
    }
    agent.destroy();
  }
  const m = (side: string, k: keyof Figures) => median(figures.get(side)!.map((f) => f[k]));
  console.log(`\nmedians of ${REPS} (concurrency ${CONCURRENCY}, ${WATCHERS} watchers; load at each repetition ${loads.map((x) => x.toFixed(2)).join(' ')}):`);
  for (const side of sides.filter((x) => x.name !== 'bare').map((x) => x.name)) {
    console.log(`${side}: creates/s with ${WATCHERS} watches ${m(side, 'many').toFixed(0)} / none ${m(side, 'none').toFixed(0)} = ${(m(side, 'many') / m(side, 'none')).toFixed(2)} (aim >= 0.8)`);
    console.log(
      `${side}: write -> last watcher p99 ${m(side, 'last99').toFixed(1)} ms / bare ${m('bare', 'last99').toFixed(1)} ms = ${(m(side, 'last99') / m('bare', 'last99')).toFixed(2)} (aim <= 1.1)`,
    );
    console.log(`${side}: write -> last watcher p50 ${m(side, 'last50').toFixed(1)} ms / bare ${m('bare', 'last50').toFixed(1)} ms = ${(m(side, 'last50') / m('bare', 'last50')).toFixed(2)}`);
    console.log(`${side}: write -> first watcher p50 ${m(side, 'first50').toFixed(1)} ms (aim <= 5), bare ${m('bare', 'first50').toFixed(1)} ms`);
  }
}

await main();
