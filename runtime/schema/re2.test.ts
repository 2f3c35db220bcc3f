import { describe, expect, it } from 'vitest';
import { compilePattern, patternCost } from './re2.ts';

describe('patternCost', () => {
  it.each<[string, number]>([
    ['', 0],
    ['abc', 3],
    ['^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', 31],
    ['a{3}', 4 + 3],
    ['a{2,}', 5 + 3],
    ['a{1,1000}', 9 + 1000],
    ['(abc){10}', 9 + 30],
    ['[a-z]{5}', 8 + 5],
    ['\\d{4}-\\d{2}', 11 + 4 + 2],
    ['a\\{5}', 5],
    ['[{]5}', 5],
    ['{3}', 3],
    ['a{1,1000}'.repeat(56), 504 + 56_000],
  ])('%s costs %i', (pattern, cost) => {
    expect(patternCost(pattern)).toBe(cost);
  });

  it('is never below the size a counted repetition expands to', () => {
    for (const [atom, len] of [
      ['x', 1],
      ['(xy)', 2],
      ['(x(yz))', 5],
    ] as const)
      expect(patternCost(`${atom}{100}`)).toBeGreaterThanOrEqual(100 * len);
  });
});

describe('compilePattern', () => {
  it('compiles as RE2 and hands out the cached object for the same string', () => {
    const a = compilePattern('^a+$');
    expect(a.test('aaa')).toBe(true);
    expect(a.test('ab')).toBe(false);
    expect(compilePattern('^a+$')).toBe(a);
  });

  it('throws RE2 syntax errors, each time', () => {
    expect(() => compilePattern('a{1000}{1000}')).toThrow(/invalid nested repetition operator/);
    expect(() => compilePattern('a{1000}{1000}')).toThrow(/invalid nested repetition operator/);
  });

  it('keeps the 512 most recently used patterns', () => {
    const first = compilePattern('^first$');
    const kept = compilePattern('^kept$');
    for (let i = 0; i < 511; i++) {
      compilePattern(`p${i}`);
      if (i % 100 === 0) compilePattern('^kept$');
    }
    expect(compilePattern('^kept$')).toBe(kept);
    expect(compilePattern('^first$')).not.toBe(first);
  });
});
