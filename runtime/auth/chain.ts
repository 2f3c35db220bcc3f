// The authenticator chain, in kube-apiserver's order: request authenticators
// (front proxy, then client certificates), then the bearer token, offered to
// each token authenticator (token file, service accounts, bootstrap tokens,
// webhook) in turn. The first that recognises a credential decides. A
// credential nobody accepts is 401 — a bearer token no authenticator
// recognises included — and only a request with no credential at all falls
// to the anonymous user, where anonymous access is enabled for its path.
// Every user a credential identified also gets the group system:authenticated.

import { errors } from '../api/errors.ts';
import type { AuthRequest, AuthResult, RequestAuthenticator, TokenAuthenticator } from './authenticator.ts';
import { ANONYMOUS, type UserInfo } from './user.ts';
import { GROUP_AUTHENTICATED, GROUP_UNAUTHENTICATED } from '../api/k8s-names.ts';

/** Longer bearer tokens are refused before any authenticator sees them. */
export const MAX_TOKEN_BYTES = 16 * 1024;

export interface ChainOptions {
  requestAuthenticators: RequestAuthenticator[];
  tokenAuthenticators: TokenAuthenticator[];
  /** The audiences tokens presented to this server must be for (--api-audiences; default the issuer). */
  apiAudiences: string[];
  /** Whether a request without credentials is the anonymous user, by path (undefined: never). */
  anonymous?: (path: string) => boolean;
}

/** The token of an `Authorization: Bearer <token>` header, undefined without one. */
export function bearerToken(req: AuthRequest): string | undefined {
  const h = req.header('authorization');
  if (!h) return undefined;
  const m = /^\s*bearer\s+(\S*)\s*$/i.exec(h);
  if (!m || !m[1]) return undefined;
  return m[1];
}

/** Adds system:authenticated to a user a credential identified (not to anonymous). */
export function withAuthenticatedGroup(u: UserInfo): UserInfo {
  if (u.name === ANONYMOUS.name || u.groups.includes(GROUP_UNAUTHENTICATED) || u.groups.includes(GROUP_AUTHENTICATED)) return u;
  return { ...u, groups: [...u.groups, GROUP_AUTHENTICATED] };
}

export class AuthenticationChain {
  constructor(private readonly o: ChainOptions) {}

  get apiAudiences(): string[] {
    return this.o.apiAudiences;
  }

  /** Whether any authenticator could ever recognise a credential (else every caller is anonymous). */
  get hasAuthenticators(): boolean {
    return this.o.requestAuthenticators.length + this.o.tokenAuthenticators.length > 0;
  }

  /** The user of a request; throws 401 for a bad credential or, without anonymous access, for none. */
  async authenticate(req: AuthRequest): Promise<UserInfo> {
    let failed = false;
    for (const a of this.o.requestAuthenticators) {
      const r = await attempt(() => a.authenticate(req));
      if (r === 'failed') failed = true;
      else if (r) return withAuthenticatedGroup(r.user);
    }
    const token = bearerToken(req);
    if (token !== undefined) {
      const r = await this.authenticateToken(token, this.o.apiAudiences);
      if (r) return withAuthenticatedGroup(r.user);
      failed = true;
    }
    if (failed) throw errors.unauthorized();
    if (this.o.anonymous?.(req.path)) return ANONYMOUS;
    throw errors.unauthorized();
  }

  /** The token authenticators alone (TokenReview); undefined when no authenticator accepts the token. */
  async authenticateToken(token: string, audiences: string[]): Promise<AuthResult | undefined> {
    if (Buffer.byteLength(token) > MAX_TOKEN_BYTES) return undefined;
    for (const a of this.o.tokenAuthenticators) {
      const r = await attempt(() => a.authenticateToken(token, audiences));
      if (r && r !== 'failed') return { ...r, user: withAuthenticatedGroup(r.user) };
    }
    return undefined;
  }
}

async function attempt(f: () => Promise<AuthResult | undefined>): Promise<AuthResult | undefined | 'failed'> {
  try {
    return await f();
  } catch {
    // an authenticator's error is a bad credential; its message may name the credential, so it goes nowhere
    return 'failed';
  }
}
