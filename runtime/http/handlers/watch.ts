// WATCH: a chunked stream of `{type, object}` events (one JSON document per
// line), in plain or Table form, ended by the client's timeoutSeconds or the
// server's jittered maximum. A start from a compacted revision is streamed as
// an ERROR event carrying a 410 Status, as kube-apiserver does. Each watch
// holds a slot of the server's watch limits (watch-guard.ts) until it ends;
// a client that stops taking data is cut off after the stall timeout.

import type { Obj, WatchEvent, WatchStream } from '../../storage/interface.ts';
import { transformObject } from '../respond.ts';
import { ApiError } from '../../api/errors.ts';
import { warningHeaderValues } from '../warnings.ts';
import { type RequestContext, groupVersion, negotiate } from './context.ts';
import { boolParam, includeObject, intParam, predicate } from './params.ts';
import { withVersion } from './get.ts';
import { listQuery } from './list.ts';

const encoder = new TextEncoder();

/** What the watch uses of the Node response it is written to. */
interface NodeResponse {
  destroy(): void;
  writableNeedDrain: boolean;
  writableLength: number;
  writableEnded: boolean;
  socket?: { _handle?: { writeQueueSize?: number } | null } | null;
}
/** The longest delay a Node timer takes (about 24.8 days); longer watch timeouts are cut to it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function handleWatch(rc: RequestContext): Promise<Response> {
  const neg = negotiate(rc, true);
  const q = listQuery(rc, true);
  const pred = predicate(rc);
  const timeoutSeconds = intParam(rc, 'timeoutSeconds');
  const allowWatchBookmarks = boolParam(rc, 'allowWatchBookmarks') ?? false;
  const sendInitialEvents = boolParam(rc, 'sendInitialEvents');
  const incl = includeObject(rc);
  const gvKey = `${neg.contentType}|${incl}|${rc.res.def.version}`;
  const plain = neg.target.as === 'object' && neg.encoding === 'json';
  const codec = neg.encoding === 'protobuf' ? await rc.services.protobuf.codec(groupVersion(rc), rc.res.def.kind) : undefined;
  const d = rc.res.def;
  const gv = groupVersion(rc);

  const encode = (ev: WatchEvent): Uint8Array => {
    if (codec) {
      // length-prefixed frames of enveloped WatchEvents; bookmarks carry the kind of the resource
      const cached = ev.type !== 'ERROR' ? ev.encoded?.get(gvKey) : undefined;
      if (cached) return cached;
      const obj = ev.type === 'ERROR' ? ev.object : { ...withVersion(ev.object, rc), kind: ev.object.kind ?? d.kind, apiVersion: gv };
      const bytes = codec.encodeWatchEvent(ev.type, obj);
      if (ev.type !== 'ERROR') ev.encoded?.set(gvKey, bytes);
      return bytes;
    }
    if (plain && ev.type !== 'ERROR' && ev.type !== 'BOOKMARK') {
      const cached = ev.encoded?.get(gvKey);
      if (cached) return cached;
      const bytes = encoder.encode(`{"type":"${ev.type}","object":${JSON.stringify(withVersion(ev.object, rc))}}\n`);
      ev.encoded?.set(gvKey, bytes);
      return bytes;
    }
    let object: unknown = ev.object;
    if (ev.type !== 'ERROR' && ev.type !== 'BOOKMARK') {
      object = transformObject(withVersion(ev.object, rc), neg, { def: rc.res.def, includeObject: incl, formatters: rc.services.formatters });
    }
    return encoder.encode(`${JSON.stringify({ type: ev.type, object })}\n`);
  };

  // 429 before any work when the server's watch limits are reached
  const slot = rc.services.watches.enter(rc.user);
  let stream: WatchStream | undefined;
  let initialError: Obj | undefined;
  try {
    stream = await rc.res.store.watch(rc.info.namespace, {
      resourceVersion: q.resourceVersion,
      resourceVersionMatch: q.resourceVersionMatch as 'NotOlderThan' | '',
      sendInitialEvents,
      allowWatchBookmarks,
      predicate: pred,
    });
  } catch (err) {
    if (err instanceof ApiError && err.code === 410) initialError = err.status();
    else {
      slot.release();
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
  };
  // the Node response when served over a socket (absent for in-process requests)
  const outgoing = (rc.c.env as { outgoing?: NodeResponse } | undefined)?.outgoing;
  // progress: what Node still buffers, and what the socket has yet to hand to the kernel (which
  // shrinks as a big chunk drains; the buffered length changes only when a whole chunk is written)
  if (outgoing) slot.probe = () => ({ blocked: outgoing.writableNeedDrain, progress: outgoing.writableLength + (outgoing.socket?._handle?.writeQueueSize ?? 0) });
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
          console.warn(`watch ${rc.info.path} ended: its client took no data for ${rc.services.watches.stallTimeoutMs} ms`);
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
          controller.enqueue(encode(value));
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
  const contentType = codec ? `${neg.contentType};stream=watch` : neg.contentType;
  const headers = new Headers({ 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' });
  // ASCII only: the headers of a streamed body cannot carry raw UTF-8 here (warnings.ts)
  for (const w of warningHeaderValues(rc.warnings, undefined, { ascii: true })) headers.append('Warning', w);
  return new Response(body, { status: 200, headers });
}
