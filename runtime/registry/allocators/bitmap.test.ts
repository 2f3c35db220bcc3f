import { describe, expect, it } from 'vitest';
import { decodeBitmap, encodeBitmap } from './bitmap.ts';

describe('range bitmaps (big-endian big.Int bytes)', () => {
  const rows: [string, number[], number[]][] = [
    ['empty', [], []],
    ['offset 0 is the lowest bit of the last byte', [0], [0x01]],
    ['offset 7', [7], [0x80]],
    ['offset 8 needs a second byte, most significant first', [8], [0x01, 0x00]],
    ['several', [0, 1, 9, 23], [0x80, 0x02, 0x03]],
    ['order of input does not matter', [23, 9, 1, 0], [0x80, 0x02, 0x03]],
  ];
  it.each(rows)('%s', (_name, offsets, bytes) => {
    expect([...encodeBitmap(offsets)]).toEqual(bytes);
    expect(decodeBitmap(Uint8Array.from(bytes))).toEqual([...offsets].sort((a, b) => a - b));
  });
  it('leading zero bytes decode as nothing', () => {
    expect(decodeBitmap(Uint8Array.from([0, 0, 0x01]))).toEqual([0]);
  });
});
