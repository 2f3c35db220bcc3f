import { describe, it, expect } from 'vitest';
import { base64ToBytes, bytesToBase64, formatDuration, formatTime, parseDuration, parseTime } from './special-values.ts';
import { ProtobufError } from './errors.ts';

describe('times', () => {
  it.each([
    ['2008-01-01T01:01:01Z', 1199149261, 0],
    ['1970-01-01T00:00:00Z', 0, 0],
    ['1969-12-31T23:59:59Z', -1, 0],
    ['2024-01-02T03:04:05.123456Z', 1704164645, 123456000],
    ['2024-01-02T05:04:05+02:00', 1704164645, 0],
    ['2024-01-02T03:04:05.5z', 1704164645, 500000000],
    ['0001-01-01T00:00:00Z', -62135596800, 0],
  ])('parses %s', (s, seconds, nanos) => {
    expect(parseTime(s)).toEqual({ seconds, nanos });
  });

  it.each(['2024-01-02', '2024-01-02T03:04Z', 'yesterday', ''])('rejects %j', (s) => {
    expect(() => parseTime(s)).toThrow(ProtobufError);
  });

  it.each([
    [1199149261, 0, false, '2008-01-01T01:01:01Z'],
    [1704164645, 123456789, false, '2024-01-02T03:04:05Z'],
    [1704164645, 123456789, true, '2024-01-02T03:04:05.123456Z'],
    [0, 0, true, '1970-01-01T00:00:00.000000Z'],
    [-62135596800, 0, false, '0001-01-01T00:00:00Z'],
  ])('formats %d.%d (micro %s)', (s, n, micro, out) => {
    expect(formatTime(s, n, micro)).toBe(out);
  });
});

describe('durations (Go format)', () => {
  it.each([
    ['0s', 0],
    ['1h2m3s', 3723e9],
    ['1h0m0s', 3600e9],
    ['1m0s', 60e9],
    ['1.5s', 1.5e9],
    ['300ms', 300e6],
    ['1.5µs', 1500],
    ['7ns', 7],
    ['-2m30s', -150e9],
  ])('%s <-> %d ns', (s, ns) => {
    expect(parseDuration(s)).toBe(ns);
    expect(formatDuration(ns)).toBe(s);
  });

  it.each([
    ['0', 0],
    ['1h30m', 5400e9],
    ['2us', 2000],
    ['.5s', 5e8],
  ])('parses the input form %s', (s, ns) => {
    expect(parseDuration(s)).toBe(ns);
  });

  it.each(['', '1', '1x', 'h', '-'])('rejects %j', (s) => {
    expect(() => parseDuration(s)).toThrow(ProtobufError);
  });
});

describe('base64', () => {
  it('round-trips', () => {
    expect(bytesToBase64(base64ToBytes('AAEC/w=='))).toBe('AAEC/w==');
    expect([...base64ToBytes('Aw==')]).toEqual([3]);
  });
  it.each(['not base64!', 'A', 'AB=C'])('rejects %j', (s) => {
    expect(() => base64ToBytes(s)).toThrow(ProtobufError);
  });
});
