// Warning header formatting and limits, table-driven (cases after
// upstream's filters/warning_test.go).
import { describe, expect, it } from 'vitest';
import { encodeWords, formatWarning, toWire, warningHeaderValues } from './warnings.ts';

/** Reads back a header value written by toWire (what a client that decodes UTF-8 sees). */
const fromWire = (value: string): string => Buffer.from(value, 'latin1').toString('utf8');

describe('formatWarning (NewWarningHeader)', () => {
  it.each([
    ['simple', 'mytext', '299 - "mytext"'],
    ['quotes escaped', 'unknown field "a"', '299 - "unknown field \\"a\\""'],
    ['backslash escaped', 'a\\b', '299 - "a\\\\b"'],
    ['non-ASCII as is', 'ñ 中 😀', '299 - "ñ 中 😀"'],
    ['newline refused', 'my\ntext', undefined],
    ['C1 control refused', 'a\u0085', undefined],
    ['lone surrogate refused', 'a\udc00', undefined],
  ])('%s', (_n, text, want) => {
    expect(formatWarning(text)).toBe(want);
  });
});

describe('warningHeaderValues', () => {
  it.each([
    ['none', [], []],
    ['empty text skipped', [''], []],
    ['deduplicated in order', ['b', 'a', 'b'], ['299 - "b"', '299 - "a"']],
    ['invalid dropped, others kept', ['x\ny', 'ok'], ['299 - "ok"']],
  ])('%s', (_n, texts, want) => {
    expect(warningHeaderValues(texts)).toEqual(want);
  });

  it('truncates like upstream once the total is exceeded (limits 25/5)', () => {
    const limits = { total: 25, item: 5 };
    const first = ['aaaaaaaaaa', 'aaaaaaaaaa', 'bb', 'ccc', 'Iñtërnâtiô'];
    expect(warningHeaderValues(first, limits).map(fromWire)).toEqual(['299 - "aaaaaaaaaa"', '299 - "bb"', '299 - "ccc"', '299 - "Iñtërnâtiô"']);
    const all = [...first, 'e', 'ffffffffff', 'ffffffffff', 'gggggggggg', 'h'];
    expect(warningHeaderValues(all, limits).map(fromWire)).toEqual(['299 - "aaaaa"', '299 - "bb"', '299 - "ccc"', '299 - "Iñtër"', '299 - "e"', '299 - "fffff"', '299 - "ggggg"']);
  });

  it('keeps the default total within 4096 runes for a very long text', () => {
    const [v] = warningHeaderValues([`unknown field "${'x'.repeat(100_000)}"`]);
    expect(v.length).toBeLessThan(300);
  });

  it('puts UTF-8 bytes on the wire as latin1 characters, valid for Node headers', () => {
    const [v] = warningHeaderValues(['unknown field "中"']);
    expect(v).toMatch(/^[\t\x20-\x7e\x80-\xff]*$/);
    expect(fromWire(v)).toBe('299 - "unknown field \\"中\\""');
    expect(toWire('plain')).toBe('plain');
    expect(() => new Headers({ Warning: v })).not.toThrow();
  });

  it('in ASCII form carries non-ASCII text as RFC 2047 encoded-words of whole characters', () => {
    const text = `unknown field "${'中'.repeat(30)}😀"`;
    const [v] = warningHeaderValues([text, 'plain'], undefined, { ascii: true });
    expect(v).toMatch(/^299 - "(=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=( |"$))+/);
    const words = v.slice('299 - "'.length, -1).split(' ');
    for (const w of words) expect(w.length).toBeLessThanOrEqual(75);
    const decoded = words.map((w) => Buffer.from(w.slice('=?UTF-8?B?'.length, -2), 'base64').toString('utf8')).join('');
    expect(decoded).toBe(text);
    expect(warningHeaderValues(['plain'], undefined, { ascii: true })).toEqual(['299 - "plain"']);
    expect(encodeWords('')).toBe('');
  });
});
