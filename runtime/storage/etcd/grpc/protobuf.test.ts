import { describe, expect, it } from 'vitest';
import { DecodeError, Reader, int64, varintSize, writeVarint } from './protobuf.ts';

describe('protobuf varints', () => {
  const rows: [number, number[]][] = [
    [0, [0x00]],
    [1, [0x01]],
    [127, [0x7f]],
    [128, [0x80, 0x01]],
    [300, [0xac, 0x02]],
    [16383, [0xff, 0x7f]],
    [16384, [0x80, 0x80, 0x01]],
    [2 ** 31 - 1, [0xff, 0xff, 0xff, 0xff, 0x07]],
    [2 ** 32, [0x80, 0x80, 0x80, 0x80, 0x10]],
    [2 ** 53 - 1, [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f]],
  ];
  it.each(rows)('%d is written as its bytes and read back', (n, bytes) => {
    const buf = Buffer.alloc(10);
    const end = writeVarint(buf, 0, n);
    expect([...buf.subarray(0, end)]).toEqual(bytes);
    expect(varintSize(n)).toBe(bytes.length);
    const r = new Reader(buf, 0, end);
    expect(r.varint()).toBe(n);
    expect(r.pos).toBe(end);
  });

  it.each([
    ['ends inside a varint', [0x80, 0x80]],
    ['a varint longer than 10 bytes', [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]],
    ['nothing left', []],
  ])('refuses %s', (_name, bytes) => {
    expect(() => new Reader(Buffer.from(bytes)).varint()).toThrow(DecodeError);
  });

  it('refuses a bytes field longer than the message', () => {
    expect(() => new Reader(Buffer.from([0x05, 0x61])).bytes()).toThrow(DecodeError);
  });

  it.each([-1, 0.5, 2 ** 53, Number.NaN])('refuses %d as an int64 to send', (n) => {
    expect(() => int64(n, 'revision')).toThrow(RangeError);
  });
});
