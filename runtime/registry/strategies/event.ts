// events.k8s.io/v1 Event: on create eventTime, reportingController,
// reportingInstance, action and reason are required, type is Normal or
// Warning, lengths are limited (128 characters, note 1 KiB) and the
// deprecated* fields must be unset; series counts at least 2; on update
// everything but series (and metadata) is fixed.
// core/v1 Event: upstream's legacy rules, the same on create and update:
// without eventTime the involved object's namespace must match the
// event's (an empty one only in `default`); with eventTime the reporting
// fields are required (reportingComponent, reportingInstance, action,
// reason) and lengths are limited. Type and count are not checked there.

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { qualifiedNameErrors } from '../../api/validation.ts';
import type { Strategy } from '../strategy.ts';
import { immutable } from './common/immutable.ts';

const LIMIT = 128;
const NOTE_LIMIT = 1024;
const DEPRECATED = ['deprecatedSource', 'deprecatedFirstTimestamp', 'deprecatedLastTimestamp', 'deprecatedCount'];
const FIXED = ['regarding', 'related', 'reason', 'note', 'reportingController', 'reportingInstance', 'action', 'type', 'eventTime'];

function set(v: unknown): boolean {
  if (v === undefined || v === null || v === '' || v === 0) return false;
  if (typeof v === 'object') return Object.values(v as object).some(set);
  return true;
}

export function validateEventV1(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (!obj.eventTime) errs.push(fieldErrors.required('eventTime', ''));
  if (obj.type !== 'Normal' && obj.type !== 'Warning') errs.push(fieldErrors.invalid('type', '', `has invalid value: ${obj.type ?? ''}`));
  if (!obj.reportingController) errs.push(fieldErrors.required('reportingController', ''));
  else for (const m of qualifiedNameErrors(obj.reportingController)) errs.push(fieldErrors.invalid('reportingController', obj.reportingController, m));
  for (const f of ['reportingInstance', 'action', 'reason']) {
    if (!obj[f]) errs.push(fieldErrors.required(f, ''));
    else if (String(obj[f]).length > LIMIT) errs.push(fieldErrors.invalid(f, '', `can have at most ${LIMIT} characters`));
  }
  if (typeof obj.note === 'string' && obj.note.length > NOTE_LIMIT) errs.push(fieldErrors.invalid('note', '', `can have at most ${NOTE_LIMIT} characters`));
  for (const f of DEPRECATED) if (set(obj[f])) errs.push(fieldErrors.invalid(f, '', 'needs to be unset'));
  const ns = obj.metadata?.namespace;
  const rns = obj.regarding?.namespace;
  if (rns && ns && rns !== ns) errs.push(fieldErrors.invalid('regarding.namespace', rns, 'does not match event.namespace'));
  if (obj.series) {
    if (!(typeof obj.series.count === 'number' && obj.series.count >= 2)) errs.push(fieldErrors.invalid('series.count', obj.series.count ?? 0, 'should be at least 2'));
    if (!obj.series.lastObservedTime) errs.push(fieldErrors.required('series.lastObservedTime', ''));
  }
  return errs;
}

export function eventV1Strategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...validateEventV1(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...FIXED.flatMap((f) => immutable(f, obj[f], old[f]))];
    },
  };
}

/** The core/v1 Event rules (the legacy path upstream keeps for this version). */
export function validateEventCoreV1(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const ns: string = obj.metadata?.namespace ?? '';
  const ins: string = obj.involvedObject?.namespace ?? '';
  const mismatch = () => errs.push(fieldErrors.invalid('involvedObject.namespace', ins, 'does not match event.namespace'));
  if (!obj.eventTime) {
    if (!ins) {
      if (ns !== '' && ns !== 'default') mismatch();
    } else if (ns !== ins) mismatch();
  } else {
    if (!ins && ns !== 'default' && ns !== 'kube-system') mismatch();
    const rc: string = obj.reportingComponent ?? '';
    if (!rc) errs.push(fieldErrors.required('reportingComponent', ''));
    for (const m of qualifiedNameErrors(rc)) errs.push(fieldErrors.invalid('reportingComponent', rc, m));
    for (const f of ['reportingInstance', 'action', 'reason']) {
      const v = String(obj[f] ?? '');
      if (!v) errs.push(fieldErrors.required(f, ''));
      if (v.length > LIMIT) errs.push(fieldErrors.invalid(f, '', `can have at most ${LIMIT} characters`));
    }
    if (typeof obj.message === 'string' && obj.message.length > NOTE_LIMIT) errs.push(fieldErrors.invalid('message', '', `can have at most ${NOTE_LIMIT} characters`));
  }
  return errs;
}

export function eventCoreV1Strategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...validateEventCoreV1(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...validateEventCoreV1(obj)];
    },
  };
}
