// A watch served straight to its Node response: the stream tells the writer
// synchronously when events arrive, and the writer puts every event waiting
// (up to a batch) in one write, while the socket takes data. When the socket
// asks to wait (its buffer is over the high-water mark) the writer stops
// taking events until it drains, so a client that does not read backs up into
// the stream's bounded queue, which cuts it off, as with the pulled stream.
// A chunked response whose socket is its own can be written to that socket
// directly (chunkedSocketSink): the encoder then frames each batch as an HTTP
// chunk once (chunkFrame), so every watcher of a batch is handed the very same
// bytes and each write is one system call made at once, not three buffers
// gathered on a later tick.
import type { WatchEvent } from '../../storage/interface.ts';
import type { EventQueue } from '../../storage/stream/event-queue.ts';

/** What the writer uses of Node's ServerResponse. */
export interface WatchResponse {
  write(chunk: Uint8Array): boolean;
  end(): unknown;
  destroy(): void;
  once(event: 'drain' | 'close', fn: () => void): unknown;
  readonly writableEnded: boolean;
  readonly destroyed: boolean;
}

/** What chunkedSocketSink uses of a Node socket. */
export interface SinkSocket {
  write(chunk: Uint8Array): boolean;
  once(event: 'drain', fn: () => void): unknown;
  readonly writable: boolean;
  readonly writableNeedDrain: boolean;
  readonly writableLength: number;
  /** The response the socket is writing now (Node's own field). */
  readonly _httpMessage?: unknown;
}

/** What chunkedSocketSink uses of Node's ServerResponse. */
export interface ChunkedResponse extends WatchResponse {
  readonly socket: SinkSocket | null;
  readonly headersSent: boolean;
  /** Node's: the body is sent with chunked transfer coding. */
  readonly chunkedEncoding?: boolean;
}

/**
 * The response's socket as a WatchResponse that takes whole HTTP chunks
 * (chunkFrame) and writes each at once, or undefined when the body cannot be
 * written past the response: it is not chunked (an HTTP/1.0 client), its
 * headers are not out yet, or the socket is still another response's (a
 * pipelined request). The response itself still ends the body (its last
 * chunk), is destroyed, and says when it closes.
 */
export function chunkedSocketSink(res: ChunkedResponse): (WatchResponse & { readonly socket: SinkSocket }) | undefined {
  const socket = res.socket;
  if (!socket || socket._httpMessage !== res || !socket.writable || res.chunkedEncoding !== true || !res.headersSent) return undefined;
  return {
    socket,
    write: (chunk) => socket.write(chunk),
    end: () => res.end(),
    destroy: () => res.destroy(),
    once: (event, fn) => (event === 'drain' ? socket.once('drain', fn) : res.once('close', fn)),
    get writableEnded() {
      return res.writableEnded;
    },
    get destroyed() {
      return res.destroyed;
    },
  };
}

/** Body parts as one HTTP/1.1 chunk: size in hex, CRLF, the bytes, CRLF (one buffer; nothing for no bytes, which would end the body). */
export function chunkFrame(parts: readonly Uint8Array[]): Buffer {
  let size = 0;
  for (const p of parts) size += p.byteLength;
  if (size === 0) return Buffer.alloc(0);
  const head = `${size.toString(16)}\r\n`;
  const out = Buffer.allocUnsafe(head.length + size + 2);
  let at = out.write(head, 0, 'latin1');
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  out[at] = 13;
  out[at + 1] = 10;
  return out;
}

/** Events per write at most (the initial state of a big collection goes out in several). */
const MAX_BATCH = 256;

export interface SocketWatch {
  /** Stops writing and leaves the response as it is (the caller destroys it). */
  abort(): void;
}

/**
 * Writes the stream's events to the response until the stream ends (then
 * ends the response) or the response closes (then stops the stream).
 * encode turns a batch into bytes; errorBytes renders a failure as a last
 * event; onEnd runs once either way.
 */
export function writeWatchToSocket(
  out: WatchResponse,
  stream: EventQueue,
  encode: (events: readonly WatchEvent[]) => Uint8Array,
  errorBytes: (err: unknown) => Uint8Array,
  onEnd: () => void,
): SocketWatch {
  let done = false;
  let waitingForDrain = false;
  const stop = (endResponse: boolean) => {
    if (done) return;
    done = true;
    stream.listen(undefined);
    stream.stop();
    onEnd();
    if (endResponse && !out.writableEnded && !out.destroyed) out.end();
  };
  const pump = (): void => {
    if (done || waitingForDrain) return;
    try {
      for (;;) {
        const events = stream.takeBuffered(MAX_BATCH);
        if (events.length === 0) {
          if (stream.closed) stop(true);
          return;
        }
        if (!out.write(encode(events))) {
          waitingForDrain = true;
          out.once('drain', () => {
            waitingForDrain = false;
            pump();
          });
          return;
        }
      }
    } catch (err) {
      if (!out.writableEnded && !out.destroyed) out.write(errorBytes(err));
      stop(true);
    }
  };
  out.once('close', () => stop(false));
  stream.listen(pump);
  pump();
  return { abort: () => stop(false) };
}
