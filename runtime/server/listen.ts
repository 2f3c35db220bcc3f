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

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import { sendStatus } from '../http/respond.ts';
import { ApiError, errors } from '../api/errors.ts';

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
  return [
    'HTTP/1.1 405 Method Not Allowed',
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Creates the server and listens; resolves once it listens, rejects when it
 * cannot. `prepare` sees the server before it accepts a connection.
 */
export function listen(fetch: FetchHandler, host: string, port: number, prepare?: (server: Server) => void): Promise<Server> {
  const listener = getRequestListener(fetch as never, { hostname: host, errorHandler: adapterErrorResponse });
  const server = createServer(listener);
  prepare?.(server);
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => {});
    socket.end(connectRefusal());
  });
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      server.close();
      const why = err.code === 'EADDRINUSE' ? 'the address is already in use'
        : err.code === 'EADDRNOTAVAIL' ? 'no interface of this machine has that address'
          : err.code === 'EACCES' ? 'permission denied' : err.message;
      reject(new ListenError(`cannot listen on ${host}:${port}: ${why}`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server);
    });
  });
}
