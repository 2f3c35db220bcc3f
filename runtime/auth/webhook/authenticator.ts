// The webhook token authenticator of `--authentication-token-webhook-config-file`:
// each bearer token not recognised earlier is sent to the webhook as a
// TokenReview (version per `--authentication-token-webhook-version`, with
// the audiences), and its answer decides, as upstream's: audiences are
// checked against status.audiences (or the server's own audiences when the
// webhook names none); authenticated=false is "not mine" (the chain ends in
// a 401); status.error, a non-2xx answer, an unreadable answer or no answer
// in time are authentication errors (401). Transient failures (connection
// reset, 429, 500, 504, Retry-After) are retried with upstream's backoff.
// Answers are cached for `--authentication-token-webhook-cache-ttl`
// (default 2m; errors are not cached).

import { errors } from '../../api/errors.ts';
import type { AuthResult, TokenAuthenticator } from '../authenticator.ts';
import { AnswerCache } from './cache.ts';
import { WebhookClient, type WebhookAnswer } from './client.ts';
import { loadWebhookKubeconfig, type WebhookClientConfig } from './kubeconfig.ts';
import { DEFAULT_RETRY_BACKOFF, postWithRetries, realSleep } from './retry.ts';
import { readTokenReviewStatus, tokenReviewRequest, TokenReviewFormatError, type WebhookVersion } from './token-review.ts';

export const DEFAULT_WEBHOOK_CACHE_TTL_MS = 2 * 60_000;

export interface WebhookTokenOptions {
  client: WebhookClientConfig;
  version?: WebhookVersion;
  /** 0 disables the cache. */
  cacheTtlMs?: number;
  /** The server's API audiences (used when the webhook's answer names none). */
  apiAudiences?: string[];
  now: () => number;
  timeoutMs?: number;
  retryBackoff?: typeof DEFAULT_RETRY_BACKOFF;
  /** Waits between retries (injected so tests do not sleep). */
  sleep?: (ms: number) => Promise<void>;
  /** Receives why a token was refused by an error (never the token), for the log. */
  onError?: (message: string) => void;
}

export class WebhookTokenAuthenticator implements TokenAuthenticator {
  private readonly http: WebhookClient;
  private readonly cache: AnswerCache<AuthResult | undefined>;
  private readonly version: WebhookVersion;
  private readonly apiAudiences: string[];
  private readonly backoff: typeof DEFAULT_RETRY_BACKOFF;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly o: WebhookTokenOptions) {
    this.http = new WebhookClient(o.client, o.timeoutMs);
    this.cache = new AnswerCache({ ttlMs: o.cacheTtlMs ?? DEFAULT_WEBHOOK_CACHE_TTL_MS, now: o.now });
    this.version = o.version ?? 'v1';
    this.apiAudiences = o.apiAudiences ?? [];
    this.backoff = o.retryBackoff ?? DEFAULT_RETRY_BACKOFF;
    this.sleep = o.sleep ?? realSleep;
  }

  async authenticateToken(token: string, audiences: string[]): Promise<AuthResult | undefined> {
    let result: AuthResult | undefined;
    try {
      result = await this.cache.get(token, audiences, () => this.review(token, audiences));
    } catch (err) {
      this.o.onError?.(`webhook token authenticator: ${(err as Error).message}`);
      throw errors.unauthorized();
    }
    return result && copy(result);
  }

  close(): void {
    this.http.close();
  }

  private async review(token: string, audiences: string[]): Promise<AuthResult | undefined> {
    const body = JSON.stringify(tokenReviewRequest(this.version, token, audiences));
    const answer = await this.callWithRetries(body);
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body.toString('utf8'));
    } catch {
      throw new Error(`the webhook's answer is not JSON (HTTP ${answer.status})`);
    }
    let status;
    try {
      status = readTokenReviewStatus(parsed);
    } catch (err) {
      if (err instanceof TokenReviewFormatError) throw new Error(`the webhook's answer is not a TokenReview: ${err.message}`, { cause: err });
      throw err;
    }
    let auds: string[] | undefined;
    if (audiences.length > 0) {
      const got = status.audiences.length ? status.audiences : this.apiAudiences;
      auds = audiences.filter((a) => got.includes(a));
      if (auds.length === 0) return undefined;
    }
    if (!status.authenticated) {
      if (status.error) throw new Error(`the webhook refused the token: ${status.error}`);
      return undefined;
    }
    const result: AuthResult = { user: status.user! };
    if (auds) result.audiences = auds;
    return result;
  }

  private callWithRetries(body: string): Promise<WebhookAnswer> {
    return postWithRetries(this.http, body, this.backoff, this.sleep);
  }
}

function copy(r: AuthResult): AuthResult {
  const user = { ...r.user, groups: [...r.user.groups] };
  if (r.user.extra) user.extra = Object.fromEntries(Object.entries(r.user.extra).map(([k, v]) => [k, [...v]]));
  return r.audiences ? { user, audiences: [...r.audiences] } : { user };
}

/** Builds the authenticator from the flags: the kubeconfig file is read now (a bad one is a FileError). */
export function loadWebhookTokenAuthenticator(configFile: string, o: Omit<WebhookTokenOptions, 'client'>): WebhookTokenAuthenticator {
  return new WebhookTokenAuthenticator({ ...o, client: loadWebhookKubeconfig(configFile) });
}
