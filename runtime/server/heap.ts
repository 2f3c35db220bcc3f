// The V8 heap policy of the server process (`npm start`, dist/cli.js), not
// of a program that imports the library.
// - Old generation: when full collections are fast, V8 lets it grow to up
//   to four times what survived the last one, and a server that took a
//   burst of writes then stays at that size while idle (nothing allocates,
//   so nothing collects). The CLI asks for a growth of 2× instead, what Go's
//   runtime (kube-apiserver's) does by default: about 40 MB less resident
//   memory with 100,000 objects held (bench/http/rss.ts), for no measurable
//   CPU per create (bench/http/create.ts).
// - Young generation: V8 doubles it (up to 16 MB a semi-space) whenever
//   what survived its collections since it last grew exceeds its size. A
//   start survives almost everything it allocates (code, the API index,
//   the stores), so the young generation grew to 8 or 16 MB during start-up
//   and stayed that size, touched and resident, while the server was idle.
//   Until the server is ready it keeps its initial size (the objects a start
//   keeps move to the old generation, where they belong, a few more small
//   collections on the way); from then on V8 grows it as it would.

import { setFlagsFromString } from 'node:v8';

/** The old generation's growth past its live size after a full collection, in percent (Go's GOGC default). */
export const HEAP_GROWING_PERCENT = 100;

/** V8's factor for growing the young generation (its default), restored once the server is ready. */
export const SEMI_SPACE_GROWTH_FACTOR = 2;

/** Applies the server process's heap policy, with the young generation held at its size until startupDone(); call first thing in the CLI. */
export function tuneServerHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  setFlagsFromString('--semi-space-growth-factor=1');
}

/** The server is ready: the young generation grows again as V8 decides. */
export function startupDone(): void {
  setFlagsFromString(`--semi-space-growth-factor=${SEMI_SPACE_GROWTH_FACTOR}`);
}
