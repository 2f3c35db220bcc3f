// Protobuf bodies for the fuzz harness (Content-Type
// application/vnd.kubernetes.protobuf): random bytes after the `k8s\0`
// magic, valid encodings truncated or with flipped bytes, envelopes
// (runtime.Unknown) around random or mismatched payloads, varints and
// lengths that overrun, deprecated groups nested deep, and a
// CustomResourceDefinition whose schema nests `not` thousands deep. A tiny
// wire writer builds the hand-made messages; valid encodings come from the
// server's own codec when it is given.

import type { Rng } from './rng.ts';

const MAGIC = [0x6b, 0x38, 0x73, 0x00];

class Writer {
  private parts: number[] = [];
  varint(n: number): this {
    let v = n;
    while (v >= 0x80) {
      this.parts.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    this.parts.push(v);
    return this;
  }
  tag(field: number, wire: number): this {
    return this.varint(field * 8 + wire);
  }
  bytes(field: number, b: Uint8Array | number[]): this {
    this.tag(field, 2).varint(b.length);
    for (const x of b) this.parts.push(x);
    return this;
  }
  string(field: number, s: string): this {
    return this.bytes(field, [...Buffer.from(s)]);
  }
  raw(b: Uint8Array | number[]): this {
    for (const x of b) this.parts.push(x);
    return this;
  }
  finish(): Uint8Array {
    return new Uint8Array(this.parts);
  }
}

/** The `k8s\0` envelope: runtime.Unknown{typeMeta{apiVersion, kind}, raw, contentEncoding, contentType}. */
export function envelope(apiVersion: string, kind: string, raw: Uint8Array | number[], contentEncoding = '', contentType = ''): Uint8Array {
  const typeMeta = new Writer().string(1, apiVersion).string(2, kind).finish();
  const w = new Writer().raw(MAGIC).bytes(1, typeMeta).bytes(2, raw);
  if (contentEncoding || contentType) w.string(3, contentEncoding).string(4, contentType);
  return w.finish();
}

function varintLength(n: number): number {
  let len = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    len++;
  }
  return len;
}

/** `core` wrapped depth times in length-delimited field `field`, written in one pass (no copying per level). */
function nestLD(field: number, depth: number, core: Uint8Array): Uint8Array {
  const tagLen = varintLength(field * 8 + 2);
  const lens: number[] = [core.length];
  for (let i = 1; i <= depth; i++) lens.push(lens[i - 1] + tagLen + varintLength(lens[i - 1]));
  const w = new Writer();
  for (let i = depth; i >= 1; i--) w.tag(field, 2).varint(lens[i - 1]);
  return w.raw(core).finish();
}

/** A CustomResourceDefinition body (without the envelope) whose openAPIV3Schema nests `not` depth times. */
function deepCRD(depth: number): Uint8Array {
  // JSONSchemaProps: type = 5, not = 28
  const props = nestLD(28, depth, new Writer().string(5, 'object').finish());
  const validation = new Writer().bytes(1, props).finish();
  const version = new Writer().string(1, 'v1').tag(2, 0).varint(1).tag(3, 0).varint(1).bytes(4, validation).finish();
  const names = new Writer().string(1, 'deeps').string(2, 'deep').string(4, 'Deep').string(6, 'DeepList').finish();
  const spec = new Writer().string(1, 'fuzz.example.com').bytes(3, names).string(4, 'Namespaced').bytes(7, version).finish();
  const meta = new Writer().string(1, 'deeps.fuzz.example.com').finish();
  return new Writer().bytes(1, meta).bytes(2, spec).finish();
}

/** Deprecated start-group tags nested depth times (field 99), then the end-group tags. */
function deepGroups(depth: number): Uint8Array {
  const w = new Writer().bytes(1, new Writer().string(1, 'fz-groups').finish());
  for (let i = 0; i < depth; i++) w.tag(99, 3);
  for (let i = 0; i < depth; i++) w.tag(99, 4);
  return w.finish();
}

/** Unknown length-delimited field 99 nested depth times (a reader that recursed into unknown fields would overflow). */
function deepUnknown(depth: number): Uint8Array {
  const inner = nestLD(1, depth, new Uint8Array(0));
  return new Writer().bytes(1, new Writer().string(1, 'fz-unknown').finish()).bytes(99, inner).finish();
}

export interface ProtobufContext {
  apiVersion: string;
  kind: string;
  /** The valid object, enveloped, when the codec could encode it. */
  valid?: Uint8Array;
}

export function protobufBody(rng: Rng, ctx: ProtobufContext): { bytes: Uint8Array; note: string; variant: string } {
  const r = protobufBytes(rng, ctx);
  return { ...r.out, variant: r.variant };
}

function protobufBytes(rng: Rng, ctx: ProtobufContext): { out: { bytes: Uint8Array; note: string }; variant: string } {
  const kind = rng.pick([
    'random',
    'random-short',
    'no-magic',
    'truncate',
    'flip',
    'insert',
    'random-raw',
    'mismatched-kind',
    'empty-kind',
    'json-raw',
    'gzip-raw',
    'varint-overflow',
    'length-overrun',
    'deep-groups',
    'deep-unknown',
    'deep-crd',
    'wrong-wire-type',
    'valid',
  ]);
  const valid = ctx.valid;
  switch (kind) {
    case 'random': {
      const n = rng.pick([1, 16, 256, 4096, 100_000]);
      return { out: { bytes: new Uint8Array([...MAGIC, ...rng.bytes(n)]), note: `magic + ${n} random bytes` }, variant: kind };
    }
    case 'random-short':
      return { out: { bytes: new Uint8Array([...MAGIC.slice(0, rng.int(0, 4))]), note: 'part of the magic only' }, variant: kind };
    case 'no-magic':
      return { out: { bytes: rng.bytes(rng.int(1, 64)), note: 'random bytes without the magic' }, variant: kind };
    case 'truncate': {
      if (!valid) break;
      const n = rng.int(4, valid.length - 1);
      return { out: { bytes: valid.subarray(0, n), note: `valid encoding truncated at ${n}/${valid.length}` }, variant: kind };
    }
    case 'flip': {
      if (!valid) break;
      const out = new Uint8Array(valid);
      const flips = rng.int(1, 6);
      for (let i = 0; i < flips; i++) out[rng.int(4, out.length - 1)] ^= 1 << rng.int(0, 7);
      return { out: { bytes: out, note: `valid encoding with ${flips} bit flips` }, variant: kind };
    }
    case 'insert': {
      if (!valid) break;
      const pos = rng.int(4, valid.length);
      const ins = rng.bytes(rng.int(1, 10));
      return { out: { bytes: new Uint8Array([...valid.subarray(0, pos), ...ins, ...valid.subarray(pos)]), note: `valid encoding with ${ins.length} bytes inserted at ${pos}` }, variant: kind };
    }
    case 'random-raw':
      return { out: { bytes: envelope(ctx.apiVersion, ctx.kind, rng.bytes(rng.int(0, 512))), note: 'envelope around random raw bytes' }, variant: kind };
    case 'mismatched-kind': {
      const other = rng.pick([
        ['v1', 'Pod'],
        ['apps/v1', 'Deployment'],
        ['v1', 'Status'],
        ['meta.k8s.io/v1', 'DeleteOptions'],
        ['v1', 'NoSuchKind'],
        ['x/y', 'Z'],
      ]);
      const raw = valid ? valid.subarray(4) : rng.bytes(32);
      return { out: { bytes: envelope(other[0], other[1], raw), note: `envelope says ${other.join(' ')}` }, variant: kind };
    }
    case 'empty-kind':
      return { out: { bytes: envelope(rng.pick(['', ctx.apiVersion]), '', rng.bytes(8)), note: 'envelope without kind' }, variant: kind };
    case 'json-raw':
      return {
        out: {
          bytes: envelope(ctx.apiVersion, ctx.kind, [...Buffer.from(JSON.stringify({ metadata: { name: 'fz-json-raw' } }))], '', 'application/json'),
          note: 'envelope with JSON raw and contentType application/json',
        },
        variant: kind,
      };
    case 'gzip-raw':
      return { out: { bytes: envelope(ctx.apiVersion, ctx.kind, rng.bytes(20), 'gzip'), note: 'envelope with contentEncoding gzip' }, variant: kind };
    case 'varint-overflow':
      return { out: { bytes: new Uint8Array([...MAGIC, 0x0a, ...new Array(rng.pick([10, 11, 20])).fill(0xff), 0x01]), note: 'length varint longer than 10 bytes' }, variant: kind };
    case 'length-overrun': {
      const len = rng.pick([100, 0x7fffffff, 2 ** 40]);
      return { out: { bytes: new Writer().raw(MAGIC).tag(2, 2).varint(len).raw([1, 2, 3]).finish(), note: `length ${len} beyond the body` }, variant: kind };
    }
    case 'deep-groups': {
      const d = rng.pick([100, 10_000, 100_000]);
      return { out: { bytes: envelope(ctx.apiVersion, ctx.kind, deepGroups(d)), note: `start groups nested ${d} deep` }, variant: kind };
    }
    case 'deep-unknown': {
      const d = rng.pick([100, 1000, 10_000, 100_000]);
      return { out: { bytes: envelope(ctx.apiVersion, ctx.kind, deepUnknown(d)), note: `unknown field nested ${d} deep` }, variant: kind };
    }
    case 'deep-crd': {
      const d = rng.pick([100, 1000, 10_000, 100_000]);
      return { out: { bytes: envelope('apiextensions.k8s.io/v1', 'CustomResourceDefinition', deepCRD(d)), note: `CRD schema with not nested ${d} deep` }, variant: kind };
    }
    case 'wrong-wire-type': {
      // metadata (field 1) as a varint instead of a message
      return { out: { bytes: envelope(ctx.apiVersion, ctx.kind, new Writer().tag(1, 0).varint(5).tag(2, 5).raw([1, 2, 3, 4]).finish()), note: 'fields with wrong wire types' }, variant: kind };
    }
    default:
      break;
  }
  if (valid) return { out: { bytes: valid, note: 'valid encoding' }, variant: 'valid' };
  return { out: { bytes: new Uint8Array([...MAGIC, ...rng.bytes(32)]), note: 'magic + 32 random bytes (no valid encoding)' }, variant: 'random' };
}
