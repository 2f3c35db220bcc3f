// bench/http/get-pair.ts: GET of one object over a socket, our server process
// against a bare Hono process serving the very same bytes with the same
// Content-Type, both started as `node --import tsx <file>` (plain HTTP, no
// authorization: --insecure-serve-http --authorization-mode AlwaysAllow).
// Runs interleaved pairs (bare, ours, bare, ours ...) for JSON and protobuf
// and prints each pair's ratio and the medians, with the load average.
// Usage: npx tsx bench/http/get-pair.ts [--pairs N] [--seconds S] [--connections C] [--only json|protobuf]

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

async function main(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'bench-get-pair-'));
  const barePath = join(root, '.cache', 'bench-get-pair-bare.mts');
  mkdirSync(dirname(barePath), { recursive: true });
  writeFileSync(barePath, BARE);
  const ours = await spawnListening(
    ['--import', 'tsx', join(root, 'runtime', 'cli.ts'), '--data-dir', join(scratch, 'data'), '--secure-port', '0', '--insecure-serve-http', '--authorization-mode', 'AlwaysAllow'],
    root,
  );
  const bares: BenchProcess[] = [];
  try {
    for (;;) {
      const r = await fetch(`${ours.url}/readyz`).catch(() => undefined);
      if (r?.status === 200) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    const made = await fetch(`${ours.url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench', labels: { app: 'bench' } }, data: { key: 'value' } }),
    });
    if (made.status !== 201) throw new Error(`create: ${made.status} ${await made.text()}`);
    console.log(`ours: pid ${ours.proc.pid} ${ours.url}`);
    const formats = [
      { name: 'json', accept: 'application/json' },
      { name: 'protobuf', accept: PROTOBUF },
    ].filter((f) => !ONLY || f.name === ONLY);
    for (const f of formats) {
      // the protobuf codec loads in the background: the first answers may still be JSON
      let res: Response;
      for (;;) {
        res = await fetch(`${ours.url}${PATH}`, { headers: { accept: f.accept } });
        if (res.headers.get('content-type') === (f.name === 'json' ? 'application/json' : PROTOBUF)) break;
        await res.arrayBuffer();
        await new Promise((r) => setTimeout(r, 50));
      }
      const body = new Uint8Array(await res.arrayBuffer());
      const file = join(scratch, `${f.name}.bin`);
      writeFileSync(file, body);
      const bare = await spawnListening(['--import', 'tsx', barePath, file, res.headers.get('content-type')!], root);
      bares.push(bare);
      await rate(`${bare.url}${PATH}`, f.accept, 1);
      await rate(`${ours.url}${PATH}`, f.accept, 1);
      const ratios: number[] = [];
      const oursRates: number[] = [];
      const bareRates: number[] = [];
      for (let i = 0; i < PAIRS; i++) {
        const b = await rate(`${bare.url}${PATH}`, f.accept, SECONDS);
        const o = await rate(`${ours.url}${PATH}`, f.accept, SECONDS);
        bareRates.push(b);
        oursRates.push(o);
        ratios.push(o / b);
        console.log(`${f.name} pair ${i + 1}: bare ${b.toFixed(0)}/s ours ${o.toFixed(0)}/s ratio ${(o / b).toFixed(2)} (load ${load()})`);
      }
      console.log(
        `${f.name} GET (${body.byteLength} bytes, ${CONNECTIONS} connections): median bare ${median(bareRates).toFixed(0)}/s, ours ${median(oursRates).toFixed(0)}/s, ratio ${median(ratios).toFixed(2)} (load ${load()})`,
      );
      await bare.stop();
    }
  } finally {
    for (const b of bares) if (b.proc.exitCode === null) await b.stop();
    await ours.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
