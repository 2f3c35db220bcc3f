// Answers made of objects' served JSON (the watch cache's strings, or the
// stored text with its resourceVersion spliced in) instead of parsed objects:
// a list is its envelope (kind, apiVersion, metadata) around the items'
// strings, written once into one buffer. The bytes are exactly those of
// JSON.stringify of the list object plus the newline encodeBody adds. An
// item stored under another apiVersion than the endpoint's is parsed and
// re-serialized with the endpoint's, as withVersion does for parsed objects.
import type { EncodedObject } from '../storage/interface.ts';

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
