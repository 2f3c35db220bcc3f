// A timed GET with the least work on the client's side: a plain socket kept
// open between requests, the response's bytes kept as they arrive and only
// the end of the response looked for while the clock runs (the length the
// head announced, or the last chunk of a chunked body); the head and the
// chunked framing are parsed once the clock stopped, and a framing that does
// not add up throws. Node's HTTP client (rawGet in http.ts) spent about
// 28 ms of CPU receiving an 11 MB chunked list (its parser, a 'data' event
// per read, the joined copy), as much as the server spent sending it, on the
// same two cores (load 5 to 6); a bare socket that only counts the bytes,
// about 11 ms. For plain-HTTP servers only (the benches' own).

import { connect, type Socket } from 'node:net';

export interface LeanResponse {
  status: number;
  /** The body, de-chunked. */
  body: Buffer;
  /** From the request being written to the response's last byte, ms. */
  ms: number;
}

const CRLF2 = Buffer.from('\r\n\r\n');
/** How a chunked body ends: the last chunk (size 0) and the empty trailer. */
const LAST_CHUNK = Buffer.from('\r\n0\r\n\r\n');

/** The body of a chunked transfer-encoded payload; throws when its framing does not add up. */
export function dechunk(payload: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = payload.indexOf('\r\n', at);
    if (eol < 0) throw new Error(`chunked body: no size line at byte ${at}`);
    const size = parseInt(payload.toString('latin1', at, eol).split(';')[0], 16);
    if (!Number.isFinite(size)) throw new Error(`chunked body: bad size line at byte ${at}`);
    if (size === 0) {
      if (payload.length !== eol + 4 || payload.toString('latin1', eol, eol + 4) !== '\r\n\r\n') throw new Error('chunked body: bytes after the last chunk');
      return Buffer.concat(parts);
    }
    const start = eol + 2;
    if (payload.toString('latin1', start + size, start + size + 2) !== '\r\n') throw new Error(`chunked body: chunk at byte ${at} not followed by CRLF`);
    parts.push(payload.subarray(start, start + size));
    at = start + size + 2;
  }
}

/** One kept-alive plain-HTTP connection to host:port that sends GETs one at a time. */
export class LeanConnection {
  private socket: Socket | undefined;

  constructor(private readonly base: URL) {
    if (base.protocol !== 'http:') throw new Error(`LeanConnection speaks plain HTTP only, not ${base.protocol}`);
  }

  private async open(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed) return this.socket;
    const s = connect(Number(this.base.port), this.base.hostname);
    s.setNoDelay(true);
    await new Promise<void>((res, rej) => {
      s.once('connect', res);
      s.once('error', rej);
    });
    this.socket = s;
    return s;
  }

  /** GET path (with its query); the time runs from writing the request to the response's last byte. */
  async get(path: string, headers: Record<string, string> = {}): Promise<LeanResponse> {
    const s = await this.open();
    const reads: Buffer[] = [];
    let received = 0;
    let headEnd = -1;
    let bodyLength = -1; // -1: chunked
    let tail: Buffer = Buffer.alloc(0);
    const extra = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    return new Promise<LeanResponse>((resolve, reject) => {
      let t0 = 0;
      const done = (err?: Error) => {
        s.off('data', onData);
        s.off('error', done);
        s.off('close', onClose);
        if (err) return reject(err);
        const ms = performance.now() - t0;
        try {
          resolve({ ...parse(Buffer.concat(reads, received)), ms });
        } catch (e) {
          reject(e as Error);
        }
      };
      const onClose = () => done(new Error(`GET ${path}: connection closed after ${received} bytes`));
      const onData = (c: Buffer) => {
        reads.push(c);
        received += c.length;
        if (headEnd < 0) {
          const all = Buffer.concat(reads, received);
          const i = all.indexOf(CRLF2);
          if (i < 0) return;
          headEnd = i + 4;
          const m = /\r\ncontent-length:\s*(\d+)/i.exec(all.toString('latin1', 0, i));
          bodyLength = m ? Number(m[1]) : -1;
          tail = all.subarray(Math.max(headEnd, all.length - LAST_CHUNK.length));
        } else if (bodyLength < 0) {
          tail = c.length >= LAST_CHUNK.length ? c.subarray(c.length - LAST_CHUNK.length) : Buffer.concat([tail, c]).subarray(-LAST_CHUNK.length);
        }
        if (bodyLength >= 0 ? received - headEnd >= bodyLength : tail.equals(LAST_CHUNK) || (received - headEnd === 5 && tail.toString('latin1') === '0\r\n\r\n')) done();
      };
      const parse = (all: Buffer) => {
        const head = all.toString('latin1', 0, headEnd - 4);
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
        const payload = all.subarray(headEnd);
        if (bodyLength >= 0) return { status, body: payload };
        if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) throw new Error(`GET ${path}: neither Content-Length nor chunked`);
        return { status, body: dechunk(payload) };
      };
      s.on('data', onData);
      s.on('error', done);
      s.on('close', onClose);
      t0 = performance.now();
      s.write(`GET ${path} HTTP/1.1\r\nHost: ${this.base.host}\r\n${extra}\r\n`);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }
}
