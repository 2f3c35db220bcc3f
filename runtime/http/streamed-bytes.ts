// What streamed answers (big lists, list-stream.ts) leave behind: each chunk
// is a buffer of its own outside the JavaScript heap, garbage once the
// socket has taken it, but freed only by a garbage collection, and a server
// that has answered and gone idle runs none (V8 starts one for such buffers
// only once they add up to 64 MB). A LIST of 20,000 objects left its 21 MB
// of chunks resident, one of 100,000 about 30 MB. This module is where a
// streamed answer reports the bytes it sent, once it ended (sent in full or
// cut short); what to do about them is the process's heap policy
// (runtime/server/heap.ts sets it for the server process); a program that
// imports the library sets none and nothing is done.

/** Called with the bytes of each streamed answer, once it ended. */
export type StreamedBytesHook = (bytes: number) => void;

let hook: StreamedBytesHook | undefined;

/** Sets (or, with undefined, clears) what is done once a streamed answer ended. */
export function onStreamedBytes(h: StreamedBytesHook | undefined): void {
  hook = h;
}

/** chunks as they are, reporting how many bytes were taken from them once they end or are let go. */
export function* reportingStreamed(chunks: Generator<Buffer>): Generator<Buffer> {
  let bytes = 0;
  try {
    for (const c of chunks) {
      bytes += c.byteLength;
      yield c;
    }
  } finally {
    hook?.(bytes);
  }
}
