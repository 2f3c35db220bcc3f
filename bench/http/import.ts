// In-process start: `import` of the package entry plus the first
// startServer(), timed inside a fresh node process each repetition
// (bench/http/import/child.mjs, started as our server is), against importing
// Hono and its node adapter and serving one route in the same way.
// Interleaved repetitions (ours, Hono, ...), medians; the aim is on our
// total.
// Usage: npx tsx bench/http/import.ts [--quick]

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { LIBRARY_ENTRY, root, serverCommand } from '../support/servers.ts';
import { interleave, load1, median } from '../support/stats.ts';
import type { Row } from '../support/summary.ts';

interface Timing {
  importMs: number;
  startMs: number;
}

function child(args: string[]): Timing {
  const r = spawnSync(process.execPath, [join(root, 'bench', 'http', 'import', 'child.mjs'), ...args], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`import child ${args[0]} exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Timing;
}

async function run({ quick, log }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 7;
  serverCommand(); // dist/ up to date before the first import
  const parts: Record<'ours' | 'hono', Timing[]> = { ours: [], hono: [] };
  const once = (side: 'ours' | 'hono') => async () => {
    const t = child(side === 'ours' ? ['ours', LIBRARY_ENTRY] : ['hono']);
    parts[side].push(t);
    return t.importMs + t.startMs;
  };
  await once('ours')(); // warm-up: the OS's file cache, not counted
  await once('hono')();
  parts.ours = [];
  parts.hono = [];
  const p = await interleave(pairs, once('ours'), once('hono'));
  const fmt = (ts: Timing[]) => ts.map((t) => `${t.importMs.toFixed(0)}+${t.startMs.toFixed(0)}`).join(', ');
  log(`import+start: ours ${fmt(parts.ours)}; hono ${fmt(parts.hono)} ms`);
  return [
    {
      figure: 'in-process import + first startServer()',
      unit: 'ms',
      ours: median(p.ours),
      baseline: median(p.baseline),
      baselineIs: 'import of Hono and its node adapter + serve(), same way',
      aim: { of: 'ours', op: '<=', value: 150 },
      load: load1(),
      detail: `import ${median(parts.ours.map((t) => t.importMs)).toFixed(0)} ms + start ${median(parts.ours.map((t) => t.startMs)).toFixed(0)} ms (medians of ${pairs}); ours import+start ${fmt(parts.ours)}; hono ${fmt(parts.hono)}`,
    },
  ];
}

export const figure: Figure = { name: 'import', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
