// Graceful termination of the HTTP side, as kube-apiserver does it without
// --shutdown-send-retry-after: once draining starts the listener closes (new
// connections are refused), a request arriving on a connection that is
// already open is answered 503 ServiceUnavailable "apiserver is shutting
// down" with Retry-After: 1 (watches still start), requests in flight run to
// completion (bounded by a timeout) and their connections close after the
// response. The 503 carries an Audit-Id (the client's, or a new one) as
// every other answer. Watches (and the other long-running requests of
// http/long-running.ts) are not waited for; the owner ends
// them (closing the storage ends every watch stream cleanly), then waits for
// their responses to finish. Tracks requests on the node server; no routing.
// Per request the tracking is a slot in a table (kept on the response) and
// a counter, and one shared 'close' listener (a response closes once,
// answered or abandoned by its client); the table is walked only while
// draining.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { errors } from '../api/errors.ts';
import { newRequestRecord } from '../api/request-record.ts';
import { AUDIT_ID_HEADER } from '../http/audit-id.ts';
import { parseRequestInfo, splitTarget } from '../http/request-info.ts';
import { isLongRunning } from '../http/long-running.ts';

/** Words one of whose presence a long-running request target needs (long-running.ts); '%' for encoded ones. */
const LONG_RUNNING_HINT = /watch|proxy|exec|attach|log|portforward|pprof|%/;

/** Whether a request target (raw `/path?query` or absolute URL) is long-running (a watch, a proxy, exec, log...). */
function isLongRunningTarget(method: string, target: string): boolean {
  // most requests need no parsing
  if (!LONG_RUNNING_HINT.test(target)) return false;
  try {
    const { path, query } = splitTarget(target);
    return isLongRunning(parseRequestInfo(method, path, new URLSearchParams(query)));
  } catch {
    return false;
  }
}

/** The slot of a response in flight in its RequestDrain's table. */
const SLOT = Symbol('drainSlot');
type Tracked = ServerResponse & { [SLOT]?: number };

export class RequestDrain {
  /**
   * Responses in flight, each at the slot it keeps as a property; freed
   * slots are reused (a Set's add and delete per request cost more, and
   * the table is walked only while draining).
   */
  private slots: (ServerResponse | undefined)[] = [];
  private free: number[] = [];
  private inFlight = 0;
  /** Whether a response in flight is long-running, worked out only when asked (while draining), once per response. */
  private longRunning = new WeakMap<ServerResponse, boolean>();
  private waiters = new Set<() => void>();
  /** Set when draining starts: no new connections, new short requests get 503. */
  draining = false;

  constructor(private server: Server) {
    // one listener for every response's close (a response closes once), and nothing parsed per request:
    // whether it is long-running matters only while draining
    const slots = this.slots;
    const free = this.free;
    const waiters = this.waiters;
    const closed = (res: Tracked): void => {
      const slot = res[SLOT];
      if (slot === undefined) return;
      res[SLOT] = undefined;
      slots[slot] = undefined;
      free.push(slot);
      this.inFlight--;
      if (waiters.size) for (const w of [...waiters]) w();
    };
    const onClose = function (this: ServerResponse): void {
      closed(this);
    };
    // before the app's own listener, so the app sees the request only after it is tracked
    server.prependListener('request', (_req: IncomingMessage, res: Tracked) => {
      const slot = free.length ? free.pop()! : slots.length;
      slots[slot] = res;
      res[SLOT] = slot;
      this.inFlight++;
      if (this.draining) res.setHeader('Connection', 'close');
      res.on('close', onClose);
    });
  }

  /** The responses in flight. */
  private *active(): Generator<ServerResponse> {
    for (const res of this.slots) if (res) yield res;
  }

  /**
   * While draining, the answer to a request that is not long-running and
   * arrived after draining began (upstream's WithWaitGroup filter refuses it
   * so); null to serve it.
   */
  refusal(req: Request): Response | null {
    if (!this.draining || isLongRunningTarget(req.method, req.url)) return null;
    const err = errors.serviceUnavailable('apiserver is shutting down');
    // upstream's audit-ID filter runs before this one: the refusal carries an Audit-Id as every answer does
    const { auditID } = newRequestRecord(req.headers.get('audit-id') ?? undefined);
    return new Response(JSON.stringify(err.status()), {
      status: 503,
      headers: { 'Content-Type': 'application/json', 'Retry-After': '1', 'X-Content-Type-Options': 'nosniff', Connection: 'close', [AUDIT_ID_HEADER]: auditID },
    });
  }

  /** Requests in flight: short ones and watches. */
  counts(): { short: number; watches: number } {
    let short = 0;
    let watches = 0;
    for (const res of this.active()) this.isLongRunning(res) ? watches++ : short++;
    return { short, watches };
  }

  /**
   * Stops accepting connections and marks every response not yet started to
   * close its connection when done; returns the promise of the listener's
   * final close (all connections gone).
   */
  begin(): Promise<void> {
    this.draining = true;
    for (const res of this.active()) if (!res.headersSent) res.setHeader('Connection', 'close');
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Resolves true once no request but watches is in flight, false after timeoutMs. */
  shortDone(timeoutMs: number): Promise<boolean> {
    return this.until(() => this.counts().short === 0, timeoutMs);
  }

  /** Resolves true once nothing is in flight, false after timeoutMs. */
  allDone(timeoutMs: number): Promise<boolean> {
    return this.until(() => this.inFlight === 0, timeoutMs);
  }

  /** Closes the connections left: idle ones, and (last resort) those still busy. */
  closeConnections(force: boolean): void {
    const s = this.server as Server & { closeIdleConnections?: () => void; closeAllConnections?: () => void };
    s.closeIdleConnections?.();
    if (force) s.closeAllConnections?.();
  }

  private isLongRunning(res: ServerResponse): boolean {
    let known = this.longRunning.get(res);
    if (known === undefined) {
      known = isLongRunningTarget(res.req?.method ?? 'GET', res.req?.url ?? '/');
      this.longRunning.set(res, known);
    }
    return known;
  }

  private until(cond: () => boolean, timeoutMs: number): Promise<boolean> {
    if (cond()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (!cond()) return;
        done(true);
      };
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(ok);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.waiters.add(check);
    });
  }
}
