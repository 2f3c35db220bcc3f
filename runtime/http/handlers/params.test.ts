// Integer and boolean query parameters as upstream's query-parameter codec
// converts them (strconv.ParseInt base 10, Convert_Slice_string_To_bool).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { RequestContext } from './context.ts';
import { boolParam, intParam, parseInt64 } from './params.ts';

const rc = (q: string) => ({ query: new URLSearchParams(q) }) as unknown as RequestContext;

describe('parseInt64 (strconv.ParseInt(v, 10, 64))', () => {
  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['+5', 5n],
    ['-5', -5n],
    ['007', 7n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
  ])('%s', (v, want) => {
    expect(parseInt64(v)).toBe(want);
  });

  it.each([
    ['', 'invalid syntax'],
    ['+', 'invalid syntax'],
    ['-', 'invalid syntax'],
    [' 1', 'invalid syntax'],
    ['1 ', 'invalid syntax'],
    ['1e3', 'invalid syntax'],
    ['0x10', 'invalid syntax'],
    ['1_000', 'invalid syntax'],
    ['1.0', 'invalid syntax'],
    ['--1', 'invalid syntax'],
    ['abc', 'invalid syntax'],
    ['١٢', 'invalid syntax'],
    ['9223372036854775808', 'value out of range'],
    ['-9223372036854775809', 'value out of range'],
    ['99999999999999999999', 'value out of range'],
    ['18446744073709551616', 'value out of range'],
    ['99999999999999999999x', 'value out of range'],
  ])('%j is 400 BadRequest', (v, why) => {
    let err: unknown;
    try {
      parseInt64(v);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'BadRequest',
      code: 400,
      message: `strconv.ParseInt: parsing ${JSON.stringify(v)}: ${why}`,
    });
  });

  it('quotes the value as Go does in the message', () => {
    expect(() => parseInt64('a\u0001"')).toThrow('strconv.ParseInt: parsing "a\\x01\\"": invalid syntax');
  });
});

describe('intParam', () => {
  it.each([
    ['', undefined],
    ['limit=5', 5],
    ['limit=%2B5', 5],
    ['limit=-1', -1],
    ['limit=9223372036854775807', Number.MAX_SAFE_INTEGER],
    ['limit=-9223372036854775808', -Number.MAX_SAFE_INTEGER],
  ])('%s', (q, want) => {
    expect(intParam(rc(q), 'limit')).toBe(want);
  });
  it('an empty value is present, and invalid', () => {
    expect(() => intParam(rc('limit='), 'limit')).toThrow('strconv.ParseInt: parsing "": invalid syntax');
  });
});

describe('boolParam (any value but false/0 is true)', () => {
  it.each([
    ['', undefined],
    ['b=true', true],
    ['b=1', true],
    ['b=', true],
    ['b=yes', true],
    ['b=TRUE', true],
    ['b=false', false],
    ['b=FALSE', false],
    ['b=False', false],
    ['b=0', false],
  ])('%s', (q, want) => {
    expect(boolParam(rc(q), 'b')).toBe(want);
  });
});
