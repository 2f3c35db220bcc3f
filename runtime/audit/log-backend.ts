// The log backend of --audit-log-path: one line per event, the event's JSON
// (--audit-log-format=json, the default) or upstream's one-line legacy text,
// appended to a rotating file (rotating-file.ts) or written to standard
// output for `-`. Lines are queued and written in order after the request's
// turn (setImmediate), all that waited in one write; in batch mode at most --audit-log-batch-buffer-size
// lines wait (more are dropped, as upstream's buffered backend drops them)
// and a batch holds at most --audit-log-batch-max-size lines. A write that
// fails is reported once per failure and the lines are lost, as upstream
// logs and goes on.

import type { AuditBackend } from './sink.ts';
import { type AuditEvent, legacyLine } from './event.ts';
import { RotatingFile, type RotationOptions } from './rotating-file.ts';

export type LogFormat = 'json' | 'legacy';
export type BackendMode = 'blocking' | 'blocking-strict' | 'batch';

export interface LogBackendOptions extends RotationOptions {
  /** A file path, or '-' for standard output. */
  path: string;
  format: LogFormat;
  mode: BackendMode;
  /** Batch mode: lines waiting before more are dropped (upstream default 10000). */
  bufferSize: number;
  /** Batch mode: lines per write (upstream's log default 1). */
  maxBatchSize: number;
  /** Where failures are reported. */
  warn?: (msg: string) => void;
  /** Standard output (tests replace it). */
  stdout?: { write(text: string): unknown };
}

export function logBackend(opts: LogBackendOptions): AuditBackend {
  const file = opts.path === '-' ? undefined : new RotatingFile(opts.path, opts);
  const out = opts.stdout ?? process.stdout;
  const warn = opts.warn ?? ((m: string) => console.error(m));
  let queue: string[] = [];
  let scheduled = false;
  let dropped = 0;
  const batchMax = opts.mode === 'batch' ? Math.max(1, opts.maxBatchSize) : Infinity;

  const write = (lines: string[]) => {
    try {
      if (file) file.writeLines(lines);
      else out.write(lines.join(''));
    } catch (err) {
      warn(`Error in audit plugin 'log' affecting ${lines.length} audit events: ${(err as Error).message}`);
    }
  };

  const drain = () => {
    scheduled = false;
    while (queue.length) {
      const lines = queue.length <= batchMax ? queue : queue.slice(0, batchMax);
      queue = queue.length <= batchMax ? [] : queue.slice(batchMax);
      write(lines);
    }
  };

  return {
    process(ev: AuditEvent, json: string) {
      if (opts.mode === 'batch' && queue.length >= opts.bufferSize) {
        if (dropped++ === 0) warn("Error in audit plugin 'log': audit buffer queue blocked; events are dropped");
        return;
      }
      queue.push(`${opts.format === 'legacy' ? legacyLine(ev) : json}\n`);
      if (!scheduled) {
        scheduled = true;
        setImmediate(drain);
      }
    },
    async flush() {
      drain();
    },
    async close() {
      drain();
      file?.close();
    },
  };
}
