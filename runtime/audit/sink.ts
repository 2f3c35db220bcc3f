// Where audit events go: a backend takes each event (its JSON text made once
// when the stage is reached, whole or in pieces: EventText) and answers whether it was stored, as
// upstream's ProcessEvents does: at once (`true` for an event a batch
// backend queued, or one written synchronously; `false` when it could not
// be), or a promise while a blocking backend's write is under way (the
// request waits for it). flush() resolves once everything taken so far is
// written (or given up on), close() flushes and stops. Several backends (the
// log file and the webhook) form one sink, stored only when every one
// stored the event. A backend that fails to audit events says so twice:
// a message (warn) and a count per plugin (`failed`: `log`, `webhook`,
// `truncate`; upstream's HandlePluginError, apiserver_audit_error_total).

import type { AuditEvent } from './event.ts';

/** Counts events a plugin failed to audit (apiserver_audit_error_total). */
export type PluginFailed = (plugin: string, events: number) => void;

/** What the audit counts (the metrics of runtime/metrics): events sent, each request's level, plugin failures. */
export interface AuditObserver {
  /** An event was handed to the backend (apiserver_audit_event_total). */
  event(): void;
  /** The policy gave a request its level, None included (apiserver_audit_level_total). */
  level(level: string): void;
  failed: PluginFailed;
}

/**
 * An event's JSON text: one string, or pieces whose concatenation is the
 * text (the auditor's: the pieces a request's stages share are the same
 * strings, and are not joined into one string per event).
 */
export type EventText = string | readonly string[];

/** The text of an EventText as one string. */
export const joinText = (t: EventText): string => (typeof t === 'string' ? t : t.join(''));

/** Whether an event was stored: now, or once a blocking write ends. */
export type Stored = boolean | Promise<boolean>;

export interface AuditBackend {
  /** Whether process() may wait for a write (a blocking mode). */
  readonly blocking?: boolean;
  /** Takes an event; never throws. The event (its annotations too) is the request's, changed at its later stages: a backend reads it while taking it, and keeps its text. */
  process(event: AuditEvent, json: EventText): Stored;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Both results: a promise only when either is one. */
export function bothStored(a: Stored, b: Stored): Stored {
  if (typeof a === 'boolean' && typeof b === 'boolean') return a && b;
  return Promise.all([a, b]).then(([x, y]) => x && y);
}

/** Several backends as one. */
export function unionBackend(backends: AuditBackend[]): AuditBackend {
  if (backends.length === 1) return backends[0];
  return {
    blocking: backends.some((b) => b.blocking),
    process: (ev, json) => {
      let stored: Stored = true;
      for (const b of backends) stored = bothStored(stored, b.process(ev, json));
      return stored;
    },
    flush: async () => {
      await Promise.all(backends.map((b) => b.flush()));
    },
    close: async () => {
      await Promise.all(backends.map((b) => b.close()));
    },
  };
}
