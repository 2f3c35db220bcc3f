import { describe, it, expect } from 'vitest';
import { hasMagic, unwrap, wrap } from './envelope.ts';
import { ProtobufError } from './errors.ts';

const enc = new TextEncoder();

describe('envelope', () => {
  it('writes the prefix, type meta, raw and the two empty strings', () => {
    const b = wrap('v1', 'Pod', new Uint8Array([1, 2]));
    expect(Buffer.from(b).toString('hex')).toBe('6b387300' + '0a09' + '0a027631' + '1203506f64' + '12020102' + '1a00' + '2200');
    expect(unwrap(b)).toEqual({ apiVersion: 'v1', kind: 'Pod', raw: new Uint8Array([1, 2]), contentEncoding: '', contentType: '' });
  });

  it.each([
    ['a JSON body', enc.encode('{"kind":"Pod"}'), /prefix/],
    ['an empty body', new Uint8Array(0), /prefix/],
    ['a short prefix', new Uint8Array([0x6b, 0x38, 0x73]), /prefix/],
    ['a wrong fourth byte', new Uint8Array([0x6b, 0x38, 0x73, 0x01, 0x0a, 0x00]), /prefix/],
    ['a truncated message', new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0x0a, 0x09, 0x0a]), /invalid protobuf envelope/],
    ['a varint where raw belongs', new Uint8Array([0x6b, 0x38, 0x73, 0x00, 0x10, 0x01]), /raw has wire type/],
    ['a compressed body', wrapWith({ contentEncoding: 'gzip' }), /content encoding/],
    ['an embedded JSON body', wrapWith({ contentType: 'application/json' }), /content type/],
  ])('rejects %s', (_n, bytes, msg) => {
    expect(() => unwrap(bytes)).toThrow(ProtobufError);
    expect(() => unwrap(bytes)).toThrow(msg);
  });

  it('skips unknown fields of the envelope', () => {
    const b = wrap('v1', 'Pod', new Uint8Array([7]));
    const extra = new Uint8Array([...b, 0x28, 0x05]); // field 5, varint 5
    expect(unwrap(extra).raw).toEqual(new Uint8Array([7]));
  });

  it('recognises the prefix', () => {
    expect(hasMagic(wrap('v1', 'Pod', new Uint8Array()))).toBe(true);
    expect(hasMagic(enc.encode('k8s'))).toBe(false);
  });
});

function wrapWith(o: { contentEncoding?: string; contentType?: string }): Uint8Array {
  const b = [...wrap('v1', 'Pod', new Uint8Array())].slice(0, -4);
  const ce = enc.encode(o.contentEncoding ?? '');
  const ct = enc.encode(o.contentType ?? '');
  return new Uint8Array([...b, 0x1a, ce.length, ...ce, 0x22, ct.length, ...ct]);
}
