// The HTTP server under the Hono app: node:http with @hono/node-server's
// request listener, made to answer every request it cannot hand to the app
// with a Kubernetes Status instead of an empty body or a reset socket:
//   - a request target the adapter refuses (a backslash in the path, a Host
//     that does not parse) is 400 BadRequest;
//   - an error escaping the app (it has its own error stage, so this is a
//     last resort) is 500 InternalError;
//   - CONNECT, which node:http hands to a 'connect' listener or else drops,
//     is 405 MethodNotAllowed (no resource is served by CONNECT);
//   - a port already in use rejects the returned promise with a message
//     naming the address, instead of an unhandled 'error' event.
// With serving certificates it is node:https instead: client certificates
// are asked for but not required (authentication decides what they are
// worth), and a plain HTTP request to the TLS port is answered as Go's
// servers answer it (400 "Client sent an HTTP request to an HTTPS server.")
// rather than with a silently closed connection.

import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTLSServer } from 'node:https';
import type { SecureVersion, TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import { sendStatus } from '../http/respond.ts';
import { ApiError, errors } from '../api/errors.ts';
import { AuditIdResponse } from '../http/audit-id.ts';

/** The server could not listen (the CLI prints the message alone). */
export class ListenError extends Error {}

export type FetchHandler = (req: Request, env: unknown) => Response | Promise<Response>;

/** The Status a request the app never saw is answered with. */
export function adapterErrorResponse(err: unknown): Response {
  if (err instanceof RequestError) return sendStatus(errors.badRequest(`the request could not be read: ${err.message}`));
  return sendStatus(err instanceof ApiError ? err : errors.internal(err));
}

/** The raw HTTP/1.1 answer to a CONNECT request, written to its socket. */
export function connectRefusal(): string {
  const body = JSON.stringify(errors.methodNotAllowed().status());
  return ['HTTP/1.1 405 Method Not Allowed', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close', '', body].join('\r\n');
}

/** Request headers up to Go's http.DefaultMaxHeaderBytes (1 MiB; node's default is 16 KiB), so a long token is a 401, not a 431. */
export const MAX_HEADER_BYTES = 1 << 20;

/** What the TLS listener serves with. */
export interface TLSServing {
  certPEM: string;
  keyPEM: string;
  /** CAs whose names are sent in the certificate request (client and front-proxy CAs). */
  clientCAPEM?: string;
  minVersion?: SecureVersion;
  /** OpenSSL cipher list (TLS 1.2 suites; TLS 1.3 suites are not configurable, as in Go). */
  ciphers?: string;
}

/** Go's answer to plain HTTP on a TLS port. */
export const PLAIN_HTTP_ANSWER = 'HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n';

function tlsServer(listener: ReturnType<typeof getRequestListener>, t: TLSServing): Server {
  const server = createTLSServer(
    {
      cert: t.certPEM,
      key: t.keyPEM,
      ca: t.clientCAPEM,
      requestCert: true,
      rejectUnauthorized: false,
      maxHeaderSize: MAX_HEADER_BYTES,
      minVersion: t.minVersion ?? 'TLSv1.2',
      ciphers: t.ciphers,
      ServerResponse: AuditIdResponse,
    },
    listener,
  );
  server.on('tlsClientError', (err: NodeJS.ErrnoException, socket: TLSSocket) => {
    // OpenSSL saw an HTTP request line instead of a ClientHello; nothing was sent on the connection
    // yet, so the plain answer goes on the TCP socket under the TLS one (node keeps it as _parent)
    const raw = (socket as TLSSocket & { _parent?: { end?: (s: string) => void } })._parent;
    if (err.code === 'ERR_SSL_HTTP_REQUEST' && typeof raw?.end === 'function') raw.end(PLAIN_HTTP_ANSWER);
    else socket.destroy();
  });
  return server as unknown as Server;
}

/**
 * Creates the server and listens; resolves once it listens, rejects when it
 * cannot. `prepare` sees the server before it accepts a connection.
 */
export function listen(fetch: FetchHandler, host: string, port: number, prepare?: (server: Server) => void, tls?: TLSServing): Promise<Server> {
  const listener = getRequestListener(fetch as never, { hostname: host, errorHandler: adapterErrorResponse });
  const server = tls ? tlsServer(listener, tls) : createServer({ maxHeaderSize: MAX_HEADER_BYTES, ServerResponse: AuditIdResponse }, listener);
  // Go limits only the size of the header block; node also drops header lines past its count
  // limit (a Host or Content-Length sent late would be lost: an empty 400), so the size limit alone applies
  server.maxHeadersCount = 0;
  prepare?.(server);
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => {});
    socket.end(connectRefusal());
  });
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.close();
      const why =
        err.code === 'EADDRINUSE'
          ? 'the address is already in use'
          : err.code === 'EADDRNOTAVAIL'
            ? 'no interface of this machine has that address'
            : err.code === 'EACCES'
              ? 'permission denied'
              : err.message;
      reject(new ListenError(`cannot listen on ${host}:${port}: ${why}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server);
    });
  });
}
