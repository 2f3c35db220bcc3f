// One member's gRPC channel against an HTTP/2 server in this process that
// answers as a gRPC server does (or fails as a dead or stuck one does): the
// request as sent, answers and trailers-only errors, the HTTP status of a
// proxy, a deadline, a refused connection (never sent: may go to another
// member) and a dropped one (may have been applied), and a new session after.
import { createServer, type Http2Server, type ServerHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcChannel, GrpcError } from './channel.ts';
import { retryableRead, unsent } from '../endpoints.ts';

type Handler = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, body: Buffer) => void;

function grpcFrame(msg: Buffer, compressed = 0): Buffer {
  const f = Buffer.alloc(5 + msg.length);
  f[0] = compressed;
  f.writeUInt32BE(msg.length, 1);
  msg.copy(f, 5);
  return f;
}

const identity = (m: Buffer) => m;

describe('gRPC channel', () => {
  let server: Http2Server;
  let url: string;
  let handler: Handler = () => {};
  const streams: ServerHttp2Stream[] = [];

  beforeAll(async () => {
    server = createServer();
    server.on('stream', (stream, headers) => {
      streams.push(stream);
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => handler(stream, headers, Buffer.concat(chunks)));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of streams) if (!s.destroyed) s.destroy();
    await new Promise((r) => server.close(r));
  });

  // a deadline no busy machine reaches: the calls that should not time out never race it
  const later = () => Date.now() + 120_000;

  it('sends one POST with the gRPC headers and frame, and decodes the answer’s message', async () => {
    let seen: { headers: IncomingHttpHeaders; body: Buffer } | undefined;
    handler = (stream, headers, body) => {
      seen = { headers, body };
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(grpcFrame(Buffer.from('answer')));
    };
    const ch = new GrpcChannel(url);
    try {
      const out = await ch.unary('/etcdserverpb.KV/Range', grpcFrame(Buffer.from('question')), later(), (m) => m.toString());
      expect(out).toBe('answer');
      expect(seen?.headers).toMatchObject({ ':method': 'POST', ':path': '/etcdserverpb.KV/Range', 'content-type': 'application/grpc', te: 'trailers' });
      expect(seen?.headers['grpc-timeout']).toMatch(/^\d+m$/);
      expect(Number(String(seen?.headers['grpc-timeout']).slice(0, -1))).toBeLessThanOrEqual(120_000);
      expect(seen?.body.toString()).toBe(grpcFrame(Buffer.from('question')).toString());
    } finally {
      ch.close();
    }
  });

  const fails = async (ch: GrpcChannel, deadline = later()): Promise<GrpcError> => {
    const err = await ch.unary('/etcdserverpb.KV/Txn', grpcFrame(Buffer.alloc(0)), deadline, identity).then(
      () => {
        throw new Error('the call succeeded');
      },
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(GrpcError);
    return err as GrpcError;
  };

  it.each([
    [
      'a trailers-only error, its message percent-decoded',
      ((stream) =>
        stream.respond(
          { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '11', 'grpc-message': 'etcdserver: mvcc: required revision is a future revision%20%25' },
          { endStream: true },
        )) as Handler,
      '11 OUT_OF_RANGE: etcdserver: mvcc: required revision is a future revision %',
    ],
    [
      'an error in the trailers',
      ((stream) => {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '9', 'grpc-message': 'etcdserver: mvcc: required revision has been compacted' }));
        stream.end();
      }) as Handler,
      '9 FAILED_PRECONDITION: etcdserver: mvcc: required revision has been compacted',
    ],
    ['a proxy’s 503', ((stream) => stream.respond({ ':status': 503 }, { endStream: true })) as Handler, '14 UNAVAILABLE: Received HTTP status code 503'],
    [
      'a compressed message',
      ((stream) => {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(grpcFrame(Buffer.from('x'), 1));
      }) as Handler,
      '13 INTERNAL: Failed to parse server response: compressed message',
    ],
  ])('fails with %s', async (_name, h, text) => {
    handler = h;
    const ch = new GrpcChannel(url);
    try {
      expect((await fails(ch)).message).toBe(text);
    } finally {
      ch.close();
    }
  });

  it('fails a call etcd does not answer by its deadline, and cancels its stream', async () => {
    let stream: ServerHttp2Stream | undefined;
    handler = (s) => (stream = s);
    const ch = new GrpcChannel(url);
    try {
      const err = await fails(ch, Date.now() + 200);
      expect(err.message).toBe('4 DEADLINE_EXCEEDED: Deadline exceeded');
      expect(retryableRead(err)).toBe(true);
      expect(unsent(err)).toBe(false);
      await expect.poll(() => stream?.closed).toBe(true);
    } finally {
      ch.close();
    }
  });

  it('fails a call on a connection that dropped as maybe applied, and opens a new session for the next', async () => {
    handler = (stream) => stream.session?.destroy();
    const ch = new GrpcChannel(url);
    try {
      const err = await fails(ch);
      expect(err.message).toMatch(/^14 UNAVAILABLE: Connection dropped/);
      expect(unsent(err)).toBe(false);
      expect(retryableRead(err)).toBe(true);
      handler = (stream) => {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
        stream.end(grpcFrame(Buffer.from('again')));
      };
      expect((await ch.unary('/etcdserverpb.KV/Range', grpcFrame(Buffer.alloc(0)), later(), identity)).toString()).toBe('again');
    } finally {
      ch.close();
    }
  });

  it('fails a call to a member nothing listens on as never sent', async () => {
    const tcp = createTcpServer();
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    const port = (tcp.address() as AddressInfo).port;
    await new Promise((r) => tcp.close(r));
    const ch = new GrpcChannel(`http://127.0.0.1:${port}`);
    try {
      const err = await fails(ch);
      expect(err.message).toMatch(/^14 UNAVAILABLE: No connection established/);
      expect(unsent(err)).toBe(true);
    } finally {
      ch.close();
    }
  });
});
