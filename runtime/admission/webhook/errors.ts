// The errors of admission webhooks as kube-apiserver builds them: a
// denial's Status from the webhook's own (code, reason and message passed
// through, the message prefixed `admission webhook "x" denied the
// request`, a 403 Forbidden unless the webhook said otherwise), the dry-run
// refusal of a webhook with side effects, and a failed call
// (`failed calling webhook "x": ...`), which failurePolicy Fail turns into a
// 500 and Ignore skips.

import { ApiError, errors, qualifiedResource, type StatusDetails } from '../../api/errors.ts';
import type { Obj } from '../../storage/interface.ts';

/** A call that failed (transport, timeout, bad answer): subject to the webhook's failurePolicy. */
export class WebhookCallFailure extends Error {
  constructor(
    readonly webhookName: string,
    readonly reason: string,
    /** The code upstream's failure carries (the webhook metrics' label): the webhook's non-2xx status, 400 when no review could be made, else 503. */
    readonly code = 503,
  ) {
    super(`failed calling webhook ${JSON.stringify(webhookName)}: ${reason}`);
  }
}

/** Upstream's ToStatusErr: the Status of a webhook's denial. */
export function denialError(webhookName: string, gr: { group: string; resource: string }, name: string, status: Obj | undefined): ApiError {
  const s = status ?? {};
  const code = typeof s.code === 'number' && s.code !== 0 ? s.code : 403;
  const deniedBy = `admission webhook ${JSON.stringify(webhookName)} denied the request`;
  const msg = typeof s.message === 'string' && s.message !== '' ? s.message : '';
  const reasonIn = typeof s.reason === 'string' ? s.reason : '';
  let message = msg ? `${deniedBy}: ${msg}` : reasonIn ? `${deniedBy}: ${reasonIn}` : `${deniedBy} without explanation`;
  const shownName = name || 'Unknown';
  let details = typeof s.details === 'object' && s.details !== null ? (s.details as StatusDetails) : undefined;
  if (!details) {
    if (code === 500) details = { causes: [{ message }] };
    else {
      details = { name: shownName, kind: gr.resource };
      if (gr.group) details.group = gr.group;
    }
  }
  message = code === 500 ? `Internal error occurred: ${message}` : `${qualifiedResource(gr)} ${JSON.stringify(shownName)} is forbidden: ${message}`;
  const reason = reasonIn || (code === 500 ? 'InternalError' : 'Forbidden');
  return new ApiError(code, reason, message, details);
}

/** A dry-run request and a webhook whose sideEffects are not None or NoneOnDryRun. */
export const dryRunUnsupported = (webhookName: string): ApiError => errors.badRequest(`admission webhook ${JSON.stringify(webhookName)} does not support dry run`);

/** failurePolicy Fail of a failed call. */
export const failedClosed = (f: WebhookCallFailure): ApiError => errors.internal(f);
