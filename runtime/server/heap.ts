// The V8 heap policy of the server process (`npm start`, dist/cli.js), not
// of a program that imports the library.
// - Old generation: when full collections are fast, V8 lets it grow to up
//   to four times what survived the last one, and a server that took a
//   burst of writes then stays at that size while idle (nothing allocates,
//   so nothing collects). The CLI asks for a growth of 2× instead, what Go's
//   runtime (kube-apiserver's) does by default: about 40 MB less resident
//   memory with 100,000 objects held (bench/http/rss.ts), for no measurable
//   CPU per create (bench/http/create.ts).
// - Young generation: V8 doubles it (up to 16 MB a semi-space, 32 MB in
//   all) whenever what survived its collections since it last grew exceeds
//   its size. A start survives almost everything it allocates (code, the API
//   index, the stores), so the young generation grew to 8 or 16 MB during
//   start-up and stayed that size, touched and resident, while the server
//   was idle. Until the server is ready it keeps its initial size (the
//   objects a start keeps move to the old generation, where they belong, a
//   few more small collections on the way). From then on it grows as V8's
//   does, up to YOUNG_GENERATION_CAP_MB (4 MB a semi-space) rather than 32:
//   once writes came in, the young generation's 32 MB were a fixed part of
//   the resident memory whatever the server held (about 20 MB less RSS with
//   20,000 objects, bench/http/rss.ts, for CPU per create within the
//   measurement's noise; a 1 MB semi-space cost about a third more CPU per
//   create). V8 reads its maximum only when the heap is made, so the cap is
//   the growth factor, set after each scavenge (a `gc` performance entry)
//   from the size reached: doubling below the cap, none at it. Watching
//   every scavenge costs a callback per collection (about 600 instructions
//   of a GET's 116,000 under load with the young generation at its cap,
//   more when it is smaller), so it watches only while it is under the
//   cap: once there (growth 1×, it cannot grow) it stops, and a slow
//   unref'd timer (CAP_RECHECK_MS) reads the size instead. V8 shrinks the
//   young generation on its own when little is allocated; when the timer
//   sees it under the cap, growth is 2× again and scavenges are watched
//   until it is back at the cap (it may stay shrunk up to CAP_RECHECK_MS
//   longer than V8 alone would keep it).
// - Streamed answers: the chunks of a big list are buffers outside the heap,
//   garbage once sent, that only a collection frees; a server gone idle
//   after the list runs none, and V8 starts one for such buffers only at
//   64 MB of them (a LIST of 100,000 objects left about 30 MB resident).
//   Once COLLECT_AFTER_STREAMED_BYTES were streamed (http/streamed-bytes.ts
//   reports each answer at its end), the young generation is collected, on
//   the next turn: the chunks' objects are young (nothing keeps them), so it
//   frees them, and it costs what the few objects that survive it cost,
//   about a millisecond; glibc then gives the pages back. That frees only
//   the chunks that are still young: a chunk that survived two scavenges
//   while the socket held it (in flight, or queued behind a slow reader) is
//   promoted to the old generation, which only a full collection frees.
//   A LIST of 100,000 objects (105 MB) left 80 to 150 of its 420 chunks
//   there (20 to 37 MB resident) after it ended, and their free pages kept
//   glibc's heap from shrinking. So once an answer ended and
//   FULL_COLLECT_AFTER_STREAMED_BYTES were streamed since the last full
//   collection, a full collection runs on the next turn instead: it frees
//   every chunk left, young or promoted, and the old generation's garbage
//   with them (the RSS after such a LIST fell below what the server held
//   before it, bench/http/rss.ts: 244 MB against 281 MB). Its cost is a
//   full collection's (with 100,000 objects held, those V8 ran on its own
//   took 5 to 100 ms of wall time each on a 2-core machine at load 16 to
//   20), once per 32 MB of answers at most; that LIST ran one full
//   collection either way (V8 starts one itself once 64 MB of buffers were
//   allocated), now after its end rather than in its middle.
//   V8 offers the call only with --expose-gc, which this sets for a context
//   of its own and clears again: the program's global `gc` stays undefined.

import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { onStreamedBytes } from '../http/streamed-bytes.ts';

/** The old generation's growth past its live size after a full collection, in percent (Go's GOGC default). */
export const HEAP_GROWING_PERCENT = 100;

/** V8's factor for growing the young generation (its default), restored once the server is ready while it is under the cap. */
export const SEMI_SPACE_GROWTH_FACTOR = 2;

/** The young generation's size (both semi-spaces) past which it does not grow once the server is ready, in MB. */
export const YOUNG_GENERATION_CAP_MB = 8;

/** The young generation's size now, in MB. */
export function youngGenerationMB(): number {
  for (const s of getHeapSpaceStatistics()) if (s.space_name === 'new_space') return s.space_size / 2 ** 20;
  return 0;
}

/** Bytes of streamed answers after which the young generation is collected, their chunks freed. */
export const COLLECT_AFTER_STREAMED_BYTES = 8 * 2 ** 20;

/** Bytes of streamed answers since the last full collection after which the end of an answer starts one (its promoted chunks freed too). */
export const FULL_COLLECT_AFTER_STREAMED_BYTES = 32 * 2 ** 20;

/** V8's collection call: with no options, a full collection; with type 'minor', the young generation's. */
type CollectGarbage = (options?: { type: 'minor' }) => void;

/** V8's collection call, from a context of its own. */
function collector(): CollectGarbage {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as CollectGarbage;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/**
 * Once an answer ended, a collection on the next turn: a full one when
 * FULL_COLLECT_AFTER_STREAMED_BYTES were streamed since the last, else a
 * young-generation one after every COLLECT_AFTER_STREAMED_BYTES.
 */
function collectAfterStreamedAnswers(): void {
  // the context is made on first use: a start that streams nothing does not pay for it
  let collect: CollectGarbage | undefined;
  let streamed = 0;
  let sinceFull = 0;
  onStreamedBytes((bytes) => {
    streamed += bytes;
    sinceFull += bytes;
    if (streamed < COLLECT_AFTER_STREAMED_BYTES) return;
    streamed = 0;
    collect ??= collector();
    if (sinceFull >= FULL_COLLECT_AFTER_STREAMED_BYTES) {
      sinceFull = 0;
      setImmediate(() => collect!());
    } else setImmediate(() => collect!({ type: 'minor' }));
  });
}

/** How often the young generation's size is read while it is at its cap (nothing watches scavenges then), in ms. */
export const CAP_RECHECK_MS = 2000;

let growthFactor = 0;
let ready = false;
/** Watches scavenges while the young generation is under the cap. */
let capping: PerformanceObserver | undefined;
/** Reads the young generation's size while it is at the cap. */
let recheck: NodeJS.Timeout | undefined;

/** Whether scavenges are watched now (the young generation under its cap) rather than its size read by a slow timer. */
export function watchingScavenges(): boolean {
  return capping !== undefined;
}

/** Lets the young generation double at its next growth while it is under the cap, not past it; watches scavenges only while under it. */
function capYoungGeneration(): void {
  const atCap = youngGenerationMB() >= YOUNG_GENERATION_CAP_MB;
  const factor = atCap ? 1 : SEMI_SPACE_GROWTH_FACTOR;
  if (factor !== growthFactor) {
    growthFactor = factor;
    setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  }
  if (atCap) {
    capping?.disconnect();
    capping = undefined;
    recheck ??= setInterval(capYoungGeneration, CAP_RECHECK_MS).unref();
  } else {
    if (recheck) clearInterval(recheck);
    recheck = undefined;
    if (!watchingScavenges()) {
      capping = new PerformanceObserver(capYoungGeneration);
      capping.observe({ entryTypes: ['gc'] });
    }
  }
}

/** Applies the server process's heap policy (the young generation held at its size until startupDone(), streamed answers' chunks freed); call first thing in the CLI. */
export function tuneServerHeap(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  setFlagsFromString('--semi-space-growth-factor=1');
  growthFactor = 1;
  collectAfterStreamedAnswers();
}

/** The server is ready: the young generation grows again as V8 decides, up to YOUNG_GENERATION_CAP_MB. */
export function startupDone(): void {
  if (ready) return;
  ready = true;
  capYoungGeneration();
}
