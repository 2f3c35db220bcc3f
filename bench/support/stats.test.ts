// The benches' statistics: median, nearest-rank percentiles, and the order
// in which interleave runs the two sides.

import { describe, expect, it } from 'vitest';
import { interleave, median, percentile } from './stats.ts';

describe('median and percentile', () => {
  const medians: [number[], number][] = [
    [[3], 3],
    [[3, 1, 2], 2],
    [[4, 1, 3, 2], 2.5],
  ];
  it.each(medians)('median %j', (xs, want) => {
    expect(median(xs)).toBe(want);
  });
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
  const percentiles: [number[], number, number][] = [
    [hundred, 50, 50],
    [hundred, 99, 99],
    [hundred, 100, 100],
    [hundred, 0, 1],
    [[5], 99, 5],
  ];
  it.each(percentiles)('percentile of %#', (xs, p, want) => {
    expect(percentile(xs, p)).toBe(want);
  });
  it('refuses an empty set', () => {
    expect(() => median([])).toThrow();
    expect(() => percentile([], 50)).toThrow();
  });
});

describe('interleave', () => {
  it('runs ours, baseline, ours, baseline, ... and keeps each side in order', async () => {
    const order: string[] = [];
    let n = 0;
    const side = (name: string) => async () => {
      order.push(name);
      return n++;
    };
    const p = await interleave(3, side('A'), side('B'));
    expect(order).toEqual(['A', 'B', 'A', 'B', 'A', 'B']);
    expect(p).toEqual({ ours: [0, 2, 4], baseline: [1, 3, 5], others: [] });
  });

  it('runs the others in every round, between ours and the baseline', async () => {
    const order: string[] = [];
    let n = 0;
    const side = (name: string) => async () => {
      order.push(name);
      return n++;
    };
    const p = await interleave(2, side('A'), side('B'), [side('C'), side('D')]);
    expect(order).toEqual(['A', 'C', 'D', 'B', 'A', 'C', 'D', 'B']);
    expect(p).toEqual({
      ours: [0, 4],
      baseline: [3, 7],
      others: [
        [1, 5],
        [2, 6],
      ],
    });
  });
});
