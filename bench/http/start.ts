// Process start → GET /readyz 200, and the idle RSS of the server process
// (VmRSS of the node process itself, 1 s after it is ready), for our server
// (a fresh data directory each time) and for a bare Hono process
// (bench/baselines/bare-hono.mjs), both started as `node` with the same
// arguments before the script (bench/support/servers.ts). The clock starts
// just before the spawn; /readyz is polled every 5 ms once the process says
// where it listens. Interleaved repetitions (ours, bare, ...), medians.
// Usage: npx tsx bench/http/start.ts [--quick]

import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { rssMB } from '../support/proc.ts';
import { spawnBaseline, spawnOurs, waitReady } from '../support/servers.ts';
import type { BenchProcess } from '../support/process.ts';
import { interleave, load1, median, sleep } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

async function run({ quick, scratch, log }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 7;
  const rss: Record<'ours' | 'bare', number[]> = { ours: [], bare: [] };
  let n = 0;
  const once = (side: 'ours' | 'bare', start: () => Promise<BenchProcess>) => async () => {
    const p = await start();
    try {
      const ms = (await waitReady(p.url)) - p.spawnedAt;
      await sleep(1000);
      rss[side].push(rssMB(p.proc.pid!));
      return ms;
    } finally {
      await p.stop();
    }
  };
  const ours = once('ours', () => spawnOurs(join(scratch, `data-${n++}`)));
  const bare = once('bare', () => spawnBaseline('bare-hono.mjs'));
  await ours(); // warm-up: the OS's file cache, not counted
  await bare();
  rss.ours = [];
  rss.bare = [];
  const p = await interleave(pairs, ours, bare);
  log(`ready: ours ${p.ours.map((x) => x.toFixed(0)).join(' ')}; bare ${p.baseline.map((x) => x.toFixed(0)).join(' ')} ms`);
  log(`RSS idle: ours ${rss.ours.map((x) => x.toFixed(0)).join(' ')}; bare ${rss.bare.map((x) => x.toFixed(0)).join(' ')} MB`);
  const load = load1();
  return [
    {
      figure: 'process start → /readyz 200',
      unit: 'ms',
      ours: median(p.ours),
      baseline: median(p.baseline),
      baselineIs: 'a bare Hono process started the same way',
      aim: { of: 'ratio', op: '<=', value: 1.5 },
      load,
      detail: `medians of ${pairs} interleaved starts; ours ${p.ours.map((x) => x.toFixed(0)).join(', ')}; bare ${p.baseline.map((x) => x.toFixed(0)).join(', ')}`,
    },
    {
      figure: 'RSS idle (server process only)',
      unit: 'MB',
      ours: median(rss.ours),
      baseline: median(rss.bare),
      baselineIs: 'the bare Hono process, 1 s after ready',
      aim: { of: 'ratio', op: '<=', value: 1.2 },
      load,
      detail: `medians of ${pairs}; ours ${rss.ours.map((x) => x.toFixed(0)).join(', ')}; bare ${rss.bare.map((x) => x.toFixed(0)).join(', ')}`,
    },
  ];
}

export const figure: Figure = { name: 'start', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
