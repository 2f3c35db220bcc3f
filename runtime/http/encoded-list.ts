// Answers made of objects' served JSON (the watch cache's strings, or the
// stored text with its resourceVersion spliced in) instead of parsed objects:
// a list is its envelope (kind, apiVersion, metadata) around the items'
// strings, written once into one buffer. The bytes are exactly those of
// JSON.stringify of the list object plus the newline encodeBody adds. An
// item stored under another apiVersion than the endpoint's is parsed and
// re-serialized with the endpoint's, as withVersion does for parsed objects.
// In protobuf, each item's message bytes are made once per object (parsed
// from its JSON) and kept beside the cached object while it is current, so a
// list is the list envelope around them and a get is the object envelope.
import type { EncodedObject } from '../storage/interface.ts';
import type { KubeProtobuf } from '../codec/protobuf/index.ts';

/** An item's JSON as the endpoint of `apiVersion` serves it. */
export function itemJSON(item: EncodedObject, apiVersion: string): string {
  if (item.apiVersion === apiVersion) return item.json;
  return JSON.stringify({ ...JSON.parse(item.json), apiVersion });
}

/** One object's body: its JSON and a newline. */
export function objectBody(item: EncodedObject, apiVersion: string): string {
  return `${itemJSON(item, apiVersion)}\n`;
}

const COMMA = 44;

/** `{"kind":...,"apiVersion":...,"metadata":...,"items":[...]}` and a newline, as bytes. */
export function listBody(kind: string, apiVersion: string, metadata: Record<string, unknown>, items: EncodedObject[]): Buffer {
  const head = `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(metadata)},"items":[`;
  const tail = ']}\n';
  const texts = new Array<string>(items.length);
  let size = Buffer.byteLength(head) + tail.length + Math.max(0, items.length - 1);
  for (let i = 0; i < items.length; i++) {
    const t = itemJSON(items[i], apiVersion);
    texts[i] = t;
    size += Buffer.byteLength(t);
  }
  const out = Buffer.allocUnsafe(size);
  let at = out.write(head, 0);
  for (let i = 0; i < texts.length; i++) {
    if (i > 0) out[at++] = COMMA;
    at += out.write(texts[i], at);
  }
  at += out.write(tail, at);
  if (at !== size) throw new Error(`list body: wrote ${at} of ${size} bytes`);
  return out;
}

/** Message bytes per item message type, per cached object (gone with the object). */
const protobufItems = new Map<string, WeakMap<EncodedObject, Uint8Array>>();

function itemProtobuf(codec: KubeProtobuf, apiVersion: string, listKind: string, item: EncodedObject): Uint8Array {
  const type = codec.listItemType(apiVersion, listKind);
  let byItem = protobufItems.get(type);
  if (!byItem) protobufItems.set(type, (byItem = new WeakMap()));
  let bytes = byItem.get(item);
  if (!bytes) {
    bytes = codec.encodeListItem(apiVersion, listKind, JSON.parse(item.json) as object);
    byItem.set(item, bytes);
  }
  return bytes;
}

/** The protobuf list (enveloped) of the endpoint's apiVersion from the items' served JSON. */
export function protobufListBody(codec: KubeProtobuf, listKind: string, apiVersion: string, metadata: Record<string, unknown>, items: EncodedObject[]): Uint8Array {
  return codec.encodeListOf(
    apiVersion,
    listKind,
    metadata,
    items.map((i) => itemProtobuf(codec, apiVersion, listKind, i)),
  );
}

/** Whole object bodies (envelope and message in one buffer) per apiVersion and kind, per cached object (gone with the object). */
const protobufObjects = new Map<string, WeakMap<EncodedObject, Uint8Array>>();

/**
 * The protobuf object (enveloped) of the endpoint's apiVersion from its
 * served JSON, made once per cached object: a cached object is one revision
 * of it, so the bytes never go stale. The answer is shared: never mutated.
 */
export function protobufObjectBody(codec: KubeProtobuf, kind: string, listKind: string, apiVersion: string, item: EncodedObject): Uint8Array {
  const type = `${apiVersion}\0${kind}`;
  let byItem = protobufObjects.get(type);
  if (!byItem) protobufObjects.set(type, (byItem = new WeakMap()));
  let body = byItem.get(item);
  if (!body) {
    body = codec.encodeObjectOf(apiVersion, kind, itemProtobuf(codec, apiVersion, listKind, item));
    byItem.set(item, body);
  }
  return body;
}
