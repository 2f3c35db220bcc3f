// A watch whose events are converted into the watcher's version before they
// are delivered (for converters that are not a plain apiVersion rewrite).
// Converted events keep the source event's encoding cache: its keys name
// the version, and every watcher of one version gets the same conversion
// (the converter remembers it), so each event is encoded once per version.
// A conversion that fails ends the watch with an ERROR event carrying the
// 500 Status, as a watch that cannot decode an event does upstream.

import { ApiError, errors } from '../../api/errors.ts';
import type { Obj, WatchEvent, WatchStream } from '../../storage/interface.ts';

export function convertedWatch(inner: WatchStream, convert: (obj: Obj) => Promise<Obj>): WatchStream {
  const out: WatchStream = {
    stop: () => inner.stop(),
    async *[Symbol.asyncIterator](): AsyncGenerator<WatchEvent> {
      for await (const ev of inner) {
        if (ev.type === 'ERROR' || ev.type === 'BOOKMARK') {
          yield ev;
          continue;
        }
        let object: Obj;
        try {
          object = await convert(ev.object);
        } catch (err) {
          inner.stop();
          // a plain error (no reason) is an InternalError in a watch, as upstream's watch wraps it
          yield { type: 'ERROR', object: (err instanceof ApiError && err.reason !== '' ? err : errors.internal(err)).status() };
          return;
        }
        yield ev.encoded ? { type: ev.type, object, encoded: ev.encoded } : { type: ev.type, object };
      }
    },
  };
  if (inner.requestProgress) out.requestProgress = () => inner.requestProgress?.();
  return out;
}
