// Tests of user-extra header keys: Go's PathUnescape, lower-casing, malformed keys kept as sent.

import { describe, expect, it } from 'vitest';
import { extraKey, pathUnescape } from './extra-key.ts';

describe('pathUnescape', () => {
  it.each([
    ['plain', 'plain'],
    ['a%2Fb', 'a/b'],
    ['a%2fb', 'a/b'],
    ['%E4%B8%AD', '中'],
    ['a+b', 'a+b'],
    ['%', undefined],
    ['%2', undefined],
    ['%zz', undefined],
    ['%FF', undefined],
  ])('%s', (input, want) => {
    expect(pathUnescape(input)).toBe(want);
  });
});

describe('extraKey', () => {
  it.each([
    ['Scopes', 'scopes'],
    ['Example.COM%2FScope', 'example.com/scope'],
    ['Bad%ZZ', 'bad%zz'],
  ])('%s', (input, want) => {
    expect(extraKey(input)).toBe(want);
  });
});
