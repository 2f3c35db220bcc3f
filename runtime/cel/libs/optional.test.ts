// Table tests of optionals: ?. and [?] chains, optional list / map entries, cel.bind.
import { describe, it, expect } from 'vitest';
import { run } from '../testing/run.ts';

const schema = {
  type: 'object',
  properties: { a: { type: 'object', properties: { b: { type: 'string' } } }, m: { type: 'object', additionalProperties: { type: 'integer' } }, l: { type: 'array', items: { type: 'integer' } } },
};

describe('optionals', () => {
  it.each<[string, Record<string, unknown>, unknown]>([
    ["self.?a.?b.orValue('none')", { a: { b: 'x' } }, 'x'],
    ["self.?a.?b.orValue('none')", { a: {} }, 'none'],
    ["self.?a.?b.orValue('none')", {}, 'none'],
    ['self.a.?b.hasValue()', { a: {} }, false],
    ["self.?a.b.orValue('none')", {}, 'none'],
    ["self.m[?'k'].orValue(0)", { m: { k: 3 } }, 3],
    ["self.m[?'z'].orValue(0)", { m: {} }, 0],
    ['self.l[?5].hasValue()', { l: [1] }, false],
    ['[1, ?self.m[?"k"], ?optional.none()]', { m: { k: 7 } }, [1, 7]],
    ["{'x': 1, ?'y': self.m[?'k']}", { m: {} }, { x: 1 }],
    ['optional.of(1).value()', {}, 1],
    ['optional.none().or(optional.of(2)).value()', {}, 2],
    ['optional.ofNonZeroValue(0).hasValue()', {}, false],
    ["optional.ofNonZeroValue('a').hasValue()", {}, true],
    ["cel.bind(x, self.?a.?b.orValue(''), x + x)", { a: { b: 'ab' } }, 'abab'],
    ["self.?a.?b.orValue('?[')", {}, '?['],
  ])('%s', (expr, self, want) => {
    expect(run(expr, { self: schema }, { self })).toEqual(want);
  });

  it('value() of none fails', () => {
    expect(() => run('optional.none().value()')).toThrow('optional.none() dereference');
  });
  it('unknown field behind ?. is still a compile error', () => {
    expect(() => run('self.?nope.orValue(1)', { self: schema })).toThrow("undefined field 'nope'");
  });
});
