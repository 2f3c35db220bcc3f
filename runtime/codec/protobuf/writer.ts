// A protobuf wire writer tuned for encoding large Kubernetes objects: one
// growable buffer reused across calls, ASCII fast path for strings, and
// length-delimited sub-messages written in place (one byte reserved for the
// length, content shifted with copyWithin when the length needs more). Same
// bytes as protobuf-es's BinaryWriter (which the tests compare it with), about
// twice as fast here because it neither allocates a chunk per string nor
// copies every nested message on join.
import { WireType } from '@bufbuild/protobuf/wire';

export class WireWriter {
  private buf: Buffer;
  private pos = 0;
  private stack: number[] = [];

  constructor(initial = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  reset(): void {
    this.pos = 0;
    this.stack.length = 0;
  }

  /** A copy of the bytes written so far. */
  finish(): Uint8Array {
    if (this.stack.length) throw new Error('WireWriter: unbalanced fork/join');
    const out = new Uint8Array(this.pos);
    out.set(this.buf.subarray(0, this.pos));
    return out;
  }

  /** The bytes written so far, not copied: valid until the writer is reset or written again. */
  view(): Uint8Array {
    if (this.stack.length) throw new Error('WireWriter: unbalanced fork/join');
    return this.buf.subarray(0, this.pos);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  tag(no: number, wt: WireType): this {
    return this.uint32(((no << 3) | wt) >>> 0);
  }

  uint32(v: number): this {
    this.ensure(5);
    const b = this.buf;
    while (v > 0x7f) {
      b[this.pos++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[this.pos++] = v;
    return this;
  }

  /** Varint of an integer given as a JS number (int32 and int64 alike; negatives take ten bytes). */
  varint(v: number): this {
    if (v >= 0 && v < 0x80000000) return this.uint32(v);
    this.ensure(10);
    const b = this.buf;
    if (v >= 0) {
      while (v >= 0x80) {
        b[this.pos++] = (v % 0x80) | 0x80;
        v = Math.floor(v / 0x80);
      }
      b[this.pos++] = v;
      return this;
    }
    let x = BigInt.asUintN(64, BigInt(v));
    while (x >= 0x80n) {
      b[this.pos++] = Number(x & 0x7fn) | 0x80;
      x >>= 7n;
    }
    b[this.pos++] = Number(x);
    return this;
  }

  bool(v: boolean): this {
    this.ensure(1);
    this.buf[this.pos++] = v ? 1 : 0;
    return this;
  }

  double(v: number): this {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
    return this;
  }

  bytes(v: Uint8Array): this {
    this.uint32(v.length);
    this.ensure(v.length);
    this.buf.set(v, this.pos);
    this.pos += v.length;
    return this;
  }

  string(s: string): this {
    const n = s.length;
    if (n < 128) {
      this.ensure(n + 1);
      const b = this.buf;
      const start = this.pos;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        b[start + 1 + i] = c;
      }
      if (i === n) {
        b[start] = n;
        this.pos = start + 1 + n;
        return this;
      }
    }
    const len = Buffer.byteLength(s, 'utf8');
    this.uint32(len);
    this.ensure(len);
    this.buf.write(s, this.pos, len, 'utf8');
    this.pos += len;
    return this;
  }

  /** Starts a length-delimited value (after its tag). */
  fork(): this {
    this.ensure(1);
    this.stack.push(this.pos);
    this.pos += 1;
    return this;
  }

  /** Ends the value fork() started, writing its length in front of it. */
  join(): this {
    const start = this.stack.pop()!;
    const len = this.pos - start - 1;
    if (len < 0x80) {
      this.buf[start] = len;
      return this;
    }
    let size = 1;
    for (let v = len; v > 0x7f; v >>>= 7) size++;
    this.ensure(size - 1);
    this.buf.copyWithin(start + size, start + 1, this.pos);
    let p = start;
    let v = len;
    while (v > 0x7f) {
      this.buf[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[p] = v;
    this.pos += size - 1;
    return this;
  }
}
