// Small statistics for the benches: median, percentiles, the load average as
// printed, and interleaved repetitions of a figure and its baseline.

import { loadavg } from 'node:os';

export function median(xs: number[]): number {
  if (xs.length === 0) throw new Error('median of nothing');
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The p-th percentile (nearest rank) of xs. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) throw new Error('percentile of nothing');
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/** The 1, 5 and 15 minute load averages, as `uptime` prints them. */
export function loadAverage(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}

export interface Paired {
  ours: number[];
  baseline: number[];
  /** The figures of each of `others`, in order. */
  others: number[][];
}

/**
 * Runs ours, baseline, ours, baseline, ... `pairs` times (A B A B), and
 * returns each side's figures in order. `others` (e.g. another checkout's
 * server given with --before) run in every round too, between ours and the
 * baseline (A C B A C B).
 */
export async function interleave(pairs: number, ours: () => Promise<number>, baseline: () => Promise<number>, others: (() => Promise<number>)[] = []): Promise<Paired> {
  const out: Paired = { ours: [], baseline: [], others: others.map(() => []) };
  for (let i = 0; i < pairs; i++) {
    out.ours.push(await ours());
    for (const [j, other] of others.entries()) out.others[j].push(await other());
    out.baseline.push(await baseline());
  }
  return out;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The 1-minute load average, for a row. */
export const load1 = (): string => loadavg()[0].toFixed(2);
