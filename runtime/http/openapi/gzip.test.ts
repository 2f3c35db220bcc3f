// gziphandler's Accept-Encoding reading, as /openapi/v2 applies it.

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { GzipCache, acceptsGzipEncoding } from './gzip.ts';

describe('acceptsGzipEncoding', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['GZip', true],
    ['deflate, gzip', true],
    [' gzip ;q=0.5', true],
    ['gzip;q=0', false],
    ['gzip;q=0.0', false],
    ['gzip;q=-1', false],
    ['gzip;q=2', true],
    ['gzip;q=abc', false],
    // only the last parameter counts (its loop resets the value per parameter)
    ['gzip;q=0;level=1', true],
    ['gzip;level=1;q=0', false],
    ['x-gzip', false],
    ['*', false],
    ['identity', false],
    ['deflate, gzip;q=0', false],
  ])('%j → %s', (header, want) => {
    expect(acceptsGzipEncoding(header)).toBe(want);
  });
});

describe('GzipCache', () => {
  it('gzips a body once and gives the same bytes again', async () => {
    const cache = new GzipCache();
    const body = new TextEncoder().encode('x'.repeat(5000));
    const a = await cache.of(body);
    expect(await cache.of(body)).toBe(a);
    expect(new TextDecoder().decode(gunzipSync(a))).toBe('x'.repeat(5000));
  });
});
