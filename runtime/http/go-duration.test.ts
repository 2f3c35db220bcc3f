// Go's time.ParseDuration: accepted forms and the error texts (table after
// Go's time package tests).
import { describe, expect, it } from 'vitest';
import { DurationError, parseGoDuration } from './go-duration.ts';

const S = 1_000_000_000n;

describe('parseGoDuration', () => {
  it.each([
    ['0', 0n],
    ['+0', 0n],
    ['-0', 0n],
    ['5s', 5n * S],
    ['30s', 30n * S],
    ['1478s', 1478n * S],
    ['-5s', -5n * S],
    ['+5s', 5n * S],
    ['5.0s', 5n * S],
    ['5.6s', 5n * S + 600_000_000n],
    ['5.s', 5n * S],
    ['.5s', 500_000_000n],
    ['1.004s', 1n * S + 4_000_000n],
    ['10ns', 10n],
    ['11us', 11_000n],
    ['12µs', 12_000n],
    ['12μs', 12_000n],
    ['13ms', 13_000_000n],
    ['14s', 14n * S],
    ['15m', 900n * S],
    ['16h', 57_600n * S],
    ['3h30m', 12_600n * S],
    ['10.5s4m', 4n * 60n * S + 10n * S + 500_000_000n],
    ['-2m3.4s', -(123n * S + 400_000_000n)],
    ['1h2m3s4ms5us6ns', 3_723_004_005_006n],
    ['9223372036854775807ns', 9223372036854775807n],
    ['-9223372036854775808ns', -9223372036854775808n],
    ['0.3333333333333333333h', 1_200_000_000_000n],
  ])('%s', (text, ns) => {
    expect(parseGoDuration(text)).toBe(ns);
  });

  it.each([
    ['', 'time: invalid duration ""'],
    ['3', 'time: missing unit in duration "3"'],
    ['-', 'time: invalid duration "-"'],
    ['s', 'time: invalid duration "s"'],
    ['.', 'time: invalid duration "."'],
    ['-.', 'time: invalid duration "-."'],
    ['.s', 'time: invalid duration ".s"'],
    ['+.s', 'time: invalid duration "+.s"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['1e3s', 'time: unknown unit "e" in duration "1e3s"'],
    ['0x10s', 'time: unknown unit "x" in duration "0x10s"'],
    ['foo', 'time: invalid duration "foo"'],
    ['1s ', 'time: unknown unit "s " in duration "1s "'],
    ['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
    ['9223372036854775807s', 'time: invalid duration "9223372036854775807s"'],
    ['99999999999999999999s', 'time: invalid duration "99999999999999999999s"'],
    ['3000000h', 'time: invalid duration "3000000h"'],
    ['1ñ', 'time: unknown unit "\\xc3\\xb1" in duration "1\\xc3\\xb1"'],
    ['"1s', 'time: invalid duration "\\"1s"'],
  ])('%j is refused', (text, message) => {
    expect(() => parseGoDuration(text)).toThrow(DurationError);
    expect(() => parseGoDuration(text)).toThrow(message);
  });
});
