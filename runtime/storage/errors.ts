// Errors of the object layer that carry the exact upstream texts and the
// HTTP status they map to. Built on the base classes of interface.ts so a
// caller that only knows those still maps them right (CompactedError -> 410,
// FutureRevisionError -> wait/504, InvalidRequestError -> 400, CommitFailedError
// -> 500 without a reason). Pure types and message builders; no I/O.
import { CompactedError, FutureRevisionError, InvalidRequestError, StorageError } from './interface.ts';
import type { StatusCause } from '../api/errors.ts';
import type { FieldError } from '../api/field-errors.ts';
import { goQuote } from '../api/go-format.ts';

/** The list revision asked for has been compacted away (410 Expired). */
export const EXPIRED_LIST_MESSAGE = 'The resourceVersion for the provided list is too old.';
/** A continue token whose revision was compacted; the error carries a token to go on inconsistently (410). */
export const INCONSISTENT_CONTINUE_MESSAGE =
  'The provided continue parameter is too old to display a consistent list result. ' +
  'You can start a new list without the continue parameter, or use the continue token in this response to ' +
  'retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - ' +
  'objects that were created, modified, or deleted between the time the first chunk was returned and now may ' +
  'show up in the list.';

/**
 * 410 Gone, reason Expired. `continue` is set when the list may go on at the
 * latest revision (the Status's metadata.continue).
 */
export class ResourceExpiredError extends CompactedError {
  readonly code = 410;
  readonly reason = 'Expired';
  constructor(
    message: string,
    requested = 0,
    compacted = 0,
    public continueToken?: string,
  ) {
    super(requested, compacted);
    this.message = message;
  }
}

/**
 * A resourceVersion newer than the store's that did not arrive in time:
 * 504, reason Timeout, message `Timeout: Too large resource version: X, current: Y`,
 * one cause of type ResourceVersionTooLarge.
 */
export class TooLargeResourceVersionError extends FutureRevisionError {
  readonly code = 504;
  readonly reason = 'Timeout';
  readonly causeType = 'ResourceVersionTooLarge';
  readonly causeMessage = 'Too large resource version';
  constructor(
    requested: number,
    current: number,
    public retryAfterSeconds = 1,
  ) {
    super(requested, current);
    this.message = `Too large resource version: ${requested}, current: ${current}`;
  }
  /** The Status message as kube-apiserver words it. */
  get statusMessage(): string {
    return `Timeout: ${this.message}`;
  }
}

/**
 * Invalid combinations of list/watch options (resourceVersionMatch without
 * resourceVersion, ...). Upstream answers these as 422 Invalid on kind
 * ListOptions (group meta.k8s.io); `errors` hold each field error, `message`
 * the joined field errors, `causes` the Status causes.
 */
export class ListOptionsInvalidError extends InvalidRequestError {
  readonly code = 422;
  readonly reason = 'Invalid';
  constructor(readonly errors: FieldError[]) {
    super(errors.map((e) => e.toString()).join(', '));
    this.message = `ListOptions.meta.k8s.io "" is invalid: ${errors.length === 1 ? errors[0].toString() : '[' + errors.map((e) => e.toString()).join(', ') + ']'}`;
  }

  get causes(): StatusCause[] {
    return this.errors.map((e) => e.cause());
  }
}

/** Parses a resourceVersion query parameter; '' gives 0. Throws 400 on junk. */
export function parseResourceVersion(rv: string | undefined): number {
  if (rv === undefined || rv === '') return 0;
  if (!/^[0-9]+$/.test(rv) || rv.length > 19) {
    const reason = /^[0-9]+$/.test(rv) ? 'value out of range' : 'invalid syntax';
    throw new InvalidRequestError(`invalid resource version: resourceVersion: Invalid value: ${goQuote(rv)}: strconv.ParseUint: parsing ${goQuote(rv)}: ${reason}`);
  }
  const n = Number(rv);
  if (!Number.isSafeInteger(n)) {
    throw new InvalidRequestError(`invalid resource version: resourceVersion: Invalid value: ${goQuote(rv)}: strconv.ParseUint: parsing ${goQuote(rv)}: value out of range`);
  }
  return n;
}

/**
 * A write the backend could not commit because of its environment (disk or
 * database full, I/O error, read-only or locked file). kube-apiserver passes
 * such etcd errors (`etcdserver: mvcc: database space exceeded` when etcd's
 * NOSPACE alarm is raised) through its registry unconverted, so the client
 * gets a 500 Status with no reason whose message is the backend's text; this
 * error carries that text. `backendCode` is the SQLite result code.
 */
export class CommitFailedError extends StorageError {
  readonly code = 500;
  constructor(
    public backendCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** The SQLite result codes that mean the store cannot commit at all (not a bad request). */
const ENVIRONMENT_CODES = /^SQLITE_(FULL|IOERR|READONLY|CORRUPT|NOTADB|CANTOPEN|BUSY|LOCKED|NOMEM|PROTOCOL)(_|$)/;

/**
 * Maps an error thrown by a SQLite commit to a CommitFailedError when it is
 * about the store's environment; null for anything else (a bug, a constraint).
 */
export function commitFailure(err: unknown): CommitFailedError | null {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string' || !ENVIRONMENT_CODES.test(code)) return null;
  const text = err instanceof Error ? err.message : String(err);
  if (code.startsWith('SQLITE_FULL')) return new CommitFailedError(code, `database space exceeded: ${text}`);
  return new CommitFailedError(code, `storage commit failed: ${text}`);
}
