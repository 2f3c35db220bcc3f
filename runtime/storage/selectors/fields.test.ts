// Table-driven tests of the field selector parser: matching, escapes, and the
// upstream error texts.
import { describe, expect, it } from 'vitest';
import { parseFieldSelector, SelectorError } from './fields.ts';

const F = { 'metadata.name': 'a,b', 'metadata.namespace': 'ns1', type: 'kubernetes.io/tls', empty: '' };

describe('parseFieldSelector matching', () => {
  const cases: [string, boolean][] = [
    ['', true],
    ['metadata.namespace=ns1', true],
    ['metadata.namespace==ns1', true],
    ['metadata.namespace!=ns1', false],
    ['metadata.name=a\\,b', true],
    ['type=kubernetes.io/tls,metadata.namespace=ns1', true],
    ['type=kubernetes.io/tls,metadata.namespace=ns2', false],
    ['missing=', true],
    ['missing!=x', true],
    ['empty=', true],
  ];
  for (const [sel, want] of cases) {
    it(`${JSON.stringify(sel)} -> ${want}`, () => {
      expect(parseFieldSelector(sel).matches(F)).toBe(want);
    });
  }
  it('reports exact matches and prints canonically', () => {
    const s = parseFieldSelector('metadata.name=x\\=y,metadata.namespace!=z');
    expect(s.requiresExactMatch('metadata.name')).toBe('x=y');
    expect(s.requiresExactMatch('metadata.namespace')).toBeUndefined();
    expect(s.toString()).toBe('metadata.name=x\\=y,metadata.namespace!=z');
  });
});

describe('parseFieldSelector errors', () => {
  const cases: [string, string, string[]?][] = [
    ['metadata.name', "invalid selector: 'metadata.name'; can't understand 'metadata.name'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['a=b\\x', 'invalid field selector: invalid escape sequence: \\x'],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a==b=c', 'invalid field selector: unescaped character in value: 61'],
    ['spec.foo=x', 'field label not supported: spec.foo', ['metadata.name', 'metadata.namespace']],
  ];
  for (const [sel, msg, fields] of cases) {
    it(JSON.stringify(sel), () => {
      expect(() => parseFieldSelector(sel, fields)).toThrow(new SelectorError(msg));
    });
  }
});
