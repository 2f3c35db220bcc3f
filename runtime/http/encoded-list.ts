// Answers made of objects' served JSON (the watch cache's bytes, or the
// stored text with its resourceVersion spliced in) instead of parsed objects:
// a list is its envelope (kind, apiVersion, metadata) around the items' JSON,
// written once into one buffer, the bytes of an item the cache keeps as
// bytes copied as they are from where they are kept (never decoded and
// encoded again, and no view of them made per item). The bytes are
// exactly those of JSON.stringify of the list object plus the newline
// encodeBody adds. An item stored under another apiVersion than the
// endpoint's is parsed and re-serialized with the endpoint's, as withVersion
// does for parsed objects.
// In protobuf, each item's message bytes are made from its JSON and kept in a
// cache bounded by size (ProtobufItemCache), so a list is the list envelope
// around them and a get is the object envelope. A big protobuf list is
// streamed in chunks (protobufListChunks): its items' sizes first (the
// envelope and the list message carry the total length before the items, as
// Go's marshaller sizes a message before writing it), then each item's bytes
// copied into the chunk being filled; a list too big for the item cache
// neither fills it nor is ever held whole.
import type { EncodedObject } from '../storage/interface.ts';
import type { KubeProtobuf, ListParts } from '../codec/protobuf/index.ts';
import { ByteLRU } from './byte-lru.ts';

/** An item's JSON as the endpoint of `apiVersion` serves it: its bytes when it is kept as bytes, else its text. */
export function itemJSON(item: EncodedObject, apiVersion: string): string | Uint8Array {
  if (item.apiVersion === apiVersion) return item.bytes ?? item.json;
  return JSON.stringify({ ...JSON.parse(item.json), apiVersion });
}

/** An item whose bytes are copied from where they are kept. */
type CopiedItem = EncodedObject & { readonly byteLength: number; copyBytes(out: Uint8Array, at: number): number };

/** A piece of a body: text, bytes, or an item whose kept bytes are copied straight into the body (no view of them made per item). */
export type Piece = string | Uint8Array | CopiedItem;

/** An item's JSON as a piece of a list of the endpoint of `apiVersion`. */
export function itemPiece(item: EncodedObject, apiVersion: string): Piece {
  if (item.apiVersion === apiVersion && item.copyBytes !== undefined && item.byteLength !== undefined) return item as CopiedItem;
  return itemJSON(item, apiVersion);
}

/** The UTF-8 size of a piece of a body. */
export function pieceBytes(piece: Piece): number {
  if (typeof piece === 'string') return Buffer.byteLength(piece);
  return piece.byteLength;
}

/** Writes a piece of a body into out at `at`; returns its size. */
export function writePiece(out: Buffer, piece: Piece, at: number): number {
  if (typeof piece === 'string') return out.write(piece, at);
  if (piece instanceof Uint8Array) {
    out.set(piece, at);
    return piece.byteLength;
  }
  const n = piece.copyBytes(out, at);
  if (n !== piece.byteLength) throw new Error(`list body: an item copied ${n} of its ${piece.byteLength} bytes`);
  return n;
}

/** The size of an item's JSON, counted without decoding it (for a string: its length, a lower bound of its UTF-8 size). */
export function encodedLength(item: EncodedObject): number {
  return item.byteLength ?? item.bytes?.byteLength ?? item.json.length;
}

const COMMA = 44;
const NEWLINE = 10;

/** One object's body: its JSON and a newline. Kept bytes are copied straight into the body (no view of them made). */
export function objectBody(item: EncodedObject, apiVersion: string): string | Buffer {
  const piece = itemPiece(item, apiVersion);
  if (typeof piece === 'object' && 'copyBytes' in piece) {
    const out = Buffer.allocUnsafe(piece.byteLength + 1);
    out[piece.copyBytes(out, 0)] = NEWLINE;
    return out;
  }
  if (typeof piece === 'string') return `${piece}\n`;
  const out = Buffer.allocUnsafe(piece.byteLength + 1);
  out.set(piece, 0);
  out[piece.byteLength] = NEWLINE;
  return out;
}

/** `{"kind":...,"apiVersion":...,"metadata":...,"items":[...]}` and a newline, as bytes. */
export function listBody(kind: string, apiVersion: string, metadata: Record<string, unknown>, items: EncodedObject[]): Buffer {
  const head = `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(metadata)},"items":[`;
  const tail = ']}\n';
  const pieces = new Array<Piece>(items.length);
  let size = Buffer.byteLength(head) + tail.length + Math.max(0, items.length - 1);
  for (let i = 0; i < items.length; i++) {
    const p = itemPiece(items[i], apiVersion);
    pieces[i] = p;
    size += pieceBytes(p);
  }
  const out = Buffer.allocUnsafe(size);
  let at = out.write(head, 0);
  for (let i = 0; i < pieces.length; i++) {
    if (i > 0) out[at++] = COMMA;
    at += writePiece(out, pieces[i], at);
  }
  at += out.write(tail, at);
  if (at !== size) throw new Error(`list body: wrote ${at} of ${size} bytes`);
  return out;
}

/** An item's message bytes and the message type they encode. */
class ItemBytes {
  constructor(
    readonly type: string,
    readonly bytes: Uint8Array,
  ) {}
  get byteLength(): number {
    return this.bytes.byteLength;
  }
}

/** An object's whole protobuf body and the apiVersion and kind it is of (compared as they are: no key string is built per read). */
class ObjectBytes {
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
    readonly bytes: Uint8Array,
  ) {}
  get byteLength(): number {
    return this.bytes.byteLength;
  }
}

/** Default bound of the protobuf item cache: 32 MiB of message bytes and the JSON they hold on to. */
export const PROTOBUF_CACHE_BYTES = 32 * 2 ** 20;

/**
 * The items' message bytes, made from their JSON on first use and kept
 * (least recently used first out) up to a bound on their size plus the size
 * of the JSON each cached object holds on to, so that memory does not grow
 * with the collection; past the bound, items are encoded for each answer.
 */
export class ProtobufItemCache {
  private lru: ByteLRU<EncodedObject, ItemBytes>;

  constructor(private readonly maxBytes: number = PROTOBUF_CACHE_BYTES) {
    // the JSON counted at one byte a character, plus the objects that hold it all
    this.lru = new ByteLRU(maxBytes, (item, v) => encodedLength(item) + v.byteLength + 128);
  }

  bytes(codec: KubeProtobuf, apiVersion: string, listKind: string, item: EncodedObject): Uint8Array {
    const type = codec.listItemType(apiVersion, listKind);
    const hit = this.lru.get(item);
    if (hit && hit.type === type) return hit.bytes;
    const bytes = codec.encodeListItem(apiVersion, listKind, JSON.parse(item.json) as object);
    this.lru.set(item, new ItemBytes(type, bytes));
    return bytes;
  }

  /** The item's bytes, kept ones when the cache has them; else a view valid until the codec's next call, and nothing is kept. */
  view(codec: KubeProtobuf, apiVersion: string, listKind: string, item: EncodedObject): Uint8Array {
    const hit = this.lru.get(item);
    if (hit && hit.type === codec.listItemType(apiVersion, listKind)) return hit.bytes;
    return codec.encodeListItemView(apiVersion, listKind, JSON.parse(item.json) as object);
  }

  /**
   * Whether the items' bytes may be kept: their JSON (and so the bytes made
   * from it) take at most half the bound. A longer list would push out every
   * item before it came round again (each of its lists a miss for every
   * item), so it is encoded without being kept.
   */
  fits(items: readonly EncodedObject[]): boolean {
    let n = 0;
    for (const i of items) if ((n += encodedLength(i)) * 2 > this.maxBytes) return false;
    return true;
  }

  /** Items kept and their weight (for tests and metrics). */
  get stats(): { items: number; weight: number } {
    return { items: this.lru.size, weight: this.lru.weight };
  }
}

const protobufItems = new ProtobufItemCache();

/** The protobuf list (enveloped) of the endpoint's apiVersion from the items' served JSON. */
export function protobufListBody(
  codec: KubeProtobuf,
  listKind: string,
  apiVersion: string,
  metadata: Record<string, unknown>,
  items: EncodedObject[],
  cache: ProtobufItemCache = protobufItems,
): Uint8Array {
  return codec.encodeListOf(
    apiVersion,
    listKind,
    metadata,
    items.map((i) => cache.bytes(codec, apiVersion, listKind, i)),
  );
}

/** About how many bytes each chunk of a streamed protobuf list carries (an item is never split). */
export const PROTOBUF_CHUNK_BYTES = 256 * 1024;

/**
 * The bytes of protobufListBody in chunks of about chunkBytes. Every item is
 * encoded (or found in the cache) here, before the first chunk, for its size:
 * an item that cannot be encoded is an error before anything is sent. The
 * chunks are then made one at a time as they are asked for; an item not kept
 * in the cache is encoded again into the codec's own buffer and copied
 * straight into its chunk (never between two chunks: the codec's buffer may be
 * reused while the stream waits).
 */
export function protobufListChunks(
  codec: KubeProtobuf,
  listKind: string,
  apiVersion: string,
  metadata: Record<string, unknown>,
  items: readonly EncodedObject[],
  cache: ProtobufItemCache = protobufItems,
  chunkBytes: number = PROTOBUF_CHUNK_BYTES,
): Generator<Buffer> {
  const keep = cache.fits(items);
  const sizes = new Uint32Array(items.length);
  for (let i = 0; i < items.length; i++) {
    sizes[i] = (keep ? cache.bytes(codec, apiVersion, listKind, items[i]) : cache.view(codec, apiVersion, listKind, items[i])).byteLength;
  }
  const parts = codec.listParts(apiVersion, listKind, metadata, sizes);
  return writeListChunks(codec, listKind, apiVersion, items, sizes, parts, cache, chunkBytes);
}

function* writeListChunks(
  codec: KubeProtobuf,
  listKind: string,
  apiVersion: string,
  items: readonly EncodedObject[],
  sizes: Uint32Array,
  parts: ListParts,
  cache: ProtobufItemCache,
  chunkBytes: number,
): Generator<Buffer> {
  let out = Buffer.allocUnsafe(Math.max(chunkBytes, parts.head.byteLength));
  out.set(parts.head, 0);
  let at = parts.head.byteLength;
  for (let i = 0; i < items.length; i++) {
    const need = parts.prefixBytes(sizes[i]) + sizes[i];
    if (at + need > out.length) {
      yield out.subarray(0, at);
      out = Buffer.allocUnsafe(Math.max(chunkBytes, need));
      at = 0;
    }
    // from here to the copy, no yield: a view of the codec's buffer is copied before anything else can encode
    const b = cache.view(codec, apiVersion, listKind, items[i]);
    if (b.byteLength !== sizes[i]) throw new Error(`protobuf list: item ${i} encoded to ${b.byteLength} bytes, sized ${sizes[i]}`);
    at = parts.writePrefix(out, at, b.byteLength);
    out.set(b, at);
    at += b.byteLength;
  }
  if (at + parts.tail.byteLength > out.length) {
    yield out.subarray(0, at);
    out = Buffer.allocUnsafe(parts.tail.byteLength);
    at = 0;
  }
  out.set(parts.tail, at);
  yield out.subarray(0, at + parts.tail.byteLength);
}

/**
 * Whole protobuf object bodies (envelope and message in one buffer) of a GET,
 * per cached object, bounded like the item cache: a cached object is one
 * revision, so its bytes never go stale. Answers are shared, never mutated.
 */
export class ProtobufObjectCache {
  private lru: ByteLRU<EncodedObject, ObjectBytes>;

  constructor(maxBytes: number = PROTOBUF_CACHE_BYTES / 2) {
    this.lru = new ByteLRU(maxBytes, (item, v) => encodedLength(item) + v.byteLength + 128);
  }

  body(codec: KubeProtobuf, kind: string, listKind: string, apiVersion: string, item: EncodedObject, items: ProtobufItemCache): Uint8Array {
    const hit = this.lru.get(item);
    if (hit && hit.apiVersion === apiVersion && hit.kind === kind) return hit.bytes;
    const body = codec.encodeObjectOf(apiVersion, kind, items.bytes(codec, apiVersion, listKind, item));
    this.lru.set(item, new ObjectBytes(apiVersion, kind, body));
    return body;
  }

  /** Objects kept and their weight (for tests and metrics). */
  get stats(): { items: number; weight: number } {
    return { items: this.lru.size, weight: this.lru.weight };
  }
}

const protobufObjects = new ProtobufObjectCache();

/** The protobuf object (enveloped) of the endpoint's apiVersion from its served JSON, made once per cached object while it stays in the bounded cache. */
export function protobufObjectBody(
  codec: KubeProtobuf,
  kind: string,
  listKind: string,
  apiVersion: string,
  item: EncodedObject,
  cache: ProtobufItemCache = protobufItems,
  objects: ProtobufObjectCache = protobufObjects,
): Uint8Array {
  return objects.body(codec, kind, listKind, apiVersion, item, cache);
}
