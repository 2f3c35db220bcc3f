// The bench summary: one row per figure (ours, the baseline measured in the
// same run, their ratio, the aim and whether it is met), printed as a table
// that fits one screen and written as JSON for later quoting.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** What a figure aims for: a bound on the ratio ours / baseline, or on our own figure. */
export interface Aim {
  of: 'ratio' | 'ours';
  op: '>=' | '<=';
  value: number;
}

export interface Row {
  /** Short figure text, e.g. 'GET one object, JSON, 50 conns'. */
  figure: string;
  /** Unit of ours and baseline: '/s', 'ms' or 'MB'. */
  unit: string;
  ours: number;
  baseline: number;
  /** What the baseline is, in a few words. */
  baselineIs: string;
  aim: Aim;
  /** 1-minute load average when the figure was taken. */
  load: string;
  /** Anything else worth keeping (the spread, the sub-figures). */
  detail?: string;
}

/** A figure that could not be measured, with why. */
export interface Failure {
  figure: string;
  error: string;
}

export const ratioOf = (r: Row): number => r.ours / r.baseline;

export function met(r: Row): boolean {
  const v = r.aim.of === 'ratio' ? ratioOf(r) : r.ours;
  return r.aim.op === '>=' ? v >= r.aim.value : v <= r.aim.value;
}

export function formatValue(n: number, unit: string): string {
  if (!Number.isFinite(n)) return String(n);
  if (unit === '/s') return n >= 10_000 ? `${(n / 1000).toFixed(1)}k/s` : `${n.toFixed(0)}/s`;
  const digits = n >= 100 ? 0 : n >= 10 ? 1 : 2;
  return `${n.toFixed(digits)} ${unit}`;
}

export function formatAim(a: Aim, unit: string): string {
  const op = a.op === '>=' ? '≥' : '≤';
  return a.of === 'ratio' ? `ratio ${op} ${a.value}` : `${op} ${formatValue(a.value, unit)}`;
}

function table(header: string[], body: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)];
}

/** The summary table, with the load average at start and end; failures listed below it. */
export function formatSummary(rows: Row[], failures: Failure[], loadStart: string, loadEnd: string): string {
  const body = rows.map((r) => [r.figure, formatValue(r.ours, r.unit), formatValue(r.baseline, r.unit), ratioOf(r).toFixed(2), formatAim(r.aim, r.unit), met(r) ? 'met' : 'not met', r.load]);
  const out = [`load average at start: ${loadStart}`, ...table(['figure', 'ours', 'baseline', 'ratio', 'aim', '', 'load'], body)];
  for (const f of failures) out.push(`FAILED ${f.figure}: ${f.error}`);
  out.push(`load average at end: ${loadEnd}`);
  return out.join('\n');
}

/** Each row's details (what the baseline is, spreads), for below the table. */
export function formatDetails(rows: Row[]): string {
  return rows.map((r) => `${r.figure}: baseline ${r.baselineIs}${r.detail ? `; ${r.detail}` : ''}`).join('\n');
}

export interface SummaryFile {
  date: string;
  node: string;
  cpus: number;
  quick: boolean;
  /** The checkout given with --before, when there was one. */
  before?: string;
  loadStart: string;
  loadEnd: string;
  rows: (Row & { ratio: number; met: boolean })[];
  failures: Failure[];
}

export function writeSummary(file: string, s: Omit<SummaryFile, 'rows'> & { rows: Row[] }): void {
  const full: SummaryFile = { ...s, rows: s.rows.map((r) => ({ ...r, ratio: ratioOf(r), met: met(r) })) };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(full, null, 2) + '\n');
}
