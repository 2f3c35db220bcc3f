// Conditional GETs of the OpenAPI documents (Go's http.ServeContent rules).
import { describe, expect, it } from 'vitest';
import { entityTags, notModified } from './conditional.ts';

const v = { etag: '"ABC"', lastModified: new Date('2026-01-02T03:04:05.678Z') };

describe('notModified', () => {
  it.each([
    ['"ABC"', undefined, true],
    ['W/"ABC"', undefined, true],
    ['"X", "ABC"', undefined, true],
    ['*', undefined, true],
    ['"X"', undefined, false],
    ['ABC', undefined, false],
    // If-None-Match decides alone when present
    ['"X"', 'Fri, 02 Jan 2026 03:04:05 GMT', false],
    [undefined, 'Fri, 02 Jan 2026 03:04:05 GMT', true],
    [undefined, 'Sat, 03 Jan 2026 00:00:00 GMT', true],
    [undefined, 'Fri, 02 Jan 2026 03:04:04 GMT', false],
    [undefined, 'not a date', false],
    [undefined, undefined, false],
  ])('If-None-Match %s, If-Modified-Since %s -> %s', (inm, ims, want) => {
    expect(notModified(inm, ims, v)).toBe(want);
  });

  it('reads lists of entity tags', () => {
    expect(entityTags(' "a" ,W/"b",*')).toEqual(['"a"', '"b"', '*']);
  });
});
