// The log backend of --audit-log-path: one line per event, the event's JSON
// (--audit-log-format=json, the default) or upstream's one-line legacy text,
// appended to a rotating file (rotating-file.ts: --audit-log-maxsize,
// -maxbackup, -maxage, --audit-log-compress) or written to standard output
// for `-`. The writer writes synchronously; the mode (modes.ts,
// --audit-log-mode, default batch) says when: in the blocking modes as
// the event is taken (the request waits for it), in batch mode later, in
// batches (buffered.ts, --audit-log-batch-*), the batches waiting at one
// turn in one write to the file. A write that fails is reported
// (upstream's plugin error text) and answers false, which blocking-strict
// makes the request's failure; the truncating backend (truncate.ts,
// --audit-log-truncate-*) is around the mode when enabled.

import { type AuditBackend, type EventText, joinText, type PluginFailed } from './sink.ts';
import { legacyLine } from './event.ts';
import { RotatingFile, type RotationOptions } from './rotating-file.ts';
import type { AuditWriter, BatchConfig, BufferedDeps } from './buffered.ts';
import { type BackendMode, modeBackend } from './modes.ts';
import { truncateBackend, type TruncateConfig } from './truncate.ts';

export type LogFormat = 'json' | 'legacy';
export type { BackendMode };

export interface LogBackendOptions extends RotationOptions {
  /** A file path, or '-' for standard output. */
  path: string;
  format: LogFormat;
  mode: BackendMode;
  /** Batch mode: lines waiting before more are dropped (upstream default 10000). */
  bufferSize: number;
  /** Batch mode: lines per write (upstream's log default 1). */
  maxBatchSize: number;
  /** Batch mode: longest a line waits for its batch (upstream's log default 0: at once). */
  maxBatchWaitMs?: number;
  /** Batch mode: the throttle of writes (upstream's log default: off). */
  throttleEnable?: boolean;
  throttleQPS?: number;
  throttleBurst?: number;
  /** --audit-log-truncate-*: absent, nothing is truncated. */
  truncate?: TruncateConfig;
  /** Where failures are reported. */
  warn?: (msg: string) => void;
  /** Where failures are counted (apiserver_audit_error_total). */
  failed?: PluginFailed;
  /** Standard output (tests replace it). */
  stdout?: { write(text: string): unknown };
}

/** The writer of the log's lines: the rotating file or standard output. */
export function logWriter(opts: LogBackendOptions, warn: (msg: string) => void): AuditWriter {
  const file = opts.path === '-' ? undefined : new RotatingFile(opts.path, { ...opts, warn });
  const out = opts.stdout ?? process.stdout;
  return {
    joinsBatches: true,
    write(lines) {
      try {
        if (file) file.writeLines(lines);
        else out.write(lines.length === 1 ? joinText(lines[0]) : lines.map(joinText).join(''));
        return true;
      } catch (err) {
        warn(`Error in audit plugin 'log' affecting ${lines.length} audit events: ${(err as Error).message}`);
        opts.failed?.('log', lines.length);
        return false;
      }
    },
    async close() {
      file?.close();
      await file?.idle();
    },
  };
}

const NL: readonly string[] = ['\n'];

/** An event's line: its text and a line break (the pieces of a text in pieces followed by one more, not joined). */
const withNewline = (json: EventText): EventText => (typeof json === 'string' ? `${json}\n` : json.concat(NL));

export function logBackend(opts: LogBackendOptions, deps: Omit<BufferedDeps, 'warn'> = {}): AuditBackend {
  const warn = opts.warn ?? ((m: string) => console.error(m));
  const batch: BatchConfig = {
    bufferSize: opts.bufferSize,
    maxBatchSize: opts.maxBatchSize,
    maxBatchWaitMs: opts.maxBatchWaitMs ?? 0,
    throttleEnable: opts.throttleEnable ?? false,
    throttleQPS: opts.throttleQPS ?? 0,
    throttleBurst: opts.throttleBurst ?? 0,
    asyncDelegate: false,
  };
  const format = opts.format === 'legacy' ? (ev: Parameters<typeof legacyLine>[0]) => `${legacyLine(ev)}\n` : (_ev: unknown, json: EventText) => withNewline(json);
  const backend = modeBackend({ plugin: 'log', mode: opts.mode, writer: logWriter(opts, warn), format, batch }, { ...deps, warn, failed: opts.failed });
  return opts.truncate ? truncateBackend(backend, opts.truncate, warn, opts.failed) : backend;
}
