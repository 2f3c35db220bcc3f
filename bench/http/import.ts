// In-process start: `import` of the package entry plus the first
// startServer(), timed inside a fresh node process each repetition
// (bench/http/import/child.mjs, started as our server is), against importing
// Hono and its node adapter and serving one route in the same way.
// Interleaved repetitions (ours, Hono, ...), medians; the aim is on our
// total. Both run by plain node; ours imports the compiled dist/index.js.
// With --before DIR, that checkout's dist/index.js in the same rounds.
// Usage: npx tsx bench/http/import.ts [--quick] [--before DIR]

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runAlone, runsAlone, type Figure, type FigureOptions } from '../support/figure.ts';
import { LIBRARY_ENTRY, root, serverCommand, serverEntry } from '../support/servers.ts';
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

async function run({ quick, log, before: beforeDir }: FigureOptions): Promise<Row[]> {
  const pairs = quick ? 3 : 7;
  serverCommand(); // dist/ up to date before the first import
  // another checkout's package entry, when it has the build step (an older one's TypeScript entry needs a loader)
  const beforeEntry = beforeDir && serverCommand(beforeDir)[0] === serverEntry(beforeDir) ? join(beforeDir, 'dist', 'index.js') : undefined;
  if (beforeDir && !beforeEntry) log(`--before ${beforeDir}: no build step there, not measured`);
  const parts: Record<'ours' | 'hono' | 'before', Timing[]> = { ours: [], hono: [], before: [] };
  const once = (side: 'ours' | 'hono' | 'before') => async () => {
    const t = child(side === 'hono' ? ['hono'] : ['ours', side === 'before' && beforeEntry ? beforeEntry : LIBRARY_ENTRY]);
    parts[side].push(t);
    return t.importMs + t.startMs;
  };
  await once('ours')(); // warm-up: the OS's file cache, not counted
  if (beforeEntry) await once('before')();
  await once('hono')();
  parts.ours = [];
  parts.hono = [];
  parts.before = [];
  // with --before, each round is ours, before, Hono
  const p = await interleave(pairs, once('ours'), once('hono'), beforeEntry ? [once('before')] : []);
  const fmt = (ts: Timing[]) => ts.map((t) => `${t.importMs.toFixed(0)}+${t.startMs.toFixed(0)}`).join(', ');
  const was = beforeEntry ? `; before (${beforeDir}) ${fmt(parts.before)}, median total ${median(parts.before.map((t) => t.importMs + t.startMs)).toFixed(0)} ms` : '';
  log(`import+start: ours ${fmt(parts.ours)}; hono ${fmt(parts.hono)} ms${was}`);
  return [
    {
      figure: 'in-process import + first startServer()',
      unit: 'ms',
      ours: median(p.ours),
      baseline: median(p.baseline),
      baselineIs: 'import of Hono and its node adapter + serve(), same way',
      aim: { of: 'ours', op: '<=', value: 150 },
      load: load1(),
      detail: `import ${median(parts.ours.map((t) => t.importMs)).toFixed(0)} ms + start ${median(parts.ours.map((t) => t.startMs)).toFixed(0)} ms (medians of ${pairs}); ours import+start ${fmt(parts.ours)}; hono ${fmt(parts.hono)}${was}`,
    },
  ];
}

export const figure: Figure = { name: 'import', run };

if (runsAlone(import.meta.url)) await runAlone(figure);
