// kube-apiserver's resourceVersion semantics for get, list and watch as data:
// validation of the option combinations (the upstream field errors) and the
// plan a backend follows (consistent read, any, not older than, exact). Shared
// by kvstore and cacher so both answer every row of the tables the same way.
// No I/O.
import { InvalidRequestError, type ListOptions, type WatchOptions } from '../interface.ts';
import { ListOptionsInvalidError, parseResourceVersion } from '../errors.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';

export type ReadPlan =
  | { kind: 'consistent' } // rv unset: the latest state
  | { kind: 'any' } // rv "0": whatever is at hand
  | { kind: 'notOlderThan'; rev: number }
  | { kind: 'exact'; rev: number };

/** The plan of every read without a resourceVersion (most reads): one shared, frozen object. */
const CONSISTENT: ReadPlan = Object.freeze({ kind: 'consistent' });

export function planGet(resourceVersion: string | undefined): ReadPlan {
  if (!resourceVersion) return CONSISTENT;
  const n = parseResourceVersion(resourceVersion);
  return n === 0 ? { kind: 'any' } : { kind: 'notOlderThan', rev: n };
}

/** Throws ListOptionsInvalidError for the combinations upstream refuses on a list. */
export function validateListOptions(opts: ListOptions): void {
  const causes: FieldError[] = [];
  const match = opts.resourceVersionMatch ?? '';
  if (match) {
    if (!opts.resourceVersion) causes.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if (opts.continue) causes.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') causes.push(fieldErrors.notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && opts.resourceVersion === '0') causes.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (opts.limit !== undefined && opts.limit < 0) {
    throw new InvalidRequestError('limit: Invalid value: ' + opts.limit + ': must be greater than or equal to 0');
  }
  if (causes.length) throw new ListOptionsInvalidError(causes);
}

/** The read plan of a list without a continue token (validate first). */
export function planList(opts: ListOptions): ReadPlan {
  const match = opts.resourceVersionMatch ?? '';
  if (!opts.resourceVersion) return { kind: 'consistent' };
  const n = parseResourceVersion(opts.resourceVersion);
  if (match === 'Exact') return { kind: 'exact', rev: n };
  if (n === 0) return { kind: 'any' };
  if (match === 'NotOlderThan') return { kind: 'notOlderThan', rev: n };
  // Legacy rule: a version with a limit and no match is an exact read.
  return opts.limit && opts.limit > 0 ? { kind: 'exact', rev: n } : { kind: 'notOlderThan', rev: n };
}

/**
 * Throws ListOptionsInvalidError for the combinations upstream refuses on a
 * watch; a client's watch with the WatchList gate off (`watchList` false)
 * may not ask for sendInitialEvents.
 */
export function validateWatchOptions(opts: WatchOptions, watchList = true): void {
  const causes: FieldError[] = [];
  const match = opts.resourceVersionMatch ?? '';
  if (opts.sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan') causes.push(fieldErrors.forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    if (!watchList) causes.push(fieldErrors.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
  }
  if (match) {
    if (opts.sendInitialEvents === undefined) causes.push(fieldErrors.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') causes.push(fieldErrors.notSupported('resourceVersionMatch', match, ['NotOlderThan']));
  }
  if (causes.length) throw new ListOptionsInvalidError(causes);
}

export interface WatchPlan {
  /** Send the current state as ADDED first. */
  initialEvents: boolean;
  /** After the initial events, a BOOKMARK annotated k8s.io/initial-events-end. */
  initialEventsEndBookmark: boolean;
  /** How fresh the starting state must be. */
  start: ReadPlan;
}

/** The plan of a watch (validate first). */
export function planWatch(opts: WatchOptions): WatchPlan {
  const n = parseResourceVersion(opts.resourceVersion);
  const unset = !opts.resourceVersion;
  if (opts.sendInitialEvents === true) {
    return {
      initialEvents: true,
      initialEventsEndBookmark: !!opts.allowWatchBookmarks,
      start: unset ? { kind: 'consistent' } : n === 0 ? { kind: 'any' } : { kind: 'notOlderThan', rev: n },
    };
  }
  if (opts.sendInitialEvents === false) {
    // Only changes: after the given version, or from now.
    return { initialEvents: false, initialEventsEndBookmark: false, start: n === 0 ? (unset ? { kind: 'consistent' } : { kind: 'any' }) : { kind: 'exact', rev: n } };
  }
  if (unset) return { initialEvents: true, initialEventsEndBookmark: false, start: { kind: 'consistent' } };
  if (n === 0) return { initialEvents: true, initialEventsEndBookmark: false, start: { kind: 'any' } };
  return { initialEvents: false, initialEventsEndBookmark: false, start: { kind: 'exact', rev: n } };
}
