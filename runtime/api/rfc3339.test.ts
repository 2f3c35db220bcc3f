// formatRFC3339: whole seconds in UTC, the same text Date.toISOString gives
// without its milliseconds, for instants in the same second, the next one,
// and going back (a clock stepped backwards).
import { describe, expect, it } from 'vitest';
import { formatRFC3339 } from './rfc3339.ts';

describe('formatRFC3339', () => {
  it.each([
    ['the epoch', 0, '1970-01-01T00:00:00Z'],
    ['a time within a second', Date.UTC(2024, 4, 1, 12, 0, 0, 999), '2024-05-01T12:00:00Z'],
    ['the same second again', Date.UTC(2024, 4, 1, 12, 0, 0, 1), '2024-05-01T12:00:00Z'],
    ['the next second', Date.UTC(2024, 4, 1, 12, 0, 1, 0), '2024-05-01T12:00:01Z'],
    ['an earlier second', Date.UTC(2023, 11, 31, 23, 59, 59, 500), '2023-12-31T23:59:59Z'],
    ['before the epoch', -1, '1969-12-31T23:59:59Z'],
  ])('%s', (_name, ms, text) => {
    expect(formatRFC3339(ms)).toBe(text);
    expect(formatRFC3339(ms)).toBe(new Date(ms - (((ms % 1000) + 1000) % 1000)).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  });
});
