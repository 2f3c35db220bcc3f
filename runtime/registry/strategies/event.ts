// Event, core v1 and events.k8s.io/v1: one store, stored as core v1 Events.
// As upstream, the rules read the object in its stored (core) shape, so the
// field paths are core's (`involvedObject.namespace`, `message`, `count`)
// whichever version wrote it, and depend on the request's version (the
// apiVersion of the object as the client sent it):
// - every write passes the legacy rules: without eventTime the involved
//   object's namespace must match the event's (an empty one only in
//   `default`); with eventTime the reporting fields are required
//   (reportingComponent, or reportingController when the request is not
//   core v1's), reportingInstance, action and reason limited to 128
//   characters, the message to 1 KiB;
// - a write through events.k8s.io/v1 also needs eventTime and a type of
//   Normal or Warning, the deprecated fields unset on create, a series of at
//   least 2 with its lastObservedTime; on update everything but the series
//   (and metadata) is fixed, eventTime to the microsecond.
// Core v1 writes get nothing more, for compatibility (upstream's
// ValidateEventCreate/ValidateEventUpdate with their requestVersion).

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import { qualifiedNameErrors, validateDNS1123Subdomain } from '../../api/validation.ts';
import type { Strategy } from '../strategy.ts';
import type { StrategyContext } from './context.ts';
import { immutable } from './common/immutable.ts';

const LIMIT = 128;
const NOTE_LIMIT = 1024;
const CORE_V1 = 'v1';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
/** Go's zero time: absent or null (a Time field is a string when set). */
const timeSet = (v: unknown): boolean => typeof v === 'string' && v !== '';

/** The legacy rules, which every write passes (`requestVersion` names the reporting controller's field). */
function legacyErrors(ev: Obj, requestVersion: string): FieldError[] {
  const errs: FieldError[] = [];
  const rcField = requestVersion === CORE_V1 ? 'reportingComponent' : 'reportingController';
  const ns = str(ev.metadata?.namespace);
  const ins = str(ev.involvedObject?.namespace);
  const mismatch = () => errs.push(fieldErrors.invalid('involvedObject.namespace', ins, 'does not match event.namespace'));
  if (!timeSet(ev.eventTime)) {
    if (!ins) {
      if (ns !== '' && ns !== 'default') mismatch();
    } else if (ns !== ins) mismatch();
  } else {
    if (!ins && ns !== 'default' && ns !== 'kube-system') mismatch();
    const rc = str(ev.reportingComponent);
    if (!rc) errs.push(fieldErrors.required(rcField, ''));
    for (const m of qualifiedNameErrors(rc)) errs.push(fieldErrors.invalid(rcField, rc, m));
    for (const f of ['reportingInstance', 'action', 'reason']) {
      const v = str(ev[f]);
      if (!v) errs.push(fieldErrors.required(f, ''));
      if (v.length > LIMIT) errs.push(fieldErrors.invalid(f, '', `can have at most ${LIMIT} characters`));
    }
    if (str(ev.message).length > NOTE_LIMIT) errs.push(fieldErrors.invalid('message', '', `can have at most ${NOTE_LIMIT} characters`));
  }
  for (const m of validateDNS1123Subdomain(ns)) errs.push(fieldErrors.invalid('namespace', ns, m));
  return errs;
}

function seriesErrors(ev: Obj): FieldError[] {
  const series = ev.series;
  if (series === undefined || series === null) return [];
  const errs: FieldError[] = [];
  if (!(typeof series.count === 'number' && series.count >= 2)) errs.push(fieldErrors.invalid('series.count', '', 'should be at least 2'));
  if (!timeSet(series.lastObservedTime)) errs.push(fieldErrors.required('series.lastObservedTime', ''));
  return errs;
}

/** The rules of a create; `ev` in the core shape, `requestVersion` the apiVersion the client wrote in. */
export function validateEventCreate(ev: Obj, requestVersion: string): FieldError[] {
  const errs = legacyErrors(ev, requestVersion);
  if (requestVersion === CORE_V1) return errs;
  errs.push(...seriesErrors(ev));
  if (!timeSet(ev.eventTime)) errs.push(fieldErrors.required('eventTime', ''));
  if (ev.type !== 'Normal' && ev.type !== 'Warning') errs.push(fieldErrors.invalid('type', '', `has invalid value: ${str(ev.type)}`));
  if (timeSet(ev.firstTimestamp)) errs.push(fieldErrors.invalid('firstTimestamp', '', 'needs to be unset'));
  if (timeSet(ev.lastTimestamp)) errs.push(fieldErrors.invalid('lastTimestamp', '', 'needs to be unset'));
  if (typeof ev.count === 'number' && ev.count !== 0) errs.push(fieldErrors.invalid('count', '', 'needs to be unset'));
  if (str(ev.source?.component) !== '' || str(ev.source?.host) !== '') errs.push(fieldErrors.invalid('source', '', 'needs to be unset'));
  return errs;
}

/** A MicroTime's instant to the microsecond (sub-microsecond digits dropped), or the text when it does not parse. */
function toMicro(v: unknown): string {
  if (typeof v !== 'string') return '';
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(v);
  if (!m) return v;
  const seconds = Date.parse(`${m[1]}${m[3]}`);
  return Number.isNaN(seconds) ? v : `${seconds}.${(m[2] ?? '').slice(0, 6).padEnd(6, '0')}`;
}

/** The rules of an update; both objects in the core shape. */
export function validateEventUpdate(ev: Obj, old: Obj, requestVersion: string): FieldError[] {
  const errs = legacyErrors(ev, requestVersion);
  if (requestVersion === CORE_V1) return errs;
  if (!jsonEqual(ev.series, old.series)) errs.push(...seriesErrors(ev));
  // upstream checks reason twice
  for (const f of ['involvedObject', 'reason', 'message', 'source', 'firstTimestamp', 'lastTimestamp', 'count', 'reason', 'type']) errs.push(...immutable(f, ev[f], old[f]));
  if (toMicro(ev.eventTime) !== toMicro(old.eventTime)) errs.push(...immutable('eventTime', ev.eventTime, old.eventTime));
  for (const f of ['action', 'related', 'reportingController', 'reportingInstance']) {
    const field = f === 'reportingController' ? 'reportingComponent' : f;
    errs.push(...immutable(f, ev[field], old[field]));
  }
  return errs;
}

/**
 * The Event strategy of the shared store: the object arrives in the
 * request's version and is validated in the stored shape
 * (`ctx.toStorage`, the declared conversion).
 */
export function eventStrategy(_def: ResourceDef, base: Strategy, ctx?: StrategyContext): Strategy {
  const stored = (obj: Obj) => (ctx?.toStorage ? ctx.toStorage(obj) : obj);
  const version = (obj: Obj) => str(obj.apiVersion);
  return {
    ...base,
    // the events.k8s.io schema requires eventTime; the rules report it with their text
    reportsRequired: new Set([...(base.reportsRequired ?? []), 'eventTime']),
    validate(obj) {
      return [...base.validate(obj), ...validateEventCreate(stored(obj), version(obj))];
    },
    // an update runs the update's rules only (the name's too: validate() of the base)
    updateRulesOnly: true,
    validateUpdate(obj, old) {
      return [...base.validate(obj), ...base.validateUpdate(obj, old), ...validateEventUpdate(stored(obj), stored(old), version(obj))];
    },
  };
}
