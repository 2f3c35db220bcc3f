// The contracts of authentication, independent of HTTP frameworks: what an
// authenticator sees of a request (headers, path, the client certificate the
// TLS layer verified), and the two shapes of authenticator kube-apiserver
// has — one that looks at the whole request (certificates, front proxy) and
// one that is handed a bearer token (token file, bootstrap tokens, service
// account tokens, webhook).
//
// The rule every implementation follows: return undefined when the request
// carries no credential of your kind (the chain goes on); return the user
// when it does and it is good; throw errors.unauthorized() (api/errors.ts)
// when it does and it is bad. Messages never contain the credential.

import type { UserInfo } from './user.ts';

/** A client certificate the TLS handshake received (not yet checked against any CA). */
export interface PeerCertificate {
  /** DER of the leaf certificate. */
  raw: Uint8Array;
  /** DER of the intermediates the client sent after the leaf (may be empty). */
  intermediates: Uint8Array[];
}

/** What authenticators see of a request. Header names are case-insensitive. */
export interface AuthRequest {
  /** The first value of a header, or undefined. */
  header(name: string): string | undefined;
  /** Every value of a header (repeated headers and comma-joined ones are not split). */
  headerValues(name: string): string[];
  /** The names (lower case) of all headers present. */
  headerNames(): string[];
  /** The request path, without the query. */
  path: string;
  /** The client certificate of the connection, when the client sent one. */
  certificate?: PeerCertificate;
}

export interface AuthResult {
  user: UserInfo;
  /** The audiences the credential was valid for (token authenticators that know them). */
  audiences?: string[];
}

/** Looks at the whole request. */
export interface RequestAuthenticator {
  /** A verdict at hand (no credential of this kind, a cached one) may come back at once rather than as a promise. */
  authenticate(req: AuthRequest): AuthResult | undefined | Promise<AuthResult | undefined>;
}

/** Is handed a bearer token (already stripped of `Bearer `). */
export interface TokenAuthenticator {
  /** `audiences`: what the server accepts (the API audiences, or a TokenReview's spec.audiences). */
  authenticateToken(token: string, audiences: string[]): Promise<AuthResult | undefined>;
}
