// PatchError: the failures of applying a patch, each carrying the HTTP status,
// the Kubernetes Status reason and the message kube-apiserver 1.31 answers
// with for the same failure. Boundary: builds error values only; turning them
// into a Status response is the HTTP layer's job.

import type { StatusCause } from '../api/errors.ts';

export class PatchError extends Error {
  /** HTTP status code of the answer. */
  readonly code: number;
  /** Kubernetes Status reason (`BadRequest`, `Invalid`, ...; '' is StatusReasonUnknown). */
  readonly reason: string;
  /** Status details.causes, when the upstream answer carries them. */
  readonly causes?: StatusCause[];
  /**
   * The underlying library/merge error text. Upstream hides it behind a generic
   * message for some failures (a failed JSON patch `test`); kept for logs.
   */
  readonly detail?: string;

  /** Whether the Status carries a `details` object (empty for the generic 422). */
  private readonly withDetails: boolean;

  constructor(code: number, reason: string, message: string, opts: { causes?: StatusCause[]; detail?: string; withDetails?: boolean } = {}) {
    super(message);
    this.name = 'PatchError';
    this.code = code;
    this.reason = reason;
    if (opts.causes) this.causes = opts.causes;
    if (opts.detail !== undefined) this.detail = opts.detail;
    this.withDetails = opts.withDetails ?? opts.causes !== undefined;
  }

  /** The metav1.Status kube-apiserver answers with for this failure. */
  status(): Record<string, unknown> {
    const out: Record<string, unknown> = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message };
    if (this.reason !== '') out.reason = this.reason;
    if (this.withDetails) out.details = this.causes ? { causes: this.causes } : {};
    out.code = this.code;
    return out;
  }
}

/** 400, reason BadRequest, message as given (errors.NewBadRequest). */
export function badRequest(message: string): PatchError {
  return new PatchError(400, 'BadRequest', message);
}

/**
 * 422 the way errors.NewGenericServerResponse builds it: reason Invalid, a fixed
 * message, no causes; the real cause is only in `detail`.
 */
export function genericUnprocessable(detail: string): PatchError {
  return new PatchError(422, 'Invalid', 'the server rejected our request due to an error in our request', { detail, withDetails: true });
}

/**
 * 500 for a failure that is ours, not the client's (a type missing from the
 * merge schema, a strategy the schema should not hold): reason ''
 * (StatusReasonUnknown) and the error text as message, as kube-apiserver
 * renders errors it does not classify.
 */
export function internal(message: string): PatchError {
  return new PatchError(500, '', message, { detail: message });
}

/**
 * A strategic merge patch that cannot be applied because of what it contains
 * (unknown `$patch`, missing merge key, mixed list element types, a directive
 * of the wrong type, ...). kube-apiserver 1.31 passes these strategicpatch
 * errors through unclassified, which makes them 500s with reason ''; they are
 * the client's mistake and never a server fault, so we answer 400 BadRequest
 * with the same text (a deliberate difference, docs/decisions/patch.md).
 */
export function badPatch(message: string): PatchError {
  return new PatchError(400, 'BadRequest', message, { detail: message });
}

/**
 * 422 for a patched document that cannot be decoded into the kind
 * (errors.NewInvalid with an empty kind and name and one `patch` field error).
 */
export function invalidPatchResult(value: string, problem: string): PatchError {
  const body = `Invalid value: ${JSON.stringify(value)}: ${problem}`;
  return new PatchError(422, 'Invalid', ` "" is invalid: patch: ${body}`, {
    causes: [{ reason: 'FieldValueInvalid', message: body, field: 'patch' }],
    detail: problem,
  });
}

/** 413 for a JSON patch with too many operations. */
export function tooLarge(message: string): PatchError {
  return new PatchError(413, 'RequestEntityTooLarge', `Request entity too large: ${message}`);
}

/** 415 for a Content-Type that the resource does not accept for PATCH. */
export function unsupportedMediaType(accepted: readonly string[]): PatchError {
  return new PatchError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}
