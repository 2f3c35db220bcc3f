// CronJob (batch/v1): name at most 52 characters, schedule required and
// parseable (no TZ= in it on create: use spec.timeZone), a known IANA
// timeZone, concurrencyPolicy Allow, Forbid or Replace, counts not
// negative, and a job template whose selector is left to be generated.

import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import type { Strategy } from '../../strategy.ts';
import { goLabelSelector } from '../../../api/go-format.ts';
import { nonNegative } from './common.ts';
import { cronScheduleError, knownTimeZone } from './cron.ts';
import { jobSpecErrors } from './job.ts';

const POLICIES = ['Allow', 'Forbid', 'Replace'];
const TZ_PART = /^[A-Za-z._+\-0-9]+$/;

export function timeZoneErrors(tz: unknown): FieldError[] {
  if (tz === undefined || tz === null) return [];
  const path = 'spec.timeZone';
  const s = String(tz);
  if (s === '') return [fieldErrors.invalid(path, s, 'timeZone must be nil or non-empty string')];
  for (const part of s.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !TZ_PART.test(part)) return [fieldErrors.invalid(path, s, `unknown time zone ${s}`)];
  }
  if (s.toLowerCase() === 'local') return [fieldErrors.invalid(path, s, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
  if (s !== 'UTC' && !knownTimeZone(s)) return [fieldErrors.invalid(path, s, `unknown time zone ${s}`)];
  return [];
}

export function scheduleErrors(schedule: unknown, timeZone: unknown, allowTZ: boolean): FieldError[] {
  const path = 'spec.schedule';
  if (typeof schedule !== 'string' || schedule === '') return [fieldErrors.required(path, '')];
  const errs: FieldError[] = [];
  const parseErr = cronScheduleError(schedule);
  if (parseErr) errs.push(fieldErrors.invalid(path, schedule, parseErr));
  if (schedule.includes('TZ')) {
    if (!allowTZ) errs.push(fieldErrors.invalid(path, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
    else if (timeZone != null) errs.push(fieldErrors.invalid(path, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  }
  return errs;
}

export function validateCronJob(obj: Obj, old?: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const name: string = obj.metadata?.name ?? '';
  if (name.length > 52) errs.push(fieldErrors.invalid('metadata.name', name, 'must be no more than 52 characters'));
  const spec: Obj = obj.spec ?? {};
  const allowTZ = !!old && typeof old.spec?.schedule === 'string' && old.spec.schedule.includes('TZ');
  errs.push(...scheduleErrors(spec.schedule, spec.timeZone, allowTZ));
  errs.push(...nonNegative('spec.startingDeadlineSeconds', spec.startingDeadlineSeconds));
  const cp = spec.concurrencyPolicy;
  if (!cp) errs.push(fieldErrors.required('spec.concurrencyPolicy', ''));
  else if (!POLICIES.includes(cp)) errs.push(fieldErrors.notSupported('spec.concurrencyPolicy', cp, POLICIES));
  const jt: Obj = spec.jobTemplate?.spec ?? {};
  errs.push(...jobSpecErrors('spec.jobTemplate.spec', jt));
  if (jt.selector != null) errs.push(fieldErrors.invalid('spec.jobTemplate.spec.selector', goLabelSelector(jt.selector), '`selector` will be auto-generated'));
  if (jt.manualSelector === true) errs.push(fieldErrors.notSupported('spec.jobTemplate.spec.manualSelector', true, ['nil', 'false']));
  errs.push(...nonNegative('spec.successfulJobsHistoryLimit', spec.successfulJobsHistoryLimit));
  errs.push(...nonNegative('spec.failedJobsHistoryLimit', spec.failedJobsHistoryLimit));
  errs.push(...timeZoneErrors(spec.timeZone));
  return errs;
}

export function cronJobStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...validateCronJob(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...validateCronJob(obj, old)];
    },
  };
}
