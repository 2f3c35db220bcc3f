import { describe, expect, it } from 'vitest';
import { firstRawHeader } from './request-headers.ts';

describe('firstRawHeader (Go Header.Get over node rawHeaders)', () => {
  const rows: [string, string[], string, string | undefined][] = [
    ['absent', ['Host', 'x', 'User-Agent', 'kubectl'], 'accept', undefined],
    ['matched without regard to case', ['ACCEPT', 'application/yaml'], 'accept', 'application/yaml'],
    ['mixed case as clients send it', ['Accept-Encoding', 'gzip'], 'accept-encoding', 'gzip'],
    ['the first of repeated fields, not the joined values', ['Accept', 'text/html', 'accept', 'application/json'], 'accept', 'text/html'],
    ['a field sent empty is "", later ones do not count', ['Accept', '', 'Accept', 'application/json'], 'accept', ''],
    ['a name of the same length is not a match', ['Accepz', 'a', 'accept', 'b'], 'accept', 'b'],
    ['values are never taken for names', ['X-A', 'accept', 'Accept', 'v'], 'accept', 'v'],
    ['empty list', [], 'accept', undefined],
  ];
  it.each(rows)('%s', (_why, raw, name, want) => {
    expect(firstRawHeader(raw, name)).toBe(want);
  });
});
