import { describe, expect, it } from 'vitest';
import { WrittenValues } from './written-values.ts';

describe('WrittenValues', () => {
  it.each([
    ['the same key and revision', 'k', 5, '{"a":1}'],
    ['another revision of the key', 'k', 6, undefined],
    ['another key at the revision', 'j', 5, undefined],
  ])('%s', (_n, key, rev, want) => {
    const w = new WrittenValues();
    w.remember('k', 5, '{"a":1}');
    expect(w.lookup(key, rev)).toBe(want);
  });

  it('forgets the oldest beyond its bound', () => {
    const w = new WrittenValues(2);
    w.remember('a', 1, 'A');
    w.remember('b', 2, 'B');
    w.remember('c', 3, 'C');
    expect([w.lookup('a', 1), w.lookup('b', 2), w.lookup('c', 3)]).toEqual([undefined, 'B', 'C']);
  });
});
