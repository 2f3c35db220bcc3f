// Table tests of the optional-syntax source rewriting (strings and comments untouched).
import { describe, it, expect } from 'vitest';
import { rewriteOptionalSyntax } from './optional-syntax.ts';

describe('optional syntax rewriting', () => {
  it.each([
    ['a.?b', 'a.__celoptsel__b'],
    ['a.?b.?c', 'a.__celoptsel__b.__celoptsel__c'],
    ['a[?1]', 'a[__celoptidx__(1)]'],
    ['m[?"k"].orValue(1)', 'm[__celoptidx__("k")].orValue(1)'],
    ['[1, ?x, ?y.z]', '[1, __celoptelem__(x), __celoptelem__(y.z)]'],
    ['[?f(a, b)]', '[__celoptelem__(f(a, b))]'],
    ["{?'k': v, 'j': w}", "{__celoptelem__('k'): v, 'j': w}"],
    ['x ? 1 : 2', 'x ? 1 : 2'],
    ['\'a.?b\' + "[?x]"', '\'a.?b\' + "[?x]"'],
    ["r'?' + '''[?'''", "r'?' + '''[?'''"],
    ['a // [?x]\n.b', 'a // [?x]\n.b'],
    ['[x ? 1 : 2]', '[x ? 1 : 2]'],
  ])('%s', (src, want) => {
    expect(rewriteOptionalSyntax(src)).toBe(want);
  });
});
