// Kubernetes Status errors: one ApiError class carrying the Status body that
// kube-apiserver would send, and constructors for each reason with upstream's
// message texts (kubectl prints them verbatim). Field-level errors (the
// causes of a 422) are in field-errors.ts beside it.

import type { FieldError } from './field-errors.ts';

/**
 * One cause in a Status's details (metav1.StatusCause): the one cause type of
 * the server. Field errors, list-option errors, patch errors and apply
 * conflicts all carry their causes in this shape; every member is optional,
 * as upstream omits empty ones.
 */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** The group-qualified resource an error is about (`deployments.apps`). */
export interface GroupResource {
  group: string;
  resource: string;
}

export function qualifiedResource(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

export class ApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details?: StatusDetails;
  /** Extra response headers (Retry-After ...). */
  readonly headers?: Record<string, string>;
  /** Status metadata (a 410 on a list may carry `continue` to resume at the latest revision). */
  metadata: Record<string, unknown> = {};

  constructor(code: number, reason: string, message: string, details?: StatusDetails, headers?: Record<string, string>) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.details = details;
    this.headers = headers;
  }

  status(): StatusBody {
    const body: StatusBody = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: this.metadata,
      status: 'Failure',
      message: this.message,
      reason: this.reason || undefined,
      details: this.details,
      code: this.code,
    };
    if (!body.reason) delete body.reason;
    if (!body.details) delete body.details;
    return body;
  }
}

function grDetails(gr: GroupResource, name?: string): StatusDetails {
  const d: StatusDetails = {};
  if (name !== undefined && name !== '') d.name = name;
  if (gr.group) d.group = gr.group;
  d.kind = gr.resource;
  return d;
}

export const errors = {
  notFound(gr: GroupResource, name: string): ApiError {
    return new ApiError(404, 'NotFound', `${qualifiedResource(gr)} "${name}" not found`, grDetails(gr, name));
  },
  /** A path the server has no handler for. */
  notFoundPath(): ApiError {
    return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
  },
  alreadyExists(gr: GroupResource, name: string): ApiError {
    return new ApiError(409, 'AlreadyExists', `${qualifiedResource(gr)} "${name}" already exists`, grDetails(gr, name));
  },
  conflict(gr: GroupResource, name: string, why: string): ApiError {
    return new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualifiedResource(gr)} "${name}": ${why}`, grDetails(gr, name));
  },
  /** The optimistic-concurrency conflict of an update with a stale resourceVersion. */
  staleUpdate(gr: GroupResource, name: string): ApiError {
    return errors.conflict(gr, name, 'the object has been modified; please apply your changes to the latest version and try again');
  },
  invalid(kind: { group: string; kind: string }, name: string, fieldErrors: FieldError[]): ApiError {
    // the message names each distinct error once (upstream's ErrorList.ToAggregate); the causes keep them all
    const parts = [...new Set(fieldErrors.map((e) => e.toString()))];
    const summary = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
    // an empty name is left out, as Go's omitempty leaves it
    const details: StatusDetails = name ? { name } : {};
    if (kind.group) details.group = kind.group;
    details.kind = kind.kind;
    details.causes = fieldErrors.map((e) => e.cause());
    const qualifiedKind = kind.group ? `${kind.kind}.${kind.group}` : kind.kind;
    return new ApiError(422, 'Invalid', `${qualifiedKind} "${name}" is invalid: ${summary}`, details);
  },
  badRequest(message: string, causes?: StatusCause[]): ApiError {
    return new ApiError(400, 'BadRequest', message, causes ? { causes } : undefined);
  },
  unauthorized(message = 'Unauthorized'): ApiError {
    return new ApiError(401, 'Unauthorized', message);
  },
  forbidden(gr: GroupResource, name: string, why: string): ApiError {
    const subject = name ? `${qualifiedResource(gr)} "${name}"` : qualifiedResource(gr);
    return new ApiError(403, 'Forbidden', `${subject} is forbidden: ${why}`, grDetails(gr, name));
  },
  /** A request refused as a whole, before any resource is looked at (`forbidden: <why>`). */
  forbiddenRequest(why: string): ApiError {
    return new ApiError(403, 'Forbidden', `forbidden: ${why}`, {});
  },
  methodNotAllowed(): ApiError {
    return new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
  },
  /** A verb a resource does not support now (NewMethodNotSupported), with the caller's message. */
  methodNotSupported(gr: GroupResource, message: string): ApiError {
    return new ApiError(405, 'MethodNotAllowed', message, grDetails(gr));
  },
  notAcceptable(accepted: string[]): ApiError {
    return new ApiError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
  },
  unsupportedMediaType(_contentType: string, accepted: string[]): ApiError {
    return new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
  },
  gone(message: string): ApiError {
    return new ApiError(410, 'Expired', message);
  },
  resourceExpired(message: string): ApiError {
    return new ApiError(410, 'Expired', message);
  },
  tooLarge(limit: number): ApiError {
    return new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
  },
  /** A write larger than storage accepts (etcd's request limit), with storage's text. */
  storageTooLarge(message: string): ApiError {
    return new ApiError(413, 'RequestEntityTooLarge', message);
  },
  /**
   * A storage error kube-apiserver passes through unconverted (etcd's
   * `mvcc: database space exceeded`): 500 with no reason, storage's text.
   */
  storageFailure(message: string): ApiError {
    return new ApiError(500, '', message);
  },
  tooManyRequests(message = 'Too many requests, please try again later.', retryAfterSeconds = 1): ApiError {
    return new ApiError(429, 'TooManyRequests', message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
  },
  internal(err: unknown): ApiError {
    const msg = err instanceof Error ? err.message : String(err);
    return new ApiError(500, 'InternalError', `Internal error occurred: ${msg}`, { causes: [{ message: msg }] });
  },
  timeout(message: string, retryAfterSeconds = 1): ApiError {
    return new ApiError(504, 'Timeout', message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
  },
  serviceUnavailable(message: string): ApiError {
    return new ApiError(503, 'ServiceUnavailable', message);
  },
};

/** Maps any thrown value to an ApiError (unknown errors become 500). */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return errors.internal(err);
}
