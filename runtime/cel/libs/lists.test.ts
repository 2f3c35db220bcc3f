// Table tests of the lists library and the sets extension.
import { describe, it, expect } from 'vitest';
import { run } from '../testing/run.ts';

describe('lists library', () => {
  it.each<[string, unknown]>([
    ['[1, 2, 3].isSorted()', true],
    ['[3, 1].isSorted()', false],
    ["['a', 'b', 'b'].isSorted()", true],
    ['[].isSorted()', true],
    ['[1, 2, 3].sum()', 6],
    ['[1.5, 2.0].sum()', 3.5],
    ['[].sum()', 0],
    ["[duration('1s'), duration('2s')].sum() == duration('3s')", true],
    ['[3, 1, 2].min()', 1],
    ['[3, 1, 2].max()', 3],
    ["['b', 'a'].min()", 'a'],
    ['[1, 2, 2, 3].indexOf(2)', 1],
    ['[1, 2, 2, 3].lastIndexOf(2)', 2],
    ['[1, 2].indexOf(9)', -1],
    ['[1, 2].lastIndexOf(9)', -1],
    ["[quantity('1'), quantity('1000m')].lastIndexOf(quantity('1'))", 1],
    ['sets.contains([1, 2, 3], [3, 1])', true],
    ['sets.equivalent([1, 2], [2, 1, 1])', true],
    ['sets.intersects([1], [2])', false],
  ])('%s', (expr, want) => {
    expect(run(expr)).toEqual(want);
  });

  it.each([
    ['[].min()', 'min called on empty list'],
    ['[].max()', 'max called on empty list'],
  ])('%s fails', (expr, msg) => {
    expect(() => run(expr)).toThrow(msg);
  });
});
