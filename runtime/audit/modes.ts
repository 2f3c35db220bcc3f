// The modes of an audit backend (--audit-log-mode, --audit-webhook-mode), as
// upstream wraps its backends: `batch` queues events and writes them later
// (buffered.ts); `blocking` writes each event as it is taken and the
// request waits for the write, its failure reported but not the request's
// (upstream's ignoreErrors wrapper); `blocking-strict` is `blocking` whose
// failures are the request's too: an event of stage RequestReceived that
// cannot be written fails the request (the request path decides that,
// from the answer `false`).

import type { AuditBackend, EventText, Stored } from './sink.ts';
import type { AuditEvent } from './event.ts';
import { type AuditWriter, type BatchConfig, bufferedBackend, type BufferedDeps } from './buffered.ts';

export type BackendMode = 'blocking' | 'blocking-strict' | 'batch';

export interface ModeOptions {
  /** `log` or `webhook`, for messages. */
  plugin: string;
  mode: BackendMode;
  writer: AuditWriter;
  /** An event's text as the writer takes it. */
  format: (ev: AuditEvent, json: EventText) => EventText;
  batch: BatchConfig;
}

export function modeBackend(o: ModeOptions, deps: BufferedDeps): AuditBackend {
  if (o.mode === 'batch') return bufferedBackend(o.plugin, o.writer, o.format, o.batch, deps);
  const strict = o.mode === 'blocking-strict';
  const pending = new Set<Promise<unknown>>();
  const written = (ok: boolean) => ok || !strict;
  return {
    blocking: true,
    process(ev, json): Stored {
      let out: boolean | Promise<boolean>;
      try {
        out = o.writer.write([o.format(ev, json)]);
      } catch (err) {
        deps.warn(`Error in audit plugin '${o.plugin}' affecting 1 audit events: ${(err as Error).message}`);
        deps.failed?.(o.plugin, 1);
        return written(false);
      }
      if (typeof out === 'boolean') return written(out);
      const p = out.then(written, () => written(false));
      pending.add(p);
      void p.then(() => pending.delete(p));
      return p;
    },
    async flush() {
      await Promise.all(pending);
    },
    async close() {
      await Promise.all(pending);
      await o.writer.close();
    },
  };
}
