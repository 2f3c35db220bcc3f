// One call of an admission webhook, as upstream's dispatchers make it: a
// dry-run request is refused for a webhook whose sideEffects are not None
// or NoneOnDryRun (400, not subject to failurePolicy); the review of the
// webhook's version is POSTed within its timeoutSeconds; a transport
// error, a timeout (`context deadline exceeded`), a non-2xx status, an
// undecodable or unacceptable answer is a WebhookCallFailure (the caller
// applies failurePolicy). The call ends by the request's deadline when that
// comes first (upstream bounds it by the request's context): its time
// limit and the `?timeout=` it sends (whole seconds, rounded up) are what
// is left; none left fails it at once as a timeout. The answer's warnings go to the request's
// Warning headers and its audit annotations onto the attributes (keyed
// `<webhook>/<key>`); a denial is the webhook's Status (errors.ts). The
// review carries the objects in the version the call is made in (the
// request's, or those ../matching/versioned.ts converted for an equivalent's).

import { randomUUID } from 'node:crypto';
import { WebhookCallError } from '../../auth/webhook/client.ts';
import type { AdmissionAttributes } from '../chain.ts';
import type { Obj } from '../../storage/interface.ts';
import { admissionRequest, type RequestVersions } from '../matching/request.ts';
import { denialError, dryRunUnsupported, WebhookCallFailure } from './errors.ts';
import { markDenial } from './observe.ts';
import type { WebhookEntry } from './configs.ts';
import { NO_REVIEW_VERSION, reviewBody, reviewVersionOf, verifyResponse, type WebhookResult } from './review.ts';

const NO_SIDE_EFFECTS = new Set(['None', 'NoneOnDryRun']);

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The text of a failed POST, as Go's HTTP client words it where it can. */
function postFailure(url: string, err: unknown): string {
  if (err instanceof WebhookCallError && err.timedOut) return `Post ${JSON.stringify(url)}: context deadline exceeded`;
  const msg = err instanceof Error ? err.message : String(err);
  return `Post ${JSON.stringify(url)}: ${msg.replace(/^calling the webhook: /, '')}`;
}

/** What a non-2xx answer says: its Status message when it is one, otherwise the status code. */
function statusFailure(status: number, body: Buffer): string {
  try {
    const s: unknown = JSON.parse(body.toString('utf8'));
    if (isObj(s) && s.kind === 'Status' && typeof s.message === 'string' && s.message) return s.message;
  } catch {
    // not JSON: described by its code
  }
  return `the server responded with the status code ${status} but did not return more information`;
}

/**
 * Calls the webhook and returns its checked answer; throws a
 * WebhookCallFailure for a failed call, or the ApiError of a denial or of
 * a dry run it cannot take.
 */
export async function callWebhook(
  entry: WebhookEntry,
  attrs: AdmissionAttributes,
  versions: RequestVersions,
  mutating: boolean,
  uidOf: () => string = randomUUID,
  now: () => number = Date.now,
  objects: { object: Obj | null; oldObject: Obj | null } = attrs,
): Promise<WebhookResult> {
  const name = entry.name;
  if (attrs.dryRun && !NO_SIDE_EFFECTS.has(String(entry.hook.sideEffects))) throw dryRunUnsupported(name);
  const version = reviewVersionOf(Array.isArray(entry.hook.admissionReviewVersions) ? entry.hook.admissionReviewVersions : []);
  if (!version) throw new WebhookCallFailure(name, `could not create admission objects: ${NO_REVIEW_VERSION}`, 400);
  const uid = uidOf();
  const body = reviewBody(version, admissionRequest(attrs, versions, uid), objects.object, objects.oldObject);
  const client = entry.client();
  // the webhook's own limit, or what is left of the request's when that is less
  const own = entry.timeoutSeconds * 1000;
  const left = attrs.deadline === undefined ? Infinity : attrs.deadline - now();
  const call = left < own ? { timeoutMs: Math.max(0, left), query: left > 0 ? `timeout=${Math.ceil(left / 1000)}s` : '' } : undefined;
  let answer: unknown;
  let failedWith = 503;
  try {
    if (call && call.timeoutMs <= 0) throw new WebhookCallError('the request deadline has passed', false, true);
    const res = await client.post(body, call);
    if (res.status < 200 || res.status > 299) {
      failedWith = res.status;
      throw new Error(statusFailure(res.status, res.body));
    }
    try {
      answer = JSON.parse(res.body.toString('utf8'));
    } catch (err) {
      throw new Error(`couldn't get version/kind; json parse error: ${(err as Error).message}`, { cause: err });
    }
  } catch (err) {
    const text = err instanceof WebhookCallError ? postFailure(call ? client.urlWith(call.query) : client.url, err) : (err as Error).message;
    throw new WebhookCallFailure(name, `failed to call webhook: ${text}`, failedWith);
  }
  let result: WebhookResult;
  try {
    result = verifyResponse(version, uid, mutating, answer);
  } catch (err) {
    throw new WebhookCallFailure(name, `received invalid webhook response: ${(err as Error).message}`);
  }
  for (const [k, v] of Object.entries(result.auditAnnotations)) {
    attrs.auditAnnotations ??= {};
    attrs.auditAnnotations[`${name}/${k}`] = v;
  }
  attrs.warnings?.push(...result.warnings);
  if (!result.allowed) throw markDenial(denialError(name, { group: attrs.group, resource: attrs.resource }, attrs.name, result.status));
  return result;
}
