// Tests of the AuthRequest built from raw header pairs.

import { describe, expect, it } from 'vitest';
import { authRequestFromPairs } from './header-list.ts';

describe('authRequestFromPairs', () => {
  const cert = { raw: Uint8Array.of(1), intermediates: [] };
  const req = authRequestFromPairs(
    [
      ['X-A', '1'],
      ['x-a', '2,3'],
      ['B', ''],
    ],
    '/p',
    cert,
  );
  it.each([
    ['first value, any case', () => req.header('X-a'), '1'],
    ['all values, not split', () => req.headerValues('X-A'), ['1', '2,3']],
    ['an absent header', () => req.header('c'), undefined],
    ['no values of an absent header', () => req.headerValues('c'), []],
    ['an empty value is present', () => req.header('b'), ''],
    ['names in lower case, in order', () => req.headerNames(), ['x-a', 'b']],
    ['path', () => req.path, '/p'],
    ['certificate', () => req.certificate, cert],
  ])('%s', (_name, get, want) => {
    expect(get()).toEqual(want);
  });
  it('returns copies of the value lists', () => {
    req.headerValues('x-a').push('4');
    expect(req.headerValues('x-a')).toEqual(['1', '2,3']);
  });
});
