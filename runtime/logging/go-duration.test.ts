// Tests of Go's duration text.
import { describe, expect, it } from 'vitest';
import { goDuration } from './go-duration.ts';

describe('goDuration', () => {
  it.each([
    [0, '0s'],
    [999, '999ns'],
    [1_000, '1µs'],
    [1_500, '1.5µs'],
    [1_234_567, '1.234567ms'],
    [20_000_000, '20ms'],
    [1_500_000_000, '1.5s'],
    [61_000_000_000, '1m1s'],
    [3_723_500_000_000, '1h2m3.5s'],
    [-2_000, '-2µs'],
  ])('%d ns is %s', (ns, want) => {
    expect(goDuration(ns)).toBe(want);
  });
});
