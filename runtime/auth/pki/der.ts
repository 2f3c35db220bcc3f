// DER (ITU-T X.690 distinguished encoding) for the few ASN.1 types an X.509
// certificate needs: writers that return the encoded bytes of one value, and
// a reader of one element's tag, length and extent (enough to take fields
// out of a certificate). No schema: callers nest the writers as the
// structure they build prescribes.

/** Tag, length and contents of one encoded element. */
export function tlv(tag: number, contents: Uint8Array): Buffer {
  const n = contents.length;
  let len: number[];
  if (n < 0x80) len = [n];
  else {
    const bytes: number[] = [];
    for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
    len = [0x80 | bytes.length, ...bytes];
  }
  return Buffer.concat([Buffer.from([tag, ...len]), contents]);
}

export const sequence = (...items: Uint8Array[]): Buffer => tlv(0x30, Buffer.concat(items));
export const set = (...items: Uint8Array[]): Buffer => tlv(0x31, Buffer.concat(items));
export const octetString = (b: Uint8Array): Buffer => tlv(0x04, b);
export const utf8String = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
export const boolean = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
/** [n] EXPLICIT: a constructed context-specific element wrapping one encoded value. */
export const explicit = (n: number, inner: Uint8Array): Buffer => tlv(0xa0 | n, inner);
/** [n] IMPLICIT of a primitive value: its contents under a context-specific tag. */
export const implicit = (n: number, contents: Uint8Array): Buffer => tlv(0x80 | n, contents);

/** A non-negative INTEGER from its big-endian magnitude, in the fewest bytes (a leading 0 only to keep it positive). */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let i = 0;
  while (i < magnitude.length - 1 && magnitude[i] === 0) i++;
  let b = Buffer.from(magnitude.subarray(i));
  if (b.length === 0) b = Buffer.from([0]);
  if (b[0] & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

export const smallInteger = (n: number): Buffer => {
  if (!Number.isInteger(n) || n < 0 || n > 0xffff) throw new RangeError(`smallInteger: ${n}`);
  return unsignedInteger(Buffer.from([n >> 8, n & 0xff]));
};

/** An OBJECT IDENTIFIER from its dotted form. */
export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  if (arcs.length < 2 || arcs.some((a) => !Number.isSafeInteger(a) || a < 0)) throw new RangeError(`oid: ${dotted}`);
  const out = [arcs[0] * 40 + arcs[1]];
  for (const arc of arcs.slice(2)) {
    const groups: number[] = [arc & 0x7f];
    for (let v = Math.floor(arc / 128); v > 0; v = Math.floor(v / 128)) groups.unshift(0x80 | (v & 0x7f));
    out.push(...groups);
  }
  return tlv(0x06, Buffer.from(out));
}

/** A BIT STRING of whole bytes (a public key, a signature). */
export const bitString = (bytes: Uint8Array): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), bytes]));

/** A named-bit BIT STRING (KeyUsage): the bits set, numbered from the first byte's high bit; trailing zero bits dropped. */
export function namedBits(bits: number[]): Buffer {
  if (!bits.length) return tlv(0x03, Buffer.from([0]));
  const last = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(last / 8) + 1);
  for (const b of bits) bytes[Math.floor(b / 8)] |= 0x80 >> (b % 8);
  return tlv(0x03, Buffer.concat([Buffer.from([7 - (last % 8)]), bytes]));
}

/** RFC 5280's Time: UTCTime through 2049, GeneralizedTime from 2050; whole seconds, UTC. */
export function time(ms: number): Buffer {
  const iso = new Date(ms).toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-T:]/g, '') + 'Z';
  const year = Number(iso.slice(0, 4));
  return year < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), 'ascii')) : tlv(0x18, Buffer.from(digits, 'ascii'));
}

/** One element at `offset`: its tag, where its contents start and where it ends. */
export interface Element {
  tag: number;
  start: number;
  contentStart: number;
  end: number;
}

export function readElement(der: Uint8Array, offset = 0): Element {
  if (offset + 2 > der.length) throw new RangeError('DER: truncated element');
  const tag = der[offset];
  let len = der[offset + 1];
  let contentStart = offset + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || contentStart + n > der.length) throw new RangeError('DER: bad length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[contentStart + i];
    contentStart += n;
  }
  const end = contentStart + len;
  if (end > der.length) throw new RangeError('DER: element runs past the end');
  return { tag, start: offset, contentStart, end };
}

/** The elements inside a constructed element, in order. */
export function children(der: Uint8Array, parent: Element): Element[] {
  const out: Element[] = [];
  for (let at = parent.contentStart; at < parent.end;) {
    const e = readElement(der, at);
    out.push(e);
    at = e.end;
  }
  return out;
}
