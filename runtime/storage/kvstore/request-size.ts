// The size limit of one write, as etcd bounds every request with
// --max-request-bytes (default 1.5 MiB): an object whose stored form (key
// plus serialized value) is larger cannot be written, whoever writes it —
// a create, an update, a patch or an apply that grows the object, a
// controller. Stored values here are JSON, so an object full of binary data
// (base64 in JSON) reaches the limit sooner than in kube-apiserver's
// protobuf.
import { InvalidRequestError } from '../interface.ts';

export const DEFAULT_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;

/** etcd's error text for a request over the limit. */
export const REQUEST_TOO_LARGE_MESSAGE = 'etcdserver: request is too large';

/** A write over the size limit (an InvalidRequestError, so a caller that knows only that maps it to a 4xx). */
export class RequestTooLargeError extends InvalidRequestError {
  constructor(
    readonly size: number,
    readonly limit: number,
  ) {
    super(REQUEST_TOO_LARGE_MESSAGE);
  }
}

/** Throws RequestTooLargeError when key and value together exceed `limit` bytes (0: no limit). */
export function checkRequestSize(key: string, value: string, limit: number): void {
  if (limit <= 0) return;
  // a UTF-16 unit is at most 3 UTF-8 bytes: most values need no counting
  if ((key.length + value.length) * 3 <= limit) return;
  const size = Buffer.byteLength(key, 'utf8') + Buffer.byteLength(value, 'utf8');
  if (size > limit) throw new RequestTooLargeError(size, limit);
}
