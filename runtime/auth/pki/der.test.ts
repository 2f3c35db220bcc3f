// The DER writers against known encodings (X.690 examples and values read
// back from certificates), and the element reader on what they write.
import { describe, expect, it } from 'vitest';
import { bitString, boolean, children, explicit, implicit, namedBits, octetString, oid, readElement, sequence, smallInteger, time, tlv, unsignedInteger, utf8String } from './der.ts';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('DER writers', () => {
  it.each([
    ['INTEGER 0', unsignedInteger(Buffer.from([0])), '020100'],
    ['INTEGER 127', smallInteger(127), '02017f'],
    ['INTEGER 128 keeps a leading zero', smallInteger(128), '02020080'],
    ['INTEGER 2', smallInteger(2), '020102'],
    ['INTEGER strips leading zero bytes', unsignedInteger(Buffer.from([0, 0, 0x01, 0x02])), '02020102'],
    ['INTEGER strips them but keeps it positive', unsignedInteger(Buffer.from([0, 0, 0x81])), '02020081'],
    ['OID ecdsa-with-SHA256', oid('1.2.840.10045.4.3.2'), '06082a8648ce3d040302'],
    ['OID commonName', oid('2.5.4.3'), '0603550403'],
    ['OID serverAuth', oid('1.3.6.1.5.5.7.3.1'), '06082b06010505070301'],
    ['BOOLEAN true', boolean(true), '0101ff'],
    ['OCTET STRING', octetString(Buffer.from([1, 2])), '04020102'],
    ['UTF8String', utf8String('ä'), '0c02c3a4'],
    ['BIT STRING of bytes', bitString(Buffer.from([0xab])), '030200ab'],
    ['KeyUsage of a CA (bits 0, 5, 6)', namedBits([0, 5, 6]), '03020186'],
    ['KeyUsage of a leaf (bits 0, 2)', namedBits([0, 2]), '030205a0'],
    ['KeyUsage over a byte (bit 8)', namedBits([0, 8]), '0303078080'],
    ['[0] EXPLICIT', explicit(0, smallInteger(2)), 'a003020102'],
    ['[2] IMPLICIT', implicit(2, Buffer.from('a', 'ascii')), '820161'],
    ['empty SEQUENCE', sequence(), '3000'],
    ['UTCTime before 2050', time(Date.UTC(2026, 10, 24, 6, 8, 23, 999)), '170d3236313132343036303832335a'],
    ['GeneralizedTime from 2050', time(Date.UTC(2050, 0, 1, 0, 0, 0)), '180f32303530303130313030303030305a'],
  ])('%s', (_name, encoded, want) => {
    expect(hex(encoded)).toBe(want);
  });

  it.each([
    [0x7f, '7f'],
    [0x80, '8180'],
    [0xff, '81ff'],
    [0x100, '820100'],
    [70_000, '83011170'],
  ])('a length of %i is written as %s', (n, want) => {
    const e = tlv(0x04, Buffer.alloc(n));
    expect(hex(e.subarray(1, 1 + want.length / 2))).toBe(want);
    expect(readElement(e)).toEqual({ tag: 0x04, start: 0, contentStart: 1 + want.length / 2, end: e.length });
  });

  it('reads back the children of what it wrote', () => {
    const s = sequence(smallInteger(1), octetString(Buffer.alloc(200)), sequence());
    expect(children(s, readElement(s)).map((e) => e.tag)).toEqual([0x02, 0x04, 0x30]);
  });

  it.each([
    ['truncated', Buffer.from([0x30])],
    ['a length past the end', Buffer.from([0x04, 0x05, 0x00])],
    ['an indefinite length', Buffer.from([0x30, 0x80, 0x00, 0x00])],
  ])('refuses %s input', (_name, der) => {
    expect(() => readElement(der)).toThrow(RangeError);
  });
});
