// The deadline of non-long-running requests (kube-apiserver's
// --request-timeout, default 60 s, and the request's own `?timeout=`, a Go
// duration honoured when shorter than the server's). A request still being
// served at its deadline is answered 504 Timeout at once; its handler may
// still finish in the background (as upstream's), but its result is no
// longer sent. Long-running requests (long-running.ts: watches, proxies,
// the kubelet subresources) have no deadline; watches are bounded by their
// own timeouts.

import { DurationError, parseGoDuration } from './go-duration.ts';
import type { RequestInfo } from './request-info.ts';
import { isLongRunning } from './long-running.ts';
import { ApiError, errors } from '../api/errors.ts';
import { isPromise, type Maybe } from '../api/maybe.ts';

/** The longest delay a Node timer takes (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Upstream's answer at the deadline (a Status with empty details, no Retry-After). */
export function allottedTimeoutError(): ApiError {
  return new ApiError(504, 'Timeout', 'Timeout: request did not complete within the allotted timeout', {});
}

/**
 * The deadline of a request in ms (0: none), from the server's maximum and
 * the `timeout` query parameter: a positive value shorter than the maximum
 * wins; 0, a negative value or a longer one leaves the maximum. A value that
 * is not a Go duration is 400.
 */
export function requestDeadlineMs(timeoutParam: string | null, maxMs: number): number {
  if (timeoutParam === null || timeoutParam === '') return maxMs;
  let ns: bigint;
  try {
    ns = parseGoDuration(timeoutParam);
  } catch (err) {
    if (err instanceof DurationError) throw errors.badRequest(`invalid timeout specified in the request URL - ${err.message}`);
    throw err;
  }
  const ms = Number(ns) / 1e6;
  if (ms > 0 && (maxMs <= 0 || ms < maxMs)) return Math.max(1, Math.ceil(ms));
  return maxMs;
}

/**
 * Runs the rest of a request under its deadline (`maxMs` is --request-timeout
 * in ms; 0: none unless the request asks for one): settles as `run` does, or
 * rejects with 504 at the deadline, after which `run`'s outcome is dropped.
 * `setDeadline` is told the deadline (ms since the epoch) before `run` starts.
 * An answer `run` has at once is returned as it is: no timer could fire
 * before it, so none is set; a promise is timed from when `run` started.
 */
export function withDeadline<T>(info: RequestInfo, query: URLSearchParams, maxMs: number, run: () => Maybe<T>, now: () => number = Date.now, setDeadline?: (atMs: number) => void): Maybe<T> {
  if (isLongRunning(info)) return run();
  const ms = requestDeadlineMs(query.get('timeout'), maxMs);
  if (ms <= 0) return run();
  const start = now();
  // what runs under the deadline may bound its own waits by it (an admission webhook's call)
  setDeadline?.(start + ms);
  const out = run();
  if (!isPromise(out)) return out;
  return new Promise<T>((resolve, reject) => {
    const left = Math.max(0, ms - (now() - start));
    const timer = setTimeout(() => reject(allottedTimeoutError()), Math.min(left, MAX_TIMER_MS));
    out.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
