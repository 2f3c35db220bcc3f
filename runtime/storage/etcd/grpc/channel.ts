// Unary gRPC calls to one etcd member over node:http2: one long-lived HTTP/2
// session per member (made again on the next call once it closed or went
// away), a call is one stream: HEADERS (POST to /<service>/<method>,
// content-type application/grpc, te trailers, grpc-timeout from the
// deadline) and one DATA frame (the gRPC frame: 5-byte prefix and the
// protobuf message), the answer the DATA frames (one gRPC message) and the
// trailers' grpc-status and grpc-message (or a trailers-only answer).
//
// Failures are GrpcErrors whose message is "<code> <NAME>: <details>", the
// texts the gRPC client of the etcd3 package gives (endpoints.ts tells by
// them whether a call may be sent again): a call made while the session has
// not connected and whose connection then failed was never sent ("14
// UNAVAILABLE: No connection established..."), one on a connection that
// dropped afterwards may have been applied ("14 UNAVAILABLE: Connection
// dropped"); a deadline passed is "4 DEADLINE_EXCEEDED" (the stream is
// cancelled). No compression is asked for or accepted; no size cap on an
// answer (an unpaged range is one message, as kube-apiserver's client allows).
import { connect, constants, type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders, type SecureClientSessionOptions } from 'node:http2';

/** gRPC status codes by number (grpc's statuscodes). */
const STATUS_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

const UNKNOWN = 2;
const DEADLINE_EXCEEDED = 4;
const INTERNAL = 13;
const UNAVAILABLE = 14;

/** A failed call: gRPC's status code and details; the message as the grpc-js client words it. */
export class GrpcError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(`${code} ${STATUS_NAMES[code] ?? 'UNKNOWN'}: ${details}`);
  }
}

/** The status of an answer without a grpc-status, from its HTTP status (as gRPC's HTTP-to-gRPC mapping). */
function fromHttpStatus(status: number): GrpcError {
  const code = status === 400 ? INTERNAL : status === 401 ? 16 : status === 403 ? 7 : status === 404 ? 12 : [429, 502, 503, 504].includes(status) ? UNAVAILABLE : UNKNOWN;
  return new GrpcError(code, `Received HTTP status code ${status}`);
}

function decodeMessage(text: string | string[] | undefined): string {
  const s = Array.isArray(text) ? text.join(',') : (text ?? '');
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** TLS to the member (the --etcd-cafile/--etcd-certfile/--etcd-keyfile PEMs). */
export interface ChannelTLS {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

/** HTTP/2 windows large enough that a big range's answer streams without waiting for window updates. */
const WINDOW = 16 * 1024 * 1024;

export class GrpcChannel {
  private session?: ClientHttp2Session;
  /** The sessions that connected (a call on one that never did was never sent). */
  private connected = new WeakSet<ClientHttp2Session>();
  private closed = false;

  constructor(
    /** The member's client URL (http:// or https://). */
    readonly url: string,
    private tls?: ChannelTLS,
  ) {}

  /**
   * Sends one gRPC frame to path (`/etcdserverpb.KV/Txn`) with a deadline
   * (epoch ms) and decodes the answer's message.
   */
  unary<T>(path: string, frame: Buffer, deadline: number, decode: (msg: Buffer) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const ms = Math.max(1, Math.ceil(deadline - Date.now()));
      let session: ClientHttp2Session;
      let stream: ClientHttp2Stream;
      try {
        session = this.currentSession();
        stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers', 'grpc-timeout': `${ms}m` }, { endStream: false });
      } catch (err) {
        reject(new GrpcError(UNAVAILABLE, `No connection established. Last error: ${(err as Error).message}`));
        return;
      }
      const chunks: Buffer[] = [];
      let headers: IncomingHttpHeaders | undefined;
      let trailers: IncomingHttpHeaders | undefined;
      let failure: GrpcError | undefined;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (failure) return reject(failure);
        const result = outcome(headers, trailers, chunks, stream.rstCode) ?? this.lost(session);
        if (result instanceof GrpcError) return reject(result);
        try {
          resolve(decode(result));
        } catch (err) {
          reject(new GrpcError(INTERNAL, `Failed to parse server response: ${(err as Error).message}`));
        }
      };
      const timer = setTimeout(() => {
        failure ??= new GrpcError(DEADLINE_EXCEEDED, 'Deadline exceeded');
        stream.close(constants.NGHTTP2_CANCEL);
        finish();
      }, ms);
      stream.on('response', (h) => (headers = h));
      stream.on('trailers', (t) => (trailers = t));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (err: Error) => (failure ??= this.lost(session, err)));
      stream.on('close', finish);
      stream.end(frame);
    });
  }

  /** Closes the session; calls in flight fail. */
  close(): void {
    this.closed = true;
    this.session?.destroy();
    this.session = undefined;
  }

  /** The error of a call whose stream ended without an answer: never sent when its session never connected. */
  private lost(session: ClientHttp2Session, err?: Error): GrpcError {
    const why = err ? ` (${err.message})` : '';
    return this.connected.has(session)
      ? new GrpcError(UNAVAILABLE, `Connection dropped${why}`)
      : new GrpcError(UNAVAILABLE, `No connection established. Last error: ${err?.message ?? 'the connection closed'}`);
  }

  private currentSession(): ClientHttp2Session {
    if (this.closed) throw new Error('the client was closed');
    const s = this.session;
    if (s && !s.closed && !s.destroyed) return s;
    return this.open();
  }

  private open(): ClientHttp2Session {
    const url = new URL(this.url);
    const secure = url.protocol === 'https:';
    const options: SecureClientSessionOptions = {
      settings: { initialWindowSize: WINDOW, enablePush: false },
      maxSessionMemory: 64,
      ...(secure && this.tls ? { ca: this.tls.ca, cert: this.tls.cert, key: this.tls.key } : {}),
    };
    const session = connect(`${secure ? 'https' : 'http'}://${url.host}`, options);
    this.session = session;
    const drop = () => {
      if (this.session === session) this.session = undefined;
    };
    session.on('connect', () => {
      this.connected.add(session);
      session.setLocalWindowSize(WINDOW);
    });
    session.on('error', drop);
    session.on('goaway', drop);
    session.on('close', drop);
    // an idle session does not keep the process alive (a call's deadline timer does while it waits)
    session.unref();
    return session;
  }
}

/**
 * The message of a finished stream, or why there is none; null when the
 * stream just ended without an answer (its connection closed: the session
 * destroys its streams with CANCEL, which this client itself never sends
 * without a failure of its own).
 */
function outcome(headers: IncomingHttpHeaders | undefined, trailers: IncomingHttpHeaders | undefined, chunks: Buffer[], rstCode: number | undefined): Buffer | GrpcError | null {
  const status = trailers?.['grpc-status'] ?? headers?.['grpc-status'];
  if (status === undefined) {
    if (headers && Number(headers[':status']) !== 200) return fromHttpStatus(Number(headers[':status']));
    if (rstCode === constants.NGHTTP2_REFUSED_STREAM) return new GrpcError(UNAVAILABLE, 'Stream refused by server');
    if (rstCode && rstCode !== constants.NGHTTP2_CANCEL) return new GrpcError(INTERNAL, `Received RST_STREAM with code ${rstCode}`);
    return null;
  }
  const code = Number(status);
  if (code !== 0) return new GrpcError(Number.isInteger(code) ? code : UNKNOWN, decodeMessage(trailers?.['grpc-message'] ?? headers?.['grpc-message']));
  const body = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  if (body.length < 5) return new GrpcError(INTERNAL, 'Failed to parse server response: no message');
  if (body[0] !== 0) return new GrpcError(INTERNAL, 'Failed to parse server response: compressed message');
  const len = body.readUInt32BE(1);
  if (body.length !== 5 + len) return new GrpcError(INTERNAL, `Failed to parse server response: ${body.length - 5} bytes for a message of ${len}`);
  return body.subarray(5);
}
