// Start-up bench: the server as users start it, against a bare Hono process
// started the same way, in interleaved pairs (A B A B ...), medians.
//   - process start → /readyz 200: `node dist/cli.js` (what `npm start` runs
//     after its staleness check) with a data directory that already holds its
//     certificates (a restart) and with a fresh one (first start: the CA and
//     certificates are made), against `node bench/startup/bare-hono.mjs`
//     serving /readyz over HTTPS with the same certificate; the time is from
//     spawn to the first 200 of a client polling every 5 ms.
//   - RSS of the server process alone (/proc/<pid>/status), idle 2 s after
//     /readyz answered, against the bare Hono process.
//   - in-process import of dist/index.js + the first startServer() in a
//     fresh node process, against importing Hono and serving.
// Needs the build (npm run build). Usage: npx tsx bench/startup/run.ts [pairs]

import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, cpSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pairs = Number(process.argv[2] ?? 7);
const scratch = mkdtempSync(join(tmpdir(), 'specserver-startup-'));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function readyz(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(`${url}/readyz`, { rejectUnauthorized: false, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

function rssKB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : NaN;
}

/** Spawns `node argv`, polls /readyz until 200; returns ms from spawn to ready and the idle RSS, then stops it. */
async function startToReady(argv: string[]): Promise<{ ms: number; rssMB: number }> {
  const t0 = performance.now();
  const proc = spawn(process.execPath, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((res, rej) => {
    proc.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (https?\S+)/.exec(out);
      if (m) res(m[1]);
    });
    proc.stderr!.on('data', (d) => (out += d));
    proc.on('exit', (c) => rej(new Error(`exited ${c}: ${out}`)));
  });
  while ((await readyz(url)) !== 200) await new Promise((r) => setTimeout(r, 5));
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 2000));
  const rssMB = rssKB(proc.pid!) / 1024;
  await new Promise<void>((r) => {
    proc.on('exit', () => r());
    proc.kill('SIGTERM');
  });
  return { ms, rssMB };
}

function inProcess(arg?: string): { importMs: number; startMs: number; totalMs: number } {
  const out = execFileSync(process.execPath, [join(root, 'bench', 'startup', 'in-process.mjs'), ...(arg ? [arg] : [])], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!);
}

const cli = join(root, 'dist', 'cli.js');
const bare = join(root, 'bench', 'startup', 'bare-hono.mjs');
// a data directory with its certificates made once, copied for each restart sample
const seeded = join(scratch, 'seed');
await startToReady([cli, '--data-dir', seeded, '--secure-port', '0']);
const pki = join(seeded, 'pki');

const rows: Record<string, number[]> = { restart: [], first: [], bare: [], rssServer: [], rssBare: [], ipImport: [], ipStart: [], ipTotal: [], honoTotal: [] };
const loads: number[] = [];
for (let i = 0; i < pairs; i++) {
  loads.push(loadavg()[0]);
  const dir = join(scratch, `restart-${i}`);
  cpSync(seeded, dir, { recursive: true });
  const r = await startToReady([cli, '--data-dir', dir, '--secure-port', '0']);
  const b = await startToReady([bare, join(pki, 'apiserver.key'), join(pki, 'apiserver.crt')]);
  const f = await startToReady([cli, '--data-dir', join(scratch, `first-${i}`), '--secure-port', '0']);
  const ip = inProcess();
  const h = inProcess('hono');
  rows.restart.push(r.ms);
  rows.bare.push(b.ms);
  rows.first.push(f.ms);
  rows.rssServer.push(r.rssMB);
  rows.rssBare.push(b.rssMB);
  rows.ipImport.push(ip.importMs);
  rows.ipStart.push(ip.startMs);
  rows.ipTotal.push(ip.totalMs);
  rows.honoTotal.push(h.totalMs);
}
rmSync(scratch, { recursive: true, force: true });

const m = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, median(v)]));
const f0 = (x: number) => x.toFixed(0);
const f2 = (x: number) => x.toFixed(2);
console.log(`start-up, medians of ${pairs} interleaved pairs, load average ${loads.map((l) => l.toFixed(1)).join(' ')}`);
console.log(`process start → /readyz 200, restart      ${f0(m.restart)} ms  vs bare Hono ${f0(m.bare)} ms  ratio ${f2(m.restart / m.bare)}  (aim ≤ 1.5)`);
console.log(`process start → /readyz 200, first start  ${f0(m.first)} ms  vs bare Hono ${f0(m.bare)} ms  ratio ${f2(m.first / m.bare)}`);
console.log(`in-process import + first startServer()   ${f0(m.ipImport)} + ${f0(m.ipStart)} = ${f0(m.ipTotal)} ms  vs Hono import + serve ${f0(m.honoTotal)} ms  (aim total ≤ 150 ms)`);
console.log(`RSS idle, server process                  ${f0(m.rssServer)} MB  vs bare Hono ${f0(m.rssBare)} MB  ratio ${f2(m.rssServer / m.rssBare)}  (aim ≤ 1.2)`);
