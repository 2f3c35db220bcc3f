// The fuzz harness's HTTP client: node:http with the request target sent as
// written (fetch would resolve dot segments and drop fragments first), one
// connection per request, bounded waits, and watches judged on their head
// and then closed.

import { request } from 'node:http';
import type { FuzzCase } from './case.ts';

export interface FuzzResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The body did not arrive whole (connection reset or closed early). */
  incomplete?: string;
  /** A watch stream, closed after its head. */
  streamed: boolean;
  /** A response that was still streaming after the grace period although the request was no watch. */
  unexpectedStream?: boolean;
  /** Each Warning header line as received. */
  warnings: string[];
}

export type SendResult =
  | { kind: 'response'; res: FuzzResponse; ms: number }
  /** No response: a socket error or a wait that ran out. */
  | { kind: 'no-response'; error: string; ms: number }
  /** Node's client would not send this request (a header or path it refuses): not the server's doing. */
  | { kind: 'client-refused'; error: string; ms: number };

export interface SendOptions {
  /** How long to wait for the response head, and then for the body (ms). */
  timeoutMs?: number;
  /** Bodies beyond this are counted but not kept. */
  maxBodyBytes?: number;
  /** How long a response with no declared length may stay quiet before it is taken for a stream (ms). */
  streamGraceMs?: number;
}

/** Whether the response to this request may be a long-running watch. */
export function mayStream(c: FuzzCase): boolean {
  return !!c.stream || (c.method === 'GET' && /watch/i.test(c.path));
}

export function send(baseUrl: string, c: FuzzCase, opts: SendOptions = {}): Promise<SendResult> {
  const url = new URL(baseUrl);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxBody = opts.maxBodyBytes ?? 32 * 1024 * 1024;
  const streamGraceMs = opts.streamGraceMs ?? 5000;
  const t0 = performance.now();
  const ms = () => Math.round(performance.now() - t0);
  return new Promise((resolve) => {
    let done = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (r: SendResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(r);
    };
    const headers: Record<string, string> = { ...c.headers, connection: 'close' };
    if (c.body) headers['content-length'] = String(c.body.length);
    let req: ReturnType<typeof request>;
    try {
      req = request({
        hostname: url.hostname,
        port: url.port,
        method: c.method,
        path: c.path,
        headers,
        agent: false,
        setHost: !('host' in c.headers),
        // Go clients read response heads up to 10 MiB: read what the server sends, judge it after
        maxHeaderSize: 16 * 1024 * 1024,
      });
    } catch (err) {
      finish({ kind: 'client-refused', error: (err as Error).message, ms: ms() });
      return;
    }
    timer = setTimeout(() => {
      req.destroy();
      finish({ kind: 'no-response', error: `no complete response within ${timeoutMs} ms`, ms: ms() });
    }, timeoutMs);
    // a write error (EPIPE, ECONNRESET) can come just before the response the server sent when it
    // stopped reading early (413 ...): give that response a moment to be parsed before giving up
    req.on('error', (err) => {
      const error = `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`.trim();
      setTimeout(() => finish({ kind: 'no-response', error, ms: ms() }), 1000);
    });
    req.on('response', (res) => {
      const resHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) resHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
      const warnings: string[] = [];
      for (let i = 0; i < res.rawHeaders.length; i += 2) if (res.rawHeaders[i].toLowerCase() === 'warning') warnings.push(res.rawHeaders[i + 1]);
      const status = res.statusCode ?? 0;
      if (mayStream(c) && status === 200) {
        finish({ kind: 'response', res: { status, headers: resHeaders, body: Buffer.alloc(0), streamed: true, warnings }, ms: ms() });
        res.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      // a response without a declared length that goes quiet without ending: a stream (a watch)
      let idle: ReturnType<typeof setTimeout> | undefined;
      const armIdle = () => {
        if (res.headers['content-length'] !== undefined) return;
        clearTimeout(idle);
        idle = setTimeout(() => {
          if (done) return;
          finish({ kind: 'response', res: { status, headers: resHeaders, body: Buffer.concat(chunks), streamed: true, unexpectedStream: true, warnings }, ms: ms() });
          res.destroy();
        }, streamGraceMs);
      };
      armIdle();
      res.on('data', (d: Buffer) => {
        armIdle();
        size += d.length;
        if (size <= maxBody) chunks.push(d);
      });
      const partial = (extra: Partial<FuzzResponse>): FuzzResponse => ({ status, headers: resHeaders, body: Buffer.concat(chunks), streamed: false, warnings, ...extra });
      res.on('end', () => clearTimeout(idle));
      res.on('close', () => clearTimeout(idle));
      res.on('end', () => finish({ kind: 'response', res: partial({}), ms: ms() }));
      res.on('error', (err) => finish({ kind: 'response', res: partial({ incomplete: err.message }), ms: ms() }));
      res.on('aborted', () => finish({ kind: 'response', res: partial({ incomplete: 'aborted' }), ms: ms() }));
    });
    // a CONNECT's answer comes as 'connect' (Node leaves the body on the socket): read it to the end
    req.on('connect', (res, socket, head) => {
      const resHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) resHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
      const chunks: Buffer[] = [head];
      socket.on('data', (d: Buffer) => chunks.push(d));
      socket.on('error', () => {});
      socket.on('close', () => finish({ kind: 'response', res: { status: res.statusCode ?? 0, headers: resHeaders, body: Buffer.concat(chunks), streamed: false, warnings: [] }, ms: ms() }));
    });
    // the server may answer before it has read the whole body (413 ...): a failed write is not a failure then
    req.on('socket', (s) => s.on('error', () => {}));
    if (c.body) req.end(Buffer.from(c.body.buffer, c.body.byteOffset, c.body.byteLength));
    else req.end();
  });
}
