// Calling a webhook with upstream's retries (k8s.io/apiserver's
// WithExponentialBackoff and DefaultShouldRetry), shared by the webhook
// token authenticator and the webhook authorizer: a connection reset, 429,
// 500, 504 or an answer with Retry-After is tried again after a growing,
// jittered delay, up to the backoff's steps; any other non-2xx answer fails
// at once.

import { WebhookCallError, type WebhookAnswer, type WebhookClient } from './client.ts';

export interface RetryBackoff {
  durationMs: number;
  factor: number;
  jitter: number;
  steps: number;
}

/** Upstream's DefaultAuthWebhookRetryBackoff. */
export const DEFAULT_RETRY_BACKOFF: RetryBackoff = { durationMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

class TransientAnswer extends Error {}

export const realSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** POSTs `body` until a 2xx answer, a failure that is not retried, or the last step. */
export async function postWithRetries(http: WebhookClient, body: string, backoff: RetryBackoff, sleep: (ms: number) => Promise<void>): Promise<WebhookAnswer> {
  let delay = backoff.durationMs;
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await http.post(body);
      if (answer.status >= 200 && answer.status < 300) return answer;
      const transient = answer.status === 429 || answer.status === 500 || answer.status === 504 || answer.retryAfter !== undefined;
      const message = `the webhook answered HTTP ${answer.status}`;
      throw transient ? new TransientAnswer(message) : new Error(message);
    } catch (err) {
      const retriable = err instanceof TransientAnswer || (err instanceof WebhookCallError && err.retriable);
      if (!retriable || attempt >= backoff.steps) throw err;
    }
    await sleep(delay * (1 + Math.random() * backoff.jitter));
    delay *= backoff.factor;
  }
}
