// A watch served straight to its Node response: the stream tells the writer
// synchronously when events arrive, and the writer puts every event waiting
// (up to a batch) in one write, while the socket takes data. When the socket
// asks to wait (its buffer is over the high-water mark) the writer stops
// taking events until it drains, so a client that does not read backs up into
// the stream's bounded queue, which cuts it off, as with the pulled stream.
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
export function writeWatchToSocket(out: WatchResponse, stream: EventQueue, encode: (events: WatchEvent[]) => Uint8Array, errorBytes: (err: unknown) => Uint8Array, onEnd: () => void): SocketWatch {
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
