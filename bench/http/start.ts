// Process start → GET /readyz 200, and the idle RSS of the server process
// (VmRSS of the node process itself, 1 s after it is ready). Ours is started
// as users start it (`node dist/cli.js --data-dir D --secure-port P`: HTTPS,
// default authorization, a fixed port as a user's 6443 is) on a restart: a
// copy of a data directory that already holds its certificates and was made
// on the same port. The baseline is a bare Hono process
// (bench/baselines/bare-hono.mjs) serving /readyz over HTTPS with the same
// key and certificate on the same port. Both are plain node. The clock
// starts just before the spawn; /readyz is polled every 5 ms on a fresh
// connection from then on (the address is known, as a user's is).
// Interleaved repetitions (ours, bare, ...), medians. Each round also times a
// first start (a fresh data directory: the CA and certificates are made), and
// with --before DIR a restart of that checkout's server; both in the details.
// Usage: npx tsx bench/http/start.ts [--quick] [--before DIR]

import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { rssMB } from '../support/proc.ts';
import type { BenchProcess } from '../support/process.ts';
import { freePort, spawnBareHonoOnPort, spawnOursOnPort, waitReady } from '../support/servers.ts';
import { interleave, load1, median, sleep } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

type Side = 'ours' | 'bare' | 'first' | 'before';

async function run({ quick, scratch, log, before: beforeDir }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 7;
  const rss: Record<Side, number[]> = { ours: [], bare: [], first: [], before: [] };
  let n = 0;
  // one port for every process (one runs at a time): the data directories are made on it
  const port = await freePort();
  /** Starts a process, times it to ready, reads its RSS 1 s later, stops it. */
  const once = (side: Side, start: () => BenchProcess) => async () => {
    const p = start();
    try {
      const ms = (await waitReady(p.url, p.proc)) - p.spawnedAt;
      await sleep(1000);
      rss[side].push(rssMB(p.proc.pid!));
      return ms;
    } finally {
      await p.stop();
    }
  };
  // data directories that already hold their certificates, copied for each restart
  const seeded = join(scratch, 'seed');
  await once('first', () => spawnOursOnPort(seeded, port))();
  const seededBefore = join(scratch, 'seed-before');
  if (beforeDir) await once('before', () => spawnOursOnPort(seededBefore, port, beforeDir))();
  const restartOf = (seed: string, dir?: string) => () => {
    const data = join(scratch, `data-${n++}`);
    cpSync(seed, data, { recursive: true });
    return spawnOursOnPort(data, port, dir);
  };
  const pki = join(seeded, 'pki');
  const ours = once('ours', restartOf(seeded));
  const bare = once('bare', () => spawnBareHonoOnPort(port, ['--tls', join(pki, 'apiserver.key'), join(pki, 'apiserver.crt')]));
  const first = once('first', () => spawnOursOnPort(join(scratch, `data-${n++}`), port));
  const before = beforeDir ? once('before', restartOf(seededBefore, beforeDir)) : undefined;
  await ours(); // warm-up: the OS's file cache, not counted
  await first();
  if (before) await before();
  await bare();
  for (const k of Object.keys(rss) as Side[]) rss[k] = [];
  // each round: ours (a restart), a first start, the before checkout's restart, bare
  const p = await interleave(pairs, ours, bare, before ? [first, before] : [first]);
  const extra = { first: p.others[0], before: p.others[1] ?? [] };
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  log(`ready: ours ${list(p.ours)}; bare ${list(p.baseline)}; first start ${list(extra.first)}${before ? `; before ${list(extra.before)}` : ''} ms`);
  log(`RSS idle: ours ${list(rss.ours)}; bare ${list(rss.bare)} MB`);
  const was = before ? `; before (${beforeDir}), a restart: ${list(extra.before)} ms (median ${median(extra.before).toFixed(0)})` : '';
  const wasRSS = before ? `; before ${list(rss.before)} MB` : '';
  const load = load1();
  return [
    {
      figure: 'process start → /readyz 200',
      unit: 'ms',
      ours: median(p.ours),
      baseline: median(p.baseline),
      baselineIs: 'a bare Hono process started the same way, HTTPS with the same certificate',
      aim: { of: 'ratio', op: '<=', value: 1.5 },
      load,
      detail: `a restart (certificates in place, the same port), medians of ${pairs} interleaved starts; ours ${list(p.ours)}; bare ${list(p.baseline)}; a first start (certificates made) ${list(extra.first)} (median ${median(extra.first).toFixed(0)})${was}`,
    },
    {
      figure: 'RSS idle (server process only)',
      unit: 'MB',
      ours: median(rss.ours),
      baseline: median(rss.bare),
      baselineIs: 'the bare Hono process, 1 s after ready',
      aim: { of: 'ratio', op: '<=', value: 1.2 },
      load,
      detail: `medians of ${pairs}; ours ${list(rss.ours)}; bare ${list(rss.bare)}${wasRSS}`,
    },
  ];
}

export const figure: Figure = { name: 'start', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
