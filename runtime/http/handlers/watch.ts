// WATCH: a chunked stream of `{type, object}` events (one JSON document per
// line), in plain or Table form, ended by the client's timeoutSeconds or the
// server's jittered maximum. A start from a compacted revision is streamed as
// an ERROR event carrying a 410 Status, as kube-apiserver does. Each watch
// holds a slot of the server's watch limits (watch-guard.ts) until it ends;
// a client that stops taking data is cut off after the stall timeout. Events
// that are waiting when the client can take more go out in one write; over a
// socket they are written as they arrive (watch-socket.ts), in-process they
// are pulled through the response's stream.

import type { Obj, WatchEvent, WatchStream } from '../../storage/interface.ts';
import { transformObject } from '../respond.ts';
import { ApiError, errors } from '../../api/errors.ts';
import { ListOptionsInvalidError } from '../../storage/errors.ts';
import { warningHeaderValues } from '../warnings.ts';
import { type RequestContext, groupVersion, negotiate } from './context.ts';
import { boolParam, includeObject, intParam, predicate } from './params.ts';
import { listQuery } from './list.ts';
import { EventQueue } from '../../storage/stream/event-queue.ts';
import { validateWatchOptions } from '../../storage/semantics/options.ts';
import { chunkedSocketSink, chunkFrame, writeWatchToSocket, type ChunkedResponse } from './watch-socket.ts';
import type { WatchMetrics } from '../../metrics/server-metrics.ts';
import { serverLogger } from '../../logging/logger.ts';

/**
 * The last batch of events encoded together, per encoding (and framing: as a
 * body part, or as a whole HTTP chunk for a socket written directly): the
 * watchers of a sweep mostly get the same events, and then share one buffer.
 * Only encodings that depend on nothing but the event and the key are kept
 * here.
 */
const lastBatch = new Map<string, { events: readonly WatchEvent[]; bytes: Uint8Array }>();
/** Batches bigger than this are not kept for the next watcher. */
const MAX_SHARED_BATCH = 1 << 20;

function sameEvents(a: readonly WatchEvent[], b: readonly WatchEvent[]): boolean {
  // the watchers of a sweep are mostly handed the very same array
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The events' bytes as one chunk (the same array when there is one). */
function joinChunks(parts: Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

/** Bytes as a Buffer over the same memory (Node's socket writes take a Buffer without converting it). */
const asBuffer = (u: Uint8Array): Buffer => (Buffer.isBuffer(u) ? u : Buffer.from(u.buffer, u.byteOffset, u.byteLength));

/** What the watch uses of the Node response it is written to. */
interface NodeResponse extends ChunkedResponse {
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  flushHeaders(): void;
  writableNeedDrain: boolean;
  writableLength: number;
  readonly socket: (ChunkedResponse['socket'] & { _handle?: { writeQueueSize?: number } | null }) | null;
}
/** How many watches were written straight to their socket, and how many were pulled through a stream (read by tests). */
export const watchPaths = { socket: 0, pulled: 0 };

/** The longest delay a Node timer takes (about 24.8 days); longer watch timeouts are cut to it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function handleWatch(rc: RequestContext): Promise<Response> {
  const neg = negotiate(rc, true);
  const q = listQuery(rc, true);
  const pred = predicate(rc);
  const timeoutSeconds = intParam(rc, 'timeoutSeconds');
  const allowWatchBookmarks = boolParam(rc, 'allowWatchBookmarks') ?? false;
  const sendInitialEvents = boolParam(rc, 'sendInitialEvents');
  const incl = includeObject(rc, neg);
  const gvKey = `${neg.contentType}|${incl}|${rc.res.def.version}`;
  const plain = neg.target.as === 'object' && neg.encoding === 'json';
  const codec = neg.encoding === 'protobuf' ? await rc.services.protobuf.codec(groupVersion(rc), rc.res.def.kind) : undefined;
  const d = rc.res.def;
  const gv = groupVersion(rc);
  // events come in the watch's version from the store when it converts; otherwise only apiVersion differs
  const withVersion = (obj: Obj): Obj => (obj.apiVersion === gv ? obj : { ...obj, apiVersion: gv });

  const encode = (ev: WatchEvent): Uint8Array => {
    if (codec) {
      // length-prefixed frames of enveloped WatchEvents; bookmarks carry the kind of the resource
      const cached = ev.type !== 'ERROR' ? ev.encoded?.get(gvKey) : undefined;
      if (cached) return cached;
      const obj = ev.type === 'ERROR' ? ev.object : { ...withVersion(ev.object), kind: ev.object.kind ?? d.kind, apiVersion: gv };
      const bytes = asBuffer(codec.encodeWatchEvent(ev.type, obj));
      if (ev.type !== 'ERROR') ev.encoded?.set(gvKey, bytes);
      return bytes;
    }
    if (plain && ev.type !== 'ERROR' && ev.type !== 'BOOKMARK') {
      const cached = ev.encoded?.get(gvKey);
      if (cached) return cached;
      const bytes = Buffer.from(`{"type":"${ev.type}","object":${JSON.stringify(withVersion(ev.object))}}\n`);
      ev.encoded?.set(gvKey, bytes);
      return bytes;
    }
    let object: unknown = ev.object;
    if (ev.type !== 'ERROR' && ev.type !== 'BOOKMARK') {
      object = transformObject(withVersion(ev.object), neg, { def: rc.res.def, includeObject: incl, formatters: rc.services.formatters, cellsFrom: rc.res.store.tableSource(rc.res.def) });
    }
    return Buffer.from(`${JSON.stringify({ type: ev.type, object })}\n`);
  };
  // plain JSON and protobuf events are encoded from the event alone (and cached on it)
  const shareable = !!codec || plain;
  const chunkedKey = `${gvKey}|chunk`;
  // apiserver_registered_watchers and apiserver_watch_events_total of this watch, once it is registered
  let watchMetrics: WatchMetrics | undefined;
  /** A batch's bytes; framed: as one HTTP chunk, for a socket written directly. */
  const encodeBatch = (events: readonly WatchEvent[], framed = false): Uint8Array => {
    watchMetrics?.sent(events.length);
    if (events.length === 1 && !framed) return encode(events[0]);
    const key = framed ? chunkedKey : gvKey;
    const memo = shareable ? lastBatch.get(key) : undefined;
    if (memo && sameEvents(memo.events, events)) return memo.bytes;
    const parts = events.map(encode);
    const bytes = framed ? chunkFrame(parts) : joinChunks(parts);
    if (shareable && bytes.byteLength <= MAX_SHARED_BATCH && events.every((e) => e.type !== 'ERROR')) lastBatch.set(key, { events, bytes });
    return bytes;
  };

  const watchOptions = { resourceVersion: q.resourceVersion, resourceVersionMatch: q.resourceVersionMatch as 'NotOlderThan' | '', sendInitialEvents, allowWatchBookmarks, predicate: pred };
  // a client's watch-list needs the WatchList gate (the store's own watches do not ask it)
  if (sendInitialEvents !== undefined && !rc.services.features.enabled('WatchList')) {
    try {
      validateWatchOptions({ ...watchOptions, recursive: true }, false);
    } catch (err) {
      if (err instanceof ListOptionsInvalidError) throw errors.invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', err.errors);
      throw err;
    }
  }
  // 429 before any work when the server's watch limits are reached
  const slot = rc.services.watches.enter(rc.user);
  watchMetrics = rc.services.metrics?.watchOpened(d.group, d.version, d.kind);
  const longRunningDone = rc.services.metrics?.longRunningStarted(rc.info, undefined);
  const unregister = () => {
    watchMetrics?.closed();
    longRunningDone?.();
  };
  let stream: WatchStream | undefined;
  let initialError: Obj | undefined;
  try {
    stream = await rc.res.store.watch(rc.info.namespace, watchOptions, gv);
  } catch (err) {
    if (err instanceof ApiError && err.code === 410) initialError = err.status();
    else {
      slot.release();
      unregister();
      throw err;
    }
  }

  // as upstream: timeoutSeconds 0 (or none) means the server's jittered default; a negative one ends at once
  const maxSeconds = timeoutSeconds ? timeoutSeconds : rc.services.minRequestTimeoutSeconds * (1 + Math.random());
  let timer: NodeJS.Timeout | undefined;
  const iterator = stream?.[Symbol.asyncIterator]();
  const errorEvent = (err: unknown): Uint8Array => {
    const status = err instanceof ApiError ? err.status() : { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: String(err), reason: 'InternalError', code: 500 };
    return encode({ type: 'ERROR', object: status });
  };
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    slot.release();
    unregister();
  };
  // the Node response when served over a socket (absent for in-process requests)
  const outgoing = (rc.c.env as { outgoing?: NodeResponse } | undefined)?.outgoing;
  // progress: what Node still buffers, and what the socket has yet to hand to the kernel (which
  // shrinks as a big chunk drains; the buffered length changes only when a whole chunk is written)
  if (outgoing) slot.probe = () => ({ blocked: outgoing.writableNeedDrain, progress: outgoing.writableLength + (outgoing.socket?._handle?.writeQueueSize ?? 0) });
  const contentType = codec ? `${neg.contentType};stream=watch` : neg.contentType;
  // ASCII only: the headers of a streamed body cannot carry raw UTF-8 here (warnings.ts)
  const warnings = warningHeaderValues(rc.warnings, undefined, { ascii: true });

  // Over a socket: events are written as the stream receives them, several at once when waiting,
  // none while the socket asks to wait (watch-socket.ts); the response is ours from here on. When the
  // socket is this response's, batches go to it as chunks framed once and shared by every watcher of
  // the batch, each write made at once (inside the fan-out's slice, whose time budget then counts it).
  if (outgoing && stream instanceof EventQueue && rc.c.req.method === 'GET') {
    watchPaths.socket++;
    const head: Record<string, string | string[]> = { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' };
    if (warnings.length) head['Warning'] = warnings;
    outgoing.writeHead(200, head);
    outgoing.flushHeaders();
    const s = stream;
    timer = setTimeout(() => s.stop(), Math.min(MAX_TIMER_MS, Math.max(0, maxSeconds) * 1000));
    // the socket itself when it is this response's, each batch framed once as a chunk and shared
    const sink = chunkedSocketSink(outgoing);
    if (sink) {
      const socket = sink.socket;
      slot.probe = () => ({ blocked: socket.writableNeedDrain, progress: socket.writableLength + (outgoing.socket?._handle?.writeQueueSize ?? 0) });
    }
    const writer = sink
      ? writeWatchToSocket(
          sink,
          s,
          (events) => encodeBatch(events, true),
          (err) => chunkFrame([errorEvent(err)]),
          finish,
        )
      : writeWatchToSocket(outgoing, s, encodeBatch, errorEvent, finish);
    slot.onStall = () => {
      serverLogger().warning(`watch ${rc.info.path} ended: its client took no data for ${rc.services.watches.stallTimeoutMs} ms`);
      finish();
      writer.abort();
      // the socket cannot drain: close it
      if (!outgoing.writableEnded) outgoing.destroy();
    };
    return new Response(null, { headers: { 'x-hono-already-sent': '1' } });
  }

  watchPaths.pulled++;
  // Pull-based: the next event is read only when the client has taken the last one, so a
  // slow client backs up into storage's bounded queue (which cuts it off), not into memory here;
  // one that takes nothing for the stall timeout is cut off by the watch guard.
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (initialError || !stream) {
          finish();
          controller.enqueue(encode({ type: 'ERROR', object: initialError! }));
          controller.close();
          return;
        }
        const s = stream;
        timer = setTimeout(() => s.stop(), Math.min(MAX_TIMER_MS, Math.max(0, maxSeconds) * 1000));
        slot.onStall = () => {
          serverLogger().warning(`watch ${rc.info.path} ended: its client took no data for ${rc.services.watches.stallTimeoutMs} ms`);
          finish();
          s.stop();
          // the socket cannot drain: close it (an in-process caller sees its stream fail instead);
          // a response already ended (HEAD) leaves its connection alone
          if (outgoing) {
            if (!outgoing.writableEnded) outgoing.destroy();
          } else {
            try {
              controller.error(new Error('watch ended: the client took no data'));
            } catch {
              /* already closed */
            }
          }
        };
      },
      async pull(controller) {
        if (!iterator) return;
        slot.waitingSince = undefined;
        try {
          const { value, done } = await iterator.next();
          if (done) {
            finish();
            controller.close();
            return;
          }
          // what else is already waiting goes out in the same write
          const more = stream?.takeBuffered?.(255) ?? [];
          controller.enqueue(encodeBatch(more.length ? [value, ...more] : [value]));
          if (!finished) slot.waitingSince = Date.now();
        } catch (err) {
          finish();
          try {
            controller.enqueue(errorEvent(err));
            controller.close();
          } catch {
            /* cancelled meanwhile */
          }
        }
      },
      cancel() {
        finish();
        stream?.stop();
      },
    },
    { highWaterMark: 1 },
  );
  const headers = new Headers({ 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' });
  for (const w of warnings) headers.append('Warning', w);
  return new Response(body, { status: 200, headers });
}
