// What each admission webhook call tells the webhook metrics
// (apiserver_admission_webhook_admission_duration_seconds,
// apiserver_admission_webhook_request_total,
// apiserver_admission_webhook_rejection_count,
// apiserver_admission_webhook_fail_open_count), classified as upstream's
// dispatchers classify a call's end: no error is code 200, not rejected; a
// failed call (transport, timeout, bad answer) carries its code (the
// webhook's non-2xx status, else 503 or 400) and rejects the request unless
// failurePolicy is Ignore (error type calling_webhook_error); a denial
// rejects with the code of the webhook's Status (no_error); any other error
// (a dry run the webhook cannot take, a patch that changes the object's
// identity) rejects with code 0 (apiserver_internal_error). The type is
// `admit` for mutating webhooks and `validating` for validating ones.

import type { ApiError } from '../../api/errors.ts';
import { WebhookCallFailure } from './errors.ts';

export type WebhookCallType = 'admit' | 'validating';
export type WebhookRejectionErrorType = 'calling_webhook_error' | 'apiserver_internal_error' | 'no_error';

export interface WebhookCallOutcome {
  rejected: boolean;
  /** 200, the failure's or the denial's code, or 0. */
  code: number;
  /** Set when the call rejected the request. */
  errorType?: WebhookRejectionErrorType;
}

/** Where the webhook plugins report their calls (the server's metrics). */
export interface WebhookObserver {
  call(name: string, type: WebhookCallType, operation: string, outcome: WebhookCallOutcome, seconds: number): void;
  failOpen(name: string, type: WebhookCallType): void;
}

const denials = new WeakSet<object>();

/** Marks the error of a webhook's denial (upstream's ErrWebhookRejection). */
export function markDenial(err: ApiError): ApiError {
  denials.add(err);
  return err;
}

/** How one call ended, for the metrics. */
export function callOutcome(err: unknown, failurePolicy: string | undefined): WebhookCallOutcome {
  if (err === undefined) return { rejected: false, code: 200 };
  if (err instanceof WebhookCallFailure) {
    if (failurePolicy === 'Ignore') return { rejected: false, code: err.code };
    return { rejected: true, code: err.code, errorType: 'calling_webhook_error' };
  }
  if (typeof err === 'object' && err !== null && denials.has(err)) return { rejected: true, code: (err as ApiError).code, errorType: 'no_error' };
  return { rejected: true, code: 0, errorType: 'apiserver_internal_error' };
}
