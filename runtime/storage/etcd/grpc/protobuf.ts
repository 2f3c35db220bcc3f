// The protobuf wire format, as much of it as etcd's KV messages need
// (kv-messages.ts): varints (int64s as JS numbers: etcd's revisions, counts
// and versions stay far below 2^53) and length-delimited fields (bytes and
// nested messages). Encoding is two passes, sizes first, then one write into
// one buffer; decoding walks one buffer with one reader, and bytes fields are
// views of it (no copies).

const VARINT = 0;
const FIXED64 = 1;
export const LEN = 2;
const FIXED32 = 5;

/** The bytes of a varint of n (a non-negative safe integer). */
export function varintSize(n: number): number {
  if (n < 0x80) return 1;
  if (n < 0x4000) return 2;
  if (n < 0x200000) return 3;
  if (n < 0x10000000) return 4;
  let size = 4;
  for (n = Math.floor(n / 0x10000000); n > 0; n = Math.floor(n / 0x80)) size++;
  return size;
}

/** Writes n as a varint at pos; returns the position after it. */
export function writeVarint(buf: Buffer, pos: number, n: number): number {
  if (n <= 0xffffffff) {
    while (n > 0x7f) {
      buf[pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
  } else {
    while (n > 0x7f) {
      buf[pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
  }
  buf[pos++] = n;
  return pos;
}

/** A field's key: its number and wire type. */
const tag = (field: number, wire: number): number => field * 8 + wire;

/** Checks a number an int64 field is given: a non-negative safe integer (what etcd's revisions, limits and versions are). */
export function int64(n: number, name: string): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer below 2^53, not ${n}`);
  return n;
}

/** The size of a varint field (0 when n is 0 and the field is not in a oneof). */
export const varintFieldSize = (field: number, n: number, always = false): number => (n || always ? varintSize(tag(field, VARINT)) + varintSize(n) : 0);

/** The size of a length-delimited field of len bytes. */
export const lenFieldSize = (field: number, len: number): number => varintSize(tag(field, LEN)) + varintSize(len) + len;

export function writeVarintField(buf: Buffer, pos: number, field: number, n: number, always = false): number {
  if (!n && !always) return pos;
  pos = writeVarint(buf, pos, tag(field, VARINT));
  return writeVarint(buf, pos, n);
}

export function writeBytesField(buf: Buffer, pos: number, field: number, bytes: Uint8Array | undefined, always = false): number {
  if (!bytes?.length && !always) return pos;
  const len = bytes?.length ?? 0;
  pos = writeVarint(buf, pos, tag(field, LEN));
  pos = writeVarint(buf, pos, len);
  if (len) buf.set(bytes!, pos);
  return pos + len;
}

/** The key of a length-delimited field and its length: its content follows. */
export function writeLenHeader(buf: Buffer, pos: number, field: number, len: number): number {
  return writeVarint(buf, writeVarint(buf, pos, tag(field, LEN)), len);
}

/** A message that could not be decoded. */
export class DecodeError extends Error {}

/** Reads fields from buf between pos and end. */
export class Reader {
  constructor(
    readonly buf: Buffer,
    public pos = 0,
    readonly end = buf.length,
  ) {}

  varint(): number {
    const buf = this.buf;
    if (this.pos >= this.end) throw new DecodeError('truncated message');
    let b = buf[this.pos++];
    if (b < 0x80) return b;
    let n = b & 0x7f;
    let mul = 0x80;
    for (let i = 1; ; i++) {
      if (i >= 10 || this.pos >= this.end) throw new DecodeError('malformed varint');
      b = buf[this.pos++];
      n += (b & 0x7f) * mul;
      if (b < 0x80) return n;
      mul *= 0x80;
    }
  }

  /** A length-delimited field's end (its content starts at pos). */
  lenEnd(): number {
    const len = this.varint();
    const end = this.pos + len;
    if (end > this.end) throw new DecodeError('truncated message');
    return end;
  }

  /** A bytes field: a view of the buffer. */
  bytes(): Buffer {
    const end = this.lenEnd();
    const out = this.buf.subarray(this.pos, end);
    this.pos = end;
    return out;
  }

  bool(): boolean {
    return this.varint() !== 0;
  }

  skip(wire: number): void {
    if (wire === VARINT) this.varint();
    else if (wire === LEN) this.pos = this.lenEnd();
    else if (wire === FIXED64) this.pos += 8;
    else if (wire === FIXED32) this.pos += 4;
    else throw new DecodeError(`unsupported wire type ${wire}`);
    if (this.pos > this.end) throw new DecodeError('truncated message');
  }
}
