// bench/http/get-pair.ts: GET of one object over a socket, our server process
// against a bare Hono process serving the very same bytes with the same
// Content-Type, both started as `node --import tsx <file>` (plain HTTP, no
// authorization: --insecure-serve-http --authorization-mode AlwaysAllow).
// Runs interleaved rounds (bare, ours, bare, ours ...) for JSON and protobuf
// and prints each round's ratio and the medians, with the load average.
// `--before DIR` also starts the server of another checkout (e.g. the main
// branch) and measures it in the same rounds (bare, before, ours), for
// before/after figures from one run.
// Usage: npx tsx bench/http/get-pair.ts [--pairs N] [--seconds S] [--connections C] [--only json|protobuf] [--before DIR]

import autocannon from 'autocannon';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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

async function rate(url: string, accept: string, duration: number): Promise<number> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration, headers: { accept } });
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r.requests.average;
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
      for (const s of [bare, before, ours]) if (s) await rate(`${s.url}${PATH}`, f.accept, 1);
      const ratios: number[] = [];
      const beforeRatios: number[] = [];
      const oursRates: number[] = [];
      const bareRates: number[] = [];
      for (let i = 0; i < PAIRS; i++) {
        const b = await rate(`${bare.url}${PATH}`, f.accept, SECONDS);
        const p = before ? await rate(`${before.url}${PATH}`, f.accept, SECONDS) : 0;
        const o = await rate(`${ours.url}${PATH}`, f.accept, SECONDS);
        bareRates.push(b);
        oursRates.push(o);
        ratios.push(o / b);
        if (before) beforeRatios.push(p / b);
        const was = before ? ` before ${p.toFixed(0)}/s (${(p / b).toFixed(2)})` : '';
        console.log(`${f.name} round ${i + 1}: bare ${b.toFixed(0)}/s${was} ours ${o.toFixed(0)}/s (${(o / b).toFixed(2)}) (load ${load()})`);
      }
      const was = before ? `, before/bare ${median(beforeRatios).toFixed(2)}` : '';
      console.log(
        `${f.name} GET (${body.byteLength} bytes, ${CONNECTIONS} connections): median bare ${median(bareRates).toFixed(0)}/s, ours ${median(oursRates).toFixed(0)}/s, ours/bare ${median(ratios).toFixed(2)}${was} (load ${load()})`,
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
