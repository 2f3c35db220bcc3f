import { describe, expect, it } from 'vitest';
import { cronScheduleError, knownTimeZone, parseGoDuration } from './cron.ts';

describe('cronScheduleError', () => {
  it.each([
    ['* * * * *'],
    ['0 0 * * 0'],
    ['*/5 1-3,7 1 JAN-mar sun'],
    ['0 12 ? * MON'],
    ['5/10 * * * *'],
    ['@yearly'],
    ['@annually'],
    ['@monthly'],
    ['@weekly'],
    ['@daily'],
    ['@midnight'],
    ['@hourly'],
    ['@every 90s'],
    ['@every 1h2m3.5s'],
    ['CRON_TZ=Europe/Paris 0 9 * * *'],
    ['TZ=UTC @daily'],
    ['  0  0  *  *  *  '],
  ])('accepts %j', (spec) => {
    expect(cronScheduleError(spec)).toBeUndefined();
  });

  it.each([
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['* 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['* * * 13 *', 'end of range (13) above maximum (12): 13'],
    ['* * * * 7', 'end of range (7) above maximum (6): 7'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['-1 * * * *', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'],
    ['* * * foo *', 'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax'],
    ['*/x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['10-5 * * * *', 'beginning of range (10) beyond end of range (5): 10-5'],
    ['@often', 'unrecognized descriptor: @often'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
    ['@every 5y', 'failed to parse duration @every 5y: time: unknown unit "y" in duration "5y"'],
    ['TZ=Nowhere/Land * * * * *', 'provided bad location Nowhere/Land: unknown time zone Nowhere/Land'],
  ])('rejects %j', (spec, msg) => {
    expect(cronScheduleError(spec)).toBe(msg);
  });
});

describe('parseGoDuration and time zones', () => {
  it.each([
    ['1h', 3.6e12],
    ['1.5s', 1.5e9],
    ['-2m', -1.2e11],
    ['0', 0],
    ['300ms', 3e8],
  ])('%s', (d, ns) => {
    expect(parseGoDuration(d)).toBe(ns);
  });
  it('rejects garbage', () => {
    expect(() => parseGoDuration('')).toThrow('time: invalid duration ""');
    expect(() => parseGoDuration('h')).toThrow('time: invalid duration "h"');
  });
  it.each([
    ['Europe/Paris', true],
    ['America/New_York', true],
    ['UTC', true],
    ['europe/paris', false],
    ['Mars/Base', false],
  ])('%s', (tz, ok) => {
    expect(knownTimeZone(tz)).toBe(ok);
  });
});
