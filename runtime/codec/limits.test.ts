// tooDeep: the iterative nesting check used on values built after decoding.
import { describe, expect, it } from 'vitest';
import { tooDeep } from './limits.ts';

function nest(depth: number, kind: 'arr' | 'obj'): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = kind === 'arr' ? [v] : { a: v };
  return v;
}

describe('tooDeep', () => {
  it.each([
    ['a scalar', 1, 0, false],
    ['null', null, 0, false],
    ['an empty object at the limit', {}, 1, false],
    ['an empty list past the limit', [], 0, true],
    ['3 nested lists, limit 3', nest(3, 'arr'), 3, false],
    ['3 nested lists, limit 2', nest(3, 'arr'), 2, true],
    ['mixed, the deep branch last', { a: 1, b: [{}], c: { d: { e: [] } } }, 3, true],
    ['mixed, within', { a: 1, b: [{}], c: { d: { e: 'x' } } }, 3, false],
  ])('%s', (_n, value, max, deep) => {
    expect(tooDeep(value, max) !== undefined).toBe(deep);
  });

  it('returns the first container past the limit', () => {
    expect(tooDeep({ a: { b: [7] } }, 2)).toEqual([7]);
  });

  it('takes a million levels without recursion', () => {
    expect(tooDeep(nest(1_000_000, 'obj'), 256)).toBeDefined();
    expect(tooDeep(nest(1_000_000, 'arr'), 2_000_000)).toBeUndefined();
  });
});
