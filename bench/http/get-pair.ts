// bench/http/get-pair.ts: GET of one object over a socket, our server process
// against a bare Hono process serving the very same bytes with the same
// Content-Type, both started as `node --import tsx <file>` (plain HTTP, no
// authorization: --insecure-serve-http --authorization-mode AlwaysAllow).
// Runs interleaved rounds (bare, ours, bare, ours ...) for JSON and protobuf
// and prints each round's ratio and the medians, with the load average; the
// servers' CPU time per request (from /proc) is a second figure, steadier
// than the rate on a machine other work is using.
// `--before DIR` also starts the server of another checkout (e.g. the main
// branch) and measures it in the same rounds (bare, before, ours), for
// before/after figures from one run.
// Usage: npx tsx bench/http/get-pair.ts [--pairs N] [--seconds S] [--connections C] [--only json|protobuf] [--before DIR]

import autocannon from 'autocannon';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnListening, type BenchProcess } from '../support/process.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : dflt;
};
const PAIRS = Number(arg('--pairs', '3'));
const SECONDS = Number(arg('--seconds', '5'));
const CONNECTIONS = Number(arg('--connections', '50'));
const ONLY = arg('--only', '');
const BEFORE = arg('--before', '');
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const PATH = '/api/v1/namespaces/default/configmaps/bench';

// the baseline: Hono under @hono/node-server answering every GET with the bytes of a file
const BARE = `
import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
const [file, type] = process.argv.slice(2);
const bytes = new Uint8Array(readFileSync(file));
const app = new Hono();
app.get('*', (c) => c.body(bytes, 200, { 'Content-Type': type, 'Cache-Control': 'no-cache, private' }));
serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (i) => console.log('listening on http://127.0.0.1:' + i.port));
process.on('SIGTERM', () => process.exit(0));
`;

const load = (): string =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU time (user + system) a process has used, in µs (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Requests per second, and the server's CPU per request in µs (a figure less sensitive to other load than the rate). */
async function rate(server: BenchProcess, accept: string, duration: number): Promise<{ perSec: number; cpuPerReq: number }> {
  const url = `${server.url}${PATH}`;
  const cpu0 = cpuMicros(server.proc.pid!);
  const r = await autocannon({ url, connections: CONNECTIONS, duration, headers: { accept } });
  const cpu = cpuMicros(server.proc.pid!) - cpu0;
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  // autocannon's histogram of requests also counts them all (`total`)
  const total = (r.requests as typeof r.requests & { total: number }).total;
  return { perSec: r.requests.average, cpuPerReq: cpu / total };
}

/** Waits for /readyz and creates the object the GETs read. */
async function prepare(url: string): Promise<void> {
  for (;;) {
    const r = await fetch(`${url}/readyz`).catch(() => undefined);
    if (r?.status === 200) break;
    await new Promise((res) => setTimeout(res, 20));
  }
  const made = await fetch(`${url}/api/v1/namespaces/default/configmaps`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'bench' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench', labels: { app: 'bench' } }, data: { key: 'value' } }),
  });
  if (made.status !== 201) throw new Error(`create: ${made.status} ${await made.text()}`);
}

/** The body a server answers in the format asked for (the protobuf codec loads in the background: the first answers may be JSON). */
async function answer(url: string, accept: string): Promise<{ body: Uint8Array; type: string }> {
  for (;;) {
    const res = await fetch(`${url}${PATH}`, { headers: { accept } });
    const type = res.headers.get('content-type') ?? '';
    const body = new Uint8Array(await res.arrayBuffer());
    if (type === accept) return { body, type };
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-get-pair-'));
  const barePath = join(root, '.cache', 'bench-get-pair-bare.mts');
  mkdirSync(dirname(barePath), { recursive: true });
  writeFileSync(barePath, BARE);
  const serverArgs = (dir: string, data: string) => [
    '--import',
    'tsx',
    join(dir, 'runtime', 'cli.ts'),
    '--data-dir',
    join(scratch, data),
    '--secure-port',
    '0',
    '--insecure-serve-http',
    '--authorization-mode',
    'AlwaysAllow',
  ];
  const ours = await spawnListening(serverArgs(root, 'ours'), root);
  const before = BEFORE ? await spawnListening(serverArgs(resolve(BEFORE), 'before'), resolve(BEFORE)) : undefined;
  const bares: BenchProcess[] = [];
  try {
    await prepare(ours.url);
    if (before) await prepare(before.url);
    console.log(`ours: pid ${ours.proc.pid} ${ours.url}${before ? `; before (${BEFORE}): pid ${before.proc.pid}` : ''}`);
    const formats = [
      { name: 'json', accept: 'application/json' },
      { name: 'protobuf', accept: PROTOBUF },
    ].filter((f) => !ONLY || f.name === ONLY);
    for (const f of formats) {
      const { body, type } = await answer(ours.url, f.accept);
      if (before) await answer(before.url, f.accept);
      const file = join(scratch, `${f.name}.bin`);
      writeFileSync(file, body);
      const bare = await spawnListening(['--import', 'tsx', barePath, file, type], root);
      bares.push(bare);
      for (const s of [bare, before, ours]) if (s) await rate(s, f.accept, 1);
      const rows: { bare: number; before: number; ours: number; cpu: { bare: number; before: number; ours: number } }[] = [];
      for (let i = 0; i < PAIRS; i++) {
        const b = await rate(bare, f.accept, SECONDS);
        const p = before ? await rate(before, f.accept, SECONDS) : { perSec: 0, cpuPerReq: 0 };
        const o = await rate(ours, f.accept, SECONDS);
        rows.push({ bare: b.perSec, before: p.perSec, ours: o.perSec, cpu: { bare: b.cpuPerReq, before: p.cpuPerReq, ours: o.cpuPerReq } });
        const was = before ? ` before ${p.perSec.toFixed(0)}/s (${(p.perSec / b.perSec).toFixed(2)}, ${p.cpuPerReq.toFixed(0)} µs)` : '';
        console.log(
          `${f.name} round ${i + 1}: bare ${b.perSec.toFixed(0)}/s (${b.cpuPerReq.toFixed(0)} µs CPU a request)${was} ours ${o.perSec.toFixed(0)}/s (${(o.perSec / b.perSec).toFixed(2)}, ${o.cpuPerReq.toFixed(0)} µs) (load ${load()})`,
        );
      }
      const med = (pick: (r: (typeof rows)[number]) => number) => median(rows.map(pick)).toFixed(2);
      const was = before ? `; before/bare ${med((r) => r.before / r.bare)}, bare/before CPU ${med((r) => r.cpu.bare / r.cpu.before)}` : '';
      console.log(
        `${f.name} GET (${body.byteLength} bytes, ${CONNECTIONS} connections), medians: ours/bare ${med((r) => r.ours / r.bare)}, bare/ours CPU a request ${med((r) => r.cpu.bare / r.cpu.ours)}${was} (load ${load()})`,
      );
      await bare.stop();
    }
  } finally {
    for (const b of bares) if (b.proc.exitCode === null) await b.stop();
    await ours.stop();
    if (before) await before.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
