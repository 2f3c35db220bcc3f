// What every bench figure module exports, and how one runs on its own
// (`npx tsx bench/http/get.ts [--quick] [--before DIR]`): the same table the
// whole suite prints.

import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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
  /**
   * Another checkout (--before DIR, e.g. a worktree of main) whose server the
   * figures that start ours also start and measure in the same rounds, for
   * before/after figures from one run (in the rows' details).
   */
  before?: string;
}

export interface CommonArgs {
  quick: boolean;
  before?: string;
}

/**
 * The arguments every figure takes (--quick, --before DIR or --before=DIR);
 * `rest` gets the others, in order, for the caller to parse.
 */
export function parseCommon(argv: string[], rest: string[] = []): CommonArgs {
  const out: CommonArgs = { quick: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--quick') out.quick = true;
    else if (a === '--before' || a.startsWith('--before=')) {
      const dir = a === '--before' ? argv[++i] : a.slice('--before='.length);
      if (!dir || dir.startsWith('--')) throw new Error('--before: give the directory of another checkout');
      out.before = resolve(dir);
    } else rest.push(a);
  }
  return out;
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

/** Runs figures one after the other, each with a scratch directory of its own. */
export async function runFigures(figures: Figure[], { quick, before }: CommonArgs): Promise<{ rows: Row[]; failures: { figure: string; error: string }[]; loadStart: string; loadEnd: string }> {
  const loadStart = loadAverage();
  const rows: Row[] = [];
  const failures: { figure: string; error: string }[] = [];
  for (const f of figures) {
    const scratch = mkdtempSync(join(tmpdir(), `bench-${f.name}-`));
    const log = (line: string) => process.stderr.write(`[${f.name}] ${line}\n`);
    log(`start (load ${loadAverage()}, ${cpus().length} cpus)`);
    try {
      rows.push(...(await f.run({ quick, scratch, log, before })));
    } catch (err) {
      failures.push({ figure: f.name, error: err instanceof Error ? err.message : String(err) });
      log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  return { rows, failures, loadStart, loadEnd: loadAverage() };
}

/** The body of a figure module run as a script (--quick, --before DIR; nothing else). */
export async function runAlone(figure: Figure): Promise<void> {
  const rest: string[] = [];
  const args = parseCommon(process.argv.slice(2), rest);
  if (rest.length) throw new Error(`unknown argument ${rest[0]} (use --quick, --before DIR)`);
  const r = await runFigures([figure], args);
  console.log(formatSummary(r.rows, r.failures, r.loadStart, r.loadEnd));
  console.log(formatDetails(r.rows));
  if (r.failures.length) process.exitCode = 1;
}
