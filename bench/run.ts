// The bench suite: runs every figure of bench/http/, bench/crd/, bench/admission/ and bench/storage/backends.ts (or those named with
// --only a,b), each against its baseline in the same run, prints a summary
// table (ours, baseline, ratio, aim, met or not, the load average) and the
// details below it, and writes the summary as JSON to .cache/bench/last.json.
// Usage: npm run bench -- [--quick] [--only get,list,...] [--before DIR]

import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseCommon, runFigures, runsAlone, type CommonArgs, type Figure } from './support/figure.ts';
import { root } from './support/servers.ts';
import { formatDetails, formatSummary, writeSummary } from './support/summary.ts';
import { figure as get } from './http/get.ts';
import { figure as getAudit } from './http/get-audit.ts';
import { figure as getObserved } from './http/get-observed.ts';
import { figure as create } from './http/create.ts';
import { figure as createWebhook } from './http/create-webhook.ts';
import { figure as list } from './http/list.ts';
import { figure as watchCreates } from './http/watch/creates.ts';
import { figure as fanout } from './http/watch/fanout.ts';
import { figure as start } from './http/start.ts';
import { figure as importFigure } from './http/import.ts';
import { figure as rss } from './http/rss.ts';
import { figure as crdServe } from './crd/serve.ts';
import { figure as crdRules } from './crd/rules.ts';
import { figure as crdMemory } from './crd/memory.ts';
import { figure as crdReads } from './crd/reads.ts';
import { figure as crdWide } from './crd/wide.ts';
import { figure as vap } from './admission/policies.ts';
import { figure as etcd } from './storage/backends.ts';

/** Every figure, in the order of the summary table. */
export const FIGURES: Figure[] = [get, getAudit, getObserved, create, createWebhook, list, watchCreates, fanout, start, importFigure, rss, crdServe, crdRules, crdMemory, crdReads, crdWide, vap, etcd];

export const SUMMARY_FILE = join(root, '.cache', 'bench', 'last.json');

export interface Args extends CommonArgs {
  figures: Figure[];
}

/** The command line: --quick, --before DIR, --only name,name (names of FIGURES; an unknown one is an error). */
export function parseArgs(argv: string[], figures: Figure[] = FIGURES): Args {
  const rest: string[] = [];
  const common = parseCommon(argv, rest);
  let selected = figures;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    let only: string | undefined;
    if (a === '--only') only = rest[++i] ?? '';
    else if (a.startsWith('--only=')) only = a.slice('--only='.length);
    else throw new Error(`unknown argument ${a} (use --quick, --before DIR, --only ${figures.map((f) => f.name).join(',')})`);
    if (only === undefined) continue;
    const names = only.split(',').filter(Boolean);
    const unknown = names.filter((n) => !figures.some((f) => f.name === n));
    if (unknown.length || names.length === 0) throw new Error(`--only: unknown figure ${unknown.join(', ') || '(none given)'}; the figures are ${figures.map((f) => f.name).join(', ')}`);
    selected = figures.filter((f) => names.includes(f.name));
  }
  return { ...common, figures: selected };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const r = await runFigures(args.figures, args);
  console.log(formatSummary(r.rows, r.failures, r.loadStart, r.loadEnd));
  console.log('');
  console.log(formatDetails(r.rows));
  writeSummary(SUMMARY_FILE, {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    quick: args.quick,
    ...(args.before ? { before: args.before } : {}),
    loadStart: r.loadStart,
    loadEnd: r.loadEnd,
    rows: r.rows,
    failures: r.failures,
  });
  console.log(`\nwritten to ${SUMMARY_FILE}`);
  if (r.failures.length) process.exitCode = 1;
}

if (runsAlone(import.meta.url)) await main();
