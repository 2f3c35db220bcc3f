// The Webhook authorization mode, as upstream's webhook authorizer: each
// request's attributes become a SubjectAccessReview POSTed to the webhook
// (synchronously, with upstream's retries); status.allowed is allow,
// status.denied is deny (both: deny with an error), neither is no opinion,
// with status.reason as the reason; evaluationError is only logged. Answers
// are cached by the review's spec for the authorized or unauthorized TTL
// (5m and 30s by default); specs whose requester-controlled parts are
// 10,000 bytes or more are not cached, as upstream. A failing webhook gives
// the failure policy's decision with the error (no opinion for
// --authorization-mode=Webhook; the stage then answers 500 unless a later
// mode allows). With matchConditions, the webhook is asked only when all
// hold. It cannot list rules.

import { WebhookClient } from '../../auth/webhook/client.ts';
import type { WebhookClientConfig } from '../../auth/webhook/kubeconfig.ts';
import { DEFAULT_RETRY_BACKOFF, postWithRetries, realSleep, type RetryBackoff } from '../../auth/webhook/retry.ts';
import type { Attributes } from '../attributes.ts';
import { type AuthorizationMode, type AuthorizationResult, type Decision, NO_OPINION } from '../authorizer.ts';
import { ExpiringLRU } from './cache.ts';
import type { Matcher } from './match.ts';
import { readSarStatus, type SarStatus, type SarVersion, sarRequest, sarSpec } from './subject-access-review.ts';

export const DEFAULT_AUTHORIZED_TTL_MS = 5 * 60_000;
export const DEFAULT_UNAUTHORIZED_TTL_MS = 30_000;
/** Upstream's maxControlledAttrCacheSize. */
const MAX_CACHED_ATTR_BYTES = 10_000;

export interface WebhookAuthorizerOptions {
  client: WebhookClientConfig;
  version: SarVersion;
  authorizedTtlMs?: number;
  unauthorizedTtlMs?: number;
  now: () => number;
  timeoutMs?: number;
  retryBackoff?: RetryBackoff;
  sleep?: (ms: number) => Promise<void>;
  /** The decision when the webhook cannot be asked or its answer is unreadable (failurePolicy). */
  decisionOnError?: Decision;
  matcher?: Matcher;
  /** The authorizer's name (configuration file), for the log. */
  name?: string;
  log?: (msg: string) => void;
}

function shouldCache(a: Attributes): boolean {
  const size = a.namespace.length + a.verb.length + a.apiGroup.length + a.apiVersion.length + a.resource.length + a.subresource.length + a.name.length + a.path.length;
  return size < MAX_CACHED_ATTR_BYTES;
}

export class WebhookAuthorizer {
  private readonly http: WebhookClient;
  private readonly cache: ExpiringLRU<SarStatus>;
  private readonly decisionOnError: Decision;

  constructor(private readonly o: WebhookAuthorizerOptions) {
    this.http = new WebhookClient(o.client, o.timeoutMs);
    this.cache = new ExpiringLRU(o.now);
    this.decisionOnError = o.decisionOnError ?? 'noopinion';
  }

  async authorize(a: Attributes): Promise<AuthorizationResult> {
    const spec = sarSpec(a);
    if (this.o.matcher) {
      const m = this.o.matcher.match(spec);
      if (m.error) return this.failed(`matchConditions: ${m.error}`);
      if (!m.matches) return NO_OPINION;
    }
    const key = JSON.stringify(spec);
    let status = this.cache.get(key);
    if (!status) {
      try {
        status = await this.review(spec);
      } catch (err) {
        return this.failed((err as Error).message);
      }
      if (shouldCache(a)) this.cache.add(key, status, status.allowed ? (this.o.authorizedTtlMs ?? DEFAULT_AUTHORIZED_TTL_MS) : (this.o.unauthorizedTtlMs ?? DEFAULT_UNAUTHORIZED_TTL_MS));
    }
    if (status.evaluationError) this.o.log?.(`${this.label()}: the webhook reported an evaluation error: ${status.evaluationError}`);
    if (status.denied && status.allowed) return { decision: 'deny', reason: status.reason, error: 'webhook subject access review returned both allow and deny response' };
    if (status.denied) return { decision: 'deny', reason: status.reason };
    if (status.allowed) return { decision: 'allow', reason: status.reason };
    return { decision: 'noopinion', reason: status.reason };
  }

  close(): void {
    this.http.close();
  }

  private label(): string {
    return this.o.name ? `authorization webhook ${JSON.stringify(this.o.name)}` : 'authorization webhook';
  }

  private failed(message: string): AuthorizationResult {
    const error = `${this.label()}: ${message}`;
    this.o.log?.(`Failed to make webhook authorizer request: ${error}`);
    return { decision: this.decisionOnError, reason: '', error };
  }

  private async review(spec: ReturnType<typeof sarSpec>): Promise<SarStatus> {
    const body = JSON.stringify(sarRequest(this.o.version, spec));
    const answer = await postWithRetries(this.http, body, this.o.retryBackoff ?? DEFAULT_RETRY_BACKOFF, this.o.sleep ?? realSleep);
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.body.toString('utf8'));
    } catch {
      throw new Error(`the webhook's answer is not JSON (HTTP ${answer.status})`);
    }
    try {
      return readSarStatus(parsed);
    } catch (err) {
      throw new Error(`the webhook's answer is not a SubjectAccessReview: ${(err as Error).message}`, { cause: err });
    }
  }
}

/** The mode for a webhook authorizer (its rules cannot be listed, as upstream). */
export function webhookMode(w: WebhookAuthorizer, name = 'Webhook'): AuthorizationMode {
  return {
    name,
    authorizer: w,
    ruleResolver: { rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true, error: 'webhook authorizer does not support user rule resolution' }) },
  };
}
