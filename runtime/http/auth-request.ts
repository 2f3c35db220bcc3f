// What authentication sees of an HTTP request (auth/authenticator.ts's
// AuthRequest), built from the Hono context: the headers, the path, and the
// client certificate of the TLS connection. The certificate is read from the
// socket once per connection and the same object is handed to every request
// on it, so authenticators can cache their verdict per connection.

import type { Context } from 'hono';
import type { TLSSocket } from 'node:tls';
import type { AuthRequest, PeerCertificate } from '../auth/authenticator.ts';

const peers = new WeakMap<object, PeerCertificate | null>();

interface DetailedCert {
  raw?: Buffer;
  issuerCertificate?: DetailedCert;
}

/** The client certificate of a TLS socket (leaf and the chain OpenSSL saw), or undefined. */
export function peerCertificate(socket: unknown): PeerCertificate | undefined {
  const s = socket as Partial<TLSSocket> | undefined;
  if (!s || typeof s.getPeerCertificate !== 'function') return undefined;
  let cached = peers.get(s);
  if (cached === undefined) {
    const leaf = s.getPeerCertificate(true) as DetailedCert;
    if (!leaf?.raw) cached = null;
    else {
      const intermediates: Uint8Array[] = [];
      const seen = new Set<DetailedCert>([leaf]);
      for (let c = leaf.issuerCertificate; c?.raw && !seen.has(c) && intermediates.length < 10; c = c.issuerCertificate) {
        seen.add(c);
        intermediates.push(c.raw);
      }
      cached = { raw: leaf.raw, intermediates };
    }
    peers.set(s, cached);
  }
  return cached ?? undefined;
}

type Incoming = {
  socket?: unknown;
  headers: Record<string, string | string[] | undefined>;
  headersDistinct?: Record<string, string[] | undefined>;
};

/** A request that came through a socket: node's parsed headers (lower-case names), no WHATWG Headers built. */
class NodeAuthRequest implements AuthRequest {
  readonly certificate: PeerCertificate | undefined;

  constructor(
    readonly path: string,
    private readonly incoming: Incoming,
  ) {
    this.certificate = peerCertificate(incoming.socket);
  }

  header(name: string): string | undefined {
    const v = this.incoming.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  /** Each occurrence of a repeated header is one value (node joins them with commas in `headers`). */
  headerValues(name: string): string[] {
    return this.incoming.headersDistinct?.[name.toLowerCase()] ?? [];
  }

  headerNames(): string[] {
    return Object.keys(this.incoming.headers);
  }
}

/** A request without a socket (app.request()): its own headers. */
class FetchAuthRequest implements AuthRequest {
  constructor(
    readonly path: string,
    private readonly headers: Headers,
  ) {}

  header(name: string): string | undefined {
    return this.headers.get(name) ?? undefined;
  }

  headerValues(name: string): string[] {
    const joined = this.headers.get(name);
    return joined === null ? [] : [joined];
  }

  headerNames(): string[] {
    return [...this.headers.keys()];
  }
}

export function authRequestOf(c: Context, path: string): AuthRequest {
  const incoming = (c.env as { incoming?: Incoming } | undefined)?.incoming;
  return incoming?.headers ? new NodeAuthRequest(path, incoming) : new FetchAuthRequest(path, c.req.raw.headers);
}
