// WATCH: a chunked stream of `{type, object}` events (one JSON document per
// line), in plain or Table form, ended by the client's timeoutSeconds or the
// server's jittered maximum. A start from a compacted revision is streamed as
// an ERROR event carrying a 410 Status, as kube-apiserver does.

import type { Obj, WatchEvent, WatchStream } from '../../storage/interface.ts';
import { transformObject } from '../respond.ts';
import { ApiError } from '../status.ts';
import { type RequestContext, groupVersion, negotiate } from './context.ts';
import { boolParam, includeObject, intParam, predicate } from './params.ts';
import { withVersion } from './get.ts';
import { listQuery } from './list.ts';

const encoder = new TextEncoder();

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
  const codec = neg.encoding === 'protobuf' ? await rc.services.protobuf.codec() : undefined;
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
    else throw err;
  }

  const maxSeconds = timeoutSeconds ?? rc.services.minRequestTimeoutSeconds * (1 + Math.random());
  let timer: NodeJS.Timeout | undefined;
  const iterator = stream?.[Symbol.asyncIterator]();
  const errorEvent = (err: unknown): Uint8Array => {
    const status = err instanceof ApiError ? err.status() : { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: String(err), reason: 'InternalError', code: 500 };
    return encode({ type: 'ERROR', object: status });
  };
  // Pull-based: the next event is read only when the client has taken the last one, so a
  // slow client backs up into storage's bounded queue (which cuts it off), not into memory here.
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (initialError || !stream) {
        controller.enqueue(encode({ type: 'ERROR', object: initialError! }));
        controller.close();
        return;
      }
      const s = stream;
      timer = setTimeout(() => s.stop(), Math.max(0, maxSeconds) * 1000);
    },
    async pull(controller) {
      if (!iterator) return;
      try {
        const { value, done } = await iterator.next();
        if (done) {
          clearTimeout(timer);
          controller.close();
          return;
        }
        controller.enqueue(encode(value));
      } catch (err) {
        clearTimeout(timer);
        try {
          controller.enqueue(errorEvent(err));
          controller.close();
        } catch { /* cancelled meanwhile */ }
      }
    },
    cancel() {
      clearTimeout(timer);
      stream?.stop();
    },
  }, { highWaterMark: 1 });
  const contentType = codec ? `${neg.contentType};stream=watch` : neg.contentType;
  const headers = new Headers({ 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' });
  for (const w of rc.warnings) headers.append('Warning', `299 - ${JSON.stringify(w)}`);
  return new Response(body, { status: 200, headers });
}
