// Big JSON lists written as a stream: the envelope and the items' served JSON
// in chunks of about LIST_CHUNK_BYTES, each made when the socket has taken the
// one before (so a list of 10,000 objects is never one 11 MB buffer plus its
// copies, and its memory is freed chunk by chunk), sent with chunked transfer
// encoding and no Content-Length, as kube-apiserver 1.31 sends a large list
// (its response writer never sets one: Go's server chunks any body that does
// not fit its 2 KiB buffer). Gzip, when the client takes it, runs on the
// stream at level 1 (upstream's level). The bytes are those listBody gives.
// How many were sent is reported once the answer ended (streamed-bytes.ts:
// the server process then frees the chunks left behind).
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { GZIP_THRESHOLD_BYTES } from '../api/k8s-names.ts';
import type { EncodedObject } from '../storage/interface.ts';
import { encodedLength, itemPiece, pieceBytes, writePiece, type Piece } from './encoded-list.ts';
import { acceptsGzip, responseHeaders, type ResponseOptions } from './respond.ts';
import { reportingStreamed } from './streamed-bytes.ts';

/** Lists whose items' JSON passes this many characters are streamed; smaller ones go out as one buffer. */
export const STREAM_LIST_BYTES = 256 * 1024;
/** About how much of the list each chunk carries (an item is never split). */
export const LIST_CHUNK_BYTES = 256 * 1024;

/** Whether the items' JSON passes `bytes` bytes (counting a string's characters: a lower bound of its UTF-8 size). */
export function listAtLeast(items: EncodedObject[], bytes: number): boolean {
  let n = 0;
  for (const i of items) if ((n += encodedLength(i)) > bytes) return true;
  return false;
}

/** The bytes of listBody(kind, apiVersion, metadata, items), in chunks of about chunkBytes. */
export function* listChunks(kind: string, apiVersion: string, metadata: Record<string, unknown>, items: EncodedObject[], chunkBytes = LIST_CHUNK_BYTES): Generator<Buffer> {
  const head = `{"kind":${JSON.stringify(kind)},"apiVersion":${JSON.stringify(apiVersion)},"metadata":${JSON.stringify(metadata)},"items":[`;
  let texts: Piece[] = [head];
  let size = Buffer.byteLength(head);
  const flush = (): Buffer => {
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    for (const t of texts) at += writePiece(out, t, at);
    texts = [];
    size = 0;
    return out;
  };
  for (let i = 0; i < items.length; i++) {
    if (i > 0) {
      texts.push(',');
      size++;
    }
    const t = itemPiece(items[i], apiVersion);
    texts.push(t);
    size += pieceBytes(t);
    if (size >= chunkBytes) yield flush();
  }
  texts.push(']}\n');
  size += 3;
  yield flush();
}

/** A response streaming `chunks` (gzipped when the client takes it), made as the socket drains; its bytes are reported once it ends (streamed-bytes.ts). */
export function streamedResponse(source: Generator<Buffer>, contentType: string, opts: ResponseOptions): Response {
  const chunks = reportingStreamed(source);
  const gzip = acceptsGzip(opts.acceptEncoding);
  const headers = gzip ? responseHeaders(contentType, opts, { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' }) : responseHeaders(contentType, opts);
  let body: ReadableStream<Uint8Array>;
  if (gzip) {
    const source = Readable.from(chunks, { objectMode: false, highWaterMark: 1 });
    body = Readable.toWeb(source.pipe(createGzip({ level: 1, chunkSize: GZIP_THRESHOLD_BYTES }))) as unknown as ReadableStream<Uint8Array>;
  } else {
    body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        },
        cancel() {
          chunks.return(undefined);
        },
      },
      { highWaterMark: 0 },
    );
  }
  return new Response(body as unknown as BodyInit, { status: opts.status ?? 200, headers });
}
