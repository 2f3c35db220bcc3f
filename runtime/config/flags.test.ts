// Tests of the command line: the metrics and logging flags, klog's -v shorthand.
import { describe, expect, it } from 'vitest';
import { FlagError, parseFlags } from './flags.ts';

describe('parseFlags', () => {
  it.each([
    [[], { v: 0, 'logging-format': 'text' }],
    [['-v=3'], { v: 3 }],
    [['-v', '4'], { v: 4 }],
    [['-v5'], { v: 5 }],
    [['--v=2'], { v: 2 }],
    [['--logging-format=json', '--show-hidden-metrics-for-version=1.30'], { 'logging-format': 'json', 'show-hidden-metrics-for-version': '1.30' }],
  ] as [string[], Record<string, unknown>][])('%j', (argv, want) => {
    expect(parseFlags(argv)).toMatchObject(want);
  });

  it.each([
    [['-v=x'], 'invalid argument "x" for "--v" flag: parse error'],
    [['-x'], 'unexpected argument "-x"'],
    [['-verbose'], 'unexpected argument "-verbose"'],
  ])('%j is refused', (argv, message) => {
    expect(() => parseFlags(argv)).toThrow(FlagError);
    expect(() => parseFlags(argv)).toThrow(message);
  });
});
