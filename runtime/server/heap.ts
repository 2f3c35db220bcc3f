// The V8 heap policy of the server process (`npm start`, dist/cli.js), not
// of a program that imports the library. When full collections are fast,
// V8 lets the old generation grow to up to four times what survived the
// last one, and a server that took a burst of writes then stays at that
// size while idle (nothing allocates, so nothing collects). The CLI asks
// for a growth of 2× instead, what Go's runtime (kube-apiserver's) does by
// default: about 40 MB less resident memory with 100,000 objects held
// (bench/http/rss.ts), for no measurable CPU per create (bench/http/create.ts).

import { setFlagsFromString } from 'node:v8';

/** The old generation's growth past its live size after a full collection, in percent (Go's GOGC default). */
export const HEAP_GROWING_PERCENT = 100;

/** Applies the server process's heap policy; call once, first thing in the CLI. */
export function tuneServerHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
