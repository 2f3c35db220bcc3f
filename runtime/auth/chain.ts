// The authenticator chain, in kube-apiserver's order: request authenticators
// (front proxy, then client certificates), then the bearer token, offered to
// each token authenticator (token file, service accounts, bootstrap tokens,
// webhook) in turn. The first that recognises a credential decides. A
// credential nobody accepts is 401 — a bearer token no authenticator
// recognises included — and only a request with no credential at all falls
// to the anonymous user, where anonymous access is enabled for its path.
// Every user a credential identified also gets the group system:authenticated.

import { errors } from '../api/errors.ts';
import { isPromise, type Maybe } from '../api/maybe.ts';
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

  /**
   * The user of a request; throws (or rejects with) 401 for a bad credential
   * or, without anonymous access, for none. The answer comes at once while
   * every request authenticator answers at once and no token is presented
   * (anonymous requests, a client certificate verified on this connection).
   */
  authenticate(req: AuthRequest): Maybe<UserInfo> {
    return this.fromRequestAuthenticators(req, 0, false);
  }

  /** Request authenticators from the i-th on, in order; asynchronous from the first that answers later. */
  private fromRequestAuthenticators(req: AuthRequest, i: number, failed: boolean): Maybe<UserInfo> {
    const all = this.o.requestAuthenticators;
    for (; i < all.length; i++) {
      const r = attempt(all[i], req);
      if (isPromise(r)) {
        const next = i + 1;
        return r.then((v) => (v && v !== 'failed' ? withAuthenticatedGroup(v.user) : this.fromRequestAuthenticators(req, next, failed || v === 'failed')));
      }
      if (r === 'failed') failed = true;
      else if (r) return withAuthenticatedGroup(r.user);
    }
    const token = bearerToken(req);
    if (token !== undefined) {
      return this.authenticateToken(token, this.o.apiAudiences).then((r) => {
        if (r) return withAuthenticatedGroup(r.user);
        throw errors.unauthorized();
      });
    }
    if (failed) throw errors.unauthorized();
    if (this.o.anonymous?.(req.path)) return ANONYMOUS;
    throw errors.unauthorized();
  }

  /** The token authenticators alone (TokenReview); undefined when no authenticator accepts the token. */
  async authenticateToken(token: string, audiences: string[]): Promise<AuthResult | undefined> {
    if (Buffer.byteLength(token) > MAX_TOKEN_BYTES) return undefined;
    for (const a of this.o.tokenAuthenticators) {
      const r = await settled(() => a.authenticateToken(token, audiences));
      if (r && r !== 'failed') return { ...r, user: withAuthenticatedGroup(r.user) };
    }
    return undefined;
  }
}

type Attempt = AuthResult | undefined | 'failed';

// an authenticator's error is a bad credential; its message may name the credential, so it goes nowhere
const FAILED = (): 'failed' => 'failed';

/** A request authenticator's verdict, at once when it answers at once; an error (thrown or rejected) is 'failed'. */
function attempt(a: RequestAuthenticator, req: AuthRequest): Maybe<Attempt> {
  try {
    const r = a.authenticate(req);
    return isPromise(r) ? r.then(undefined, FAILED) : r;
  } catch {
    return 'failed';
  }
}

async function settled(f: () => Promise<AuthResult | undefined>): Promise<Attempt> {
  try {
    return await f();
  } catch {
    return FAILED();
  }
}
