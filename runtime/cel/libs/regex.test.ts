// Table tests of the regex library (find, findAll) with RE2 pattern rules.
import { describe, it, expect } from 'vitest';
import { run } from '../testing/run.ts';

describe('regex library (RE2)', () => {
  it.each<[string, unknown]>([
    ["'abc 123'.find('[0-9]+')", '123'],
    ["'abc'.find('[0-9]+')", ''],
    ["'123 abc 456'.findAll('[0-9]+')", ['123', '456']],
    ["'123 abc 456'.findAll('[0-9]+', 1)", ['123']],
    ["'123 abc 456'.findAll('[0-9]+', 0)", []],
    ["'abc'.findAll('x*')", ['', '', '', '']],
    ["'aaa'.findAll('a*?')", ['', '', '', '']],
    ["'abc'.findAll('b*')", ['', 'b', '']],
    ["'a.b'.find('\\\\Q.\\\\E')", '.'],
    ["'ab1'.find('[[:digit:]]')", '1'],
    ["'key=v'.find('(?P<k>\\\\w+)=')", 'key='],
    ["'héllo wörld'.findAll('\\\\pL+')", ['héllo', 'wörld']],
    ["'ABC'.find('(?i)b')", 'B'],
    ["'foo.bar'.matches('^[a-z]+\\\\.[a-z]+$')", true],
  ])('%s', (expr, want) => {
    expect(run(expr)).toEqual(want);
  });

  it.each(["'a'.find('(a')", "'a'.find('(?=a)')", "'aa'.find('(a)\\\\1')"])('%s is not RE2 and fails', (expr) => {
    expect(() => run(expr)).toThrow('invalid regular expression');
  });
});
