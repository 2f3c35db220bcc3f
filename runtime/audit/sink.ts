// Where audit events go: a backend takes each event (its JSON text made once
// when the stage is reached) and writes it later, off the request's path;
// flush() resolves once everything taken so far is written (or given up
// on), close() flushes and stops. Several backends (the log file and the
// webhook) form one sink.

import type { AuditEvent } from './event.ts';

export interface AuditBackend {
  /** Takes an event; never throws and never waits for I/O. */
  process(event: AuditEvent, json: string): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

/** Several backends as one. */
export function unionBackend(backends: AuditBackend[]): AuditBackend {
  if (backends.length === 1) return backends[0];
  return {
    process: (ev, json) => {
      for (const b of backends) b.process(ev, json);
    },
    flush: async () => {
      await Promise.all(backends.map((b) => b.flush()));
    },
    close: async () => {
      await Promise.all(backends.map((b) => b.close()));
    },
  };
}
