// SortedKeys against a plain sorted-array model, with random inserts and removals.
import { describe, expect, it } from 'vitest';
import { SortedKeys } from './sorted-keys.ts';

describe('SortedKeys', () => {
  it('ranges by prefix in order', () => {
    const s = new SortedKeys();
    for (const k of ['/a/2', '/b/1', '/a/1', '/a/10', '/ab/1']) s.insert(k);
    expect(s.range('/a/')).toEqual(['/a/1', '/a/10', '/a/2']);
    expect(s.range('/')).toEqual(['/a/1', '/a/10', '/a/2', '/ab/1', '/b/1']);
    s.remove('/a/10');
    s.insert('/a/0');
    expect(s.range('/a/')).toEqual(['/a/0', '/a/1', '/a/2']);
    expect(s.size).toBe(5);
  });
  it.each([
    ['/a/', undefined, ['/a/1', '/a/10', '/a/2']],
    ['/a/', '/a/10', ['/a/10', '/a/2']],
    ['/a/', '/a/10\x00', ['/a/2']],
    ['/a/', '/a/3', []],
    ['/a/', '/', ['/a/1', '/a/10', '/a/2']],
    ['/ab/', '/ab/1\x00', []],
    ['/c/', undefined, []],
    ['/', '/a/2\x00', ['/ab/1', '/b/1']],
  ] as const)('spans %s from %s without copying', (prefix, from, want) => {
    const s = new SortedKeys();
    for (const k of ['/a/2', '/b/1', '/a/1', '/a/10', '/ab/1']) s.insert(k);
    const { keys, start, end } = s.span(prefix, from);
    expect(keys.slice(start, end)).toEqual(want);
  });
  it('matches a model under random churn', () => {
    const s = new SortedKeys();
    const model = new Set<string>();
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let step = 0; step < 5000; step++) {
      const k = `/k/${rnd() % 300}`;
      if (model.has(k)) {
        model.delete(k);
        s.remove(k);
      } else {
        model.add(k);
        s.insert(k);
      }
      if (step % 97 === 0) {
        const sorted = [...model].sort();
        expect(s.range('/k/')).toEqual(sorted);
        const from = `/k/${rnd() % 300}`;
        const { keys, start, end } = s.span('/k/', from);
        expect(keys.slice(start, end)).toEqual(sorted.filter((k) => k >= from));
      }
    }
    expect(s.range('/k/')).toEqual([...model].sort());
  });
});
