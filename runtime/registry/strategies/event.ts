// events.k8s.io/v1 Event: on create eventTime, reportingController,
// reportingInstance, action and reason are required, type is Normal or
// Warning, lengths are limited (128 characters, note 1 KiB) and the
// deprecated* fields must be unset; series counts at least 2; on update
// everything but series (and metadata) is fixed.

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../field-errors.ts';
import { qualifiedNameErrors } from '../metadata.ts';
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
    validate(obj) { return [...base.validate(obj), ...validateEventV1(obj)]; },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...FIXED.flatMap((f) => immutable(f, obj[f], old[f]))];
    },
  };
}
