import { describe, it, expect } from 'vitest';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { hasMagic, unwrap, wrap } from './envelope.ts';
import { ProtobufError } from './errors.ts';

const enc = new TextEncoder();
const MAGIC_BYTES = [0x6b, 0x38, 0x73, 0x00];

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

  /** The envelope as protobuf-es's generic writer makes it: the reference for the hand-written one. */
  const reference = (apiVersion: string, kind: string, raw: Uint8Array): Uint8Array => {
    const w = new BinaryWriter();
    w.tag(1, WireType.LengthDelimited).fork();
    w.tag(1, WireType.LengthDelimited).string(apiVersion);
    w.tag(2, WireType.LengthDelimited).string(kind);
    w.join();
    w.tag(2, WireType.LengthDelimited).bytes(raw);
    w.tag(3, WireType.LengthDelimited).string('');
    w.tag(4, WireType.LengthDelimited).string('');
    return new Uint8Array([...MAGIC_BYTES, ...w.finish()]);
  };
  it.each([
    ['core', 'v1', 'ConfigMap', 5],
    ['empty everything', '', '', 0],
    ['raw of 127 bytes (one-byte length)', 'apps/v1', 'Deployment', 127],
    ['raw of 128 bytes (two-byte length)', 'apps/v1', 'Deployment', 128],
    ['raw of 20,000 bytes (three-byte length)', 'v1', 'Secret', 20_000],
    ['raw of 2,100,000 bytes (four-byte length)', 'v1', 'List', 2_100_000],
    ['a long group (two-byte typeMeta length)', `${'g'.repeat(130)}.example.com/v1beta1`, 'Widget', 3],
    ['non-ASCII names', 'héllo.example/v1', 'Wïdget', 9],
  ])('writes %s byte for byte as the generic writer', (_n, apiVersion, kind, size) => {
    const raw = new Uint8Array(size).map((_, i) => (i * 31) & 0xff);
    for (let i = 0; i < 2; i++) expect(Buffer.from(wrap(apiVersion, kind, raw)).equals(Buffer.from(reference(apiVersion, kind, raw)))).toBe(true);
    expect(unwrap(wrap(apiVersion, kind, raw))).toEqual({ apiVersion, kind, raw, contentEncoding: '', contentType: '' });
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
