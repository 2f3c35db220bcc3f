import { describe, expect, it } from 'vitest';
import { acceptsGzip } from './respond.ts';

describe('acceptsGzip (kube-apiserver negotiateContentEncoding)', () => {
  const rows: [string | undefined, boolean][] = [
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['deflate, gzip', true],
    ['  gzip  ,br', true],
    ['identity', false],
    ['x-gzip', false],
    ['gzip;q=1.0', false],
    ['gzipped', false],
    ['GZIP', false],
  ];
  it.each(rows)('%j → %s', (header, want) => {
    expect(acceptsGzip(header)).toBe(want);
  });
});
