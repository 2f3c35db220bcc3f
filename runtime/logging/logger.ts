// The server's log, in the two formats of Kubernetes' component-base
// (--logging-format): klog's text lines
//   I1124 21:00:00.000000   12345 app.ts:88] "HTTP" verb="GET" resp=200
// and the JSON logger's objects
//   {"ts":1732482000000,"caller":"app.ts:88","msg":"HTTP","v":3,"verb":"GET","resp":200}
// with klog's verbosity (-v): a line logged at level n is written only when
// -v is n or more. Messages are structured (a message and key/value pairs,
// klog's InfoS and ErrorS) or plain (klog's Info, the server's own notes:
// written as they are in the text format). The caller is the file and
// line that logged, read from the stack only when a line is written.

import { basename } from 'node:path';
import { goDuration } from './go-duration.ts';

export type LoggingFormat = 'text' | 'json';

export const LOGGING_FORMATS: readonly LoggingFormat[] = ['text', 'json'];

export class LoggingFormatError extends Error {}

/** A value logged as a Go duration (`latency="1.5ms"`). */
export class Duration {
  constructor(readonly nanoseconds: number) {}
  toString(): string {
    return goDuration(this.nanoseconds);
  }
}

export type LogValue = string | number | boolean | null | undefined | Duration | Error | object;

export interface LoggerOptions {
  format?: LoggingFormat;
  /** -v: the highest level written (default 0). */
  verbosity?: number;
  /** Where lines go (default: standard error, as klog's). */
  write?: (line: string) => void;
  now?: () => Date;
  pid?: number;
}

type Severity = 'I' | 'W' | 'E';

export class Logger {
  readonly format: LoggingFormat;
  readonly verbosity: number;
  private readonly write: (line: string) => void;
  private readonly now: () => Date;
  private readonly pid: number;

  constructor(opts: LoggerOptions = {}) {
    this.format = opts.format ?? 'text';
    this.verbosity = opts.verbosity ?? 0;
    this.write = opts.write ?? ((line) => process.stderr.write(line));
    this.now = opts.now ?? (() => new Date());
    this.pid = opts.pid ?? process.pid;
  }

  /** Whether lines of this level are written. */
  enabled(level: number): boolean {
    return level <= this.verbosity;
  }

  /** A structured informational line (klog's V(level).InfoS). */
  infoS(level: number, msg: string, ...kv: LogValue[]): void {
    if (!this.enabled(level)) return;
    this.emit('I', level, msg, kv, true, undefined);
  }

  /** A structured error line (klog's ErrorS): always written, the error as `err`. */
  errorS(err: unknown, msg: string, ...kv: LogValue[]): void {
    this.emit('E', 0, msg, kv, true, err ?? null);
  }

  /** A plain informational line (klog's Info): the server's own notes. */
  info(msg: string): void {
    this.emit('I', 0, msg, [], false, undefined);
  }

  /** A plain warning line (klog's Warning). */
  warning(msg: string): void {
    this.emit('W', 0, msg, [], false, undefined);
  }

  private emit(severity: Severity, level: number, msg: string, kv: LogValue[], structured: boolean, err: unknown): void {
    const caller = callerOf(new Error().stack);
    const now = this.now();
    if (this.format === 'json') {
      const entry: Record<string, unknown> = { ts: now.getTime(), caller, msg };
      if (severity === 'E') entry.err = err === null || err === undefined ? null : errorText(err);
      else entry.v = level;
      for (let i = 0; i + 1 < kv.length; i += 2) entry[String(kv[i])] = jsonValue(kv[i + 1]);
      this.write(`${JSON.stringify(entry)}\n`);
      return;
    }
    let line = `${severity}${klogHeader(now, this.pid)} ${caller}] `;
    if (!structured) {
      this.write(`${line}${msg}\n`);
      return;
    }
    line += JSON.stringify(msg);
    if (severity === 'E' && err !== null && err !== undefined) line += ` err=${JSON.stringify(errorText(err))}`;
    for (let i = 0; i + 1 < kv.length; i += 2) line += ` ${String(kv[i])}=${textValue(kv[i + 1])}`;
    this.write(`${line}\n`);
  }
}

/** Checks --logging-format. */
export function loggingFormat(value: string | undefined): LoggingFormat {
  const format = value || 'text';
  if (!(LOGGING_FORMATS as readonly string[]).includes(format)) {
    throw new LoggingFormatError(`format: Invalid value: "${format}": Unsupported log format`);
  }
  return format as LoggingFormat;
}

/** klog's header after the severity: `MMDD hh:mm:ss.uuuuuu` and the process id, right-aligned in seven columns. */
function klogHeader(t: Date, pid: number): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const micros = String(t.getMilliseconds() * 1000).padStart(6, '0');
  return `${two(t.getMonth() + 1)}${two(t.getDate())} ${two(t.getHours())}:${two(t.getMinutes())}:${two(t.getSeconds())}.${micros} ${String(pid).padStart(7, ' ')}`;
}

/** The file and line of the first frame outside this file (`app.ts:88`). */
function callerOf(stack: string | undefined): string {
  if (!stack) return '???:1';
  for (const frame of stack.split('\n').slice(1)) {
    const m = /\(?([^\s()]+):(\d+):\d+\)?$/.exec(frame.trim());
    if (!m) continue;
    const file = m[1].replace(/^file:\/\//, '');
    if (basename(file) === 'logger.ts' || basename(file) === 'logger.js') continue;
    return `${basename(file)}:${m[2]}`;
  }
  return '???:1';
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** A value in a text line: strings (and durations, errors) quoted, numbers and booleans as they are, objects as JSON. */
function textValue(v: LogValue): string {
  if (v instanceof Duration) return JSON.stringify(v.toString());
  if (v instanceof Error) return JSON.stringify(v.message);
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v ?? '<nil>');
  return JSON.stringify(v);
}

function jsonValue(v: LogValue): unknown {
  if (v instanceof Duration) return v.toString();
  if (v instanceof Error) return v.message;
  return v ?? null;
}

let current = new Logger();

/** The process's log (the command line sets it from --logging-format and -v; otherwise klog text lines at -v=0 on standard error). */
export function serverLogger(): Logger {
  return current;
}

export function setServerLogger(logger: Logger): void {
  current = logger;
}
