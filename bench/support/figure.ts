// What every bench figure module exports, and how one runs on its own
// (`npx tsx bench/http/get.ts [--quick]`): the same table the whole suite prints.

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAverage } from './stats.ts';
import { formatDetails, formatSummary, type Row } from './summary.ts';

export interface FigureOptions {
  /** Shorter durations and smaller data sets; the interleaved pairs stay (at least 3). */
  quick: boolean;
  /** A scratch directory of this run, removed afterwards. */
  scratch: string;
  /** Progress lines (stderr). */
  log(line: string): void;
}

export interface Figure {
  /** The name --only selects it by. */
  name: string;
  run(opts: FigureOptions): Promise<Row[]>;
}

/** True when the module at moduleURL is the script node was started with. */
export function runsAlone(moduleURL: string): boolean {
  return process.argv[1] !== undefined && fileURLToPath(moduleURL) === process.argv[1];
}

/** Runs figures with the process's --quick flag and prints their table. */
export async function runFigures(figures: Figure[], quick: boolean): Promise<{ rows: Row[]; failures: { figure: string; error: string }[]; loadStart: string; loadEnd: string }> {
  const loadStart = loadAverage();
  const rows: Row[] = [];
  const failures: { figure: string; error: string }[] = [];
  for (const f of figures) {
    const scratch = mkdtempSync(join(tmpdir(), `bench-${f.name}-`));
    const log = (line: string) => process.stderr.write(`[${f.name}] ${line}\n`);
    log(`start (load ${loadAverage()}, ${cpus().length} cpus)`);
    try {
      rows.push(...(await f.run({ quick, scratch, log })));
    } catch (err) {
      failures.push({ figure: f.name, error: err instanceof Error ? err.message : String(err) });
      log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return { rows, failures, loadStart, loadEnd: loadAverage() };
}

/** The body of a figure module run as a script. */
export async function runAlone(figure: Figure): Promise<void> {
  const r = await runFigures([figure], process.argv.includes('--quick'));
  console.log(formatSummary(r.rows, r.failures, r.loadStart, r.loadEnd));
  console.log(formatDetails(r.rows));
  if (r.failures.length) process.exitCode = 1;
}
