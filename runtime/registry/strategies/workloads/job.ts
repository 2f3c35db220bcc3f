// Job (batch/v1): the selector is generated unless spec.manualSelector
// (batch.kubernetes.io/controller-uid and job-name labels, legacy ones
// too), counts not negative, completion mode NonIndexed or Indexed
// (Indexed needs completions, parallelism at most 100000), pod replacement
// policy values, selector and template rules (restartPolicy OnFailure or
// Never is checked with the containers); on update completions (unless an
// elastic Indexed job), selector, completion mode, pod failure policy,
// backoffLimitPerIndex and the template (scheduling fields excepted while
// suspended before start) are fixed. Also the job template of a CronJob.

import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { type Strategy } from '../../strategy.ts';
import { jsonEqual } from '../../../api/json-equal.ts';
import { goLabelSelector } from '../../../api/go-format.ts';
import { immutable } from '../common/immutable.ts';
import { labelSelectorErrors, selectorMatches } from '../../../api/label-selector.ts';
import { nonNegative } from './common.ts';

export const LABEL_CONTROLLER_UID = 'batch.kubernetes.io/controller-uid';
export const LABEL_JOB_NAME = 'batch.kubernetes.io/job-name';
export const LEGACY_CONTROLLER_UID = 'controller-uid';
export const LEGACY_JOB_NAME = 'job-name';
const MAX_INDEXED_PARALLELISM = 100000;
const SCHEDULING = ['nodeSelector', 'tolerations', 'affinity', 'schedulingGates'];

/** Adds the generated selector and template labels (the Job strategy's create step). */
export function generateJobSelector(obj: Obj): void {
  const spec = obj.spec;
  if (!spec || typeof spec !== 'object' || spec.manualSelector === true) return;
  const md = obj.metadata ?? {};
  const tmpl = (spec.template ??= {});
  const tmd = (tmpl.metadata ??= {});
  const labels = (tmd.labels ??= {});
  for (const k of [LEGACY_JOB_NAME, LABEL_JOB_NAME]) if (!(k in labels) && md.name) labels[k] = md.name;
  for (const k of [LEGACY_CONTROLLER_UID, LABEL_CONTROLLER_UID]) if (!(k in labels)) labels[k] = md.uid;
  const sel = (spec.selector ??= {});
  const ml = (sel.matchLabels ??= {});
  if (!(LABEL_CONTROLLER_UID in ml)) ml[LABEL_CONTROLLER_UID] = md.uid;
}

function hasLabel(labels: Record<string, string>, key: string, want: string): FieldError[] {
  const path = `spec.template.metadata.labels[${key}]`;
  if (!(key in labels)) return [fieldErrors.required(path, `must be '${want}'`)];
  return labels[key] === want ? [] : [fieldErrors.invalid(path, labels[key], `must be '${want}'`)];
}

/** With a generated selector, the template carries the generated labels and the selector selects them. */
export function generatedSelectorErrors(obj: Obj): FieldError[] {
  const spec: Obj = obj.spec ?? {};
  if (spec.manualSelector === true || !spec.selector) return [];
  const uid: string = obj.metadata?.uid ?? '';
  const name: string = obj.metadata?.name ?? '';
  const labels = spec.template?.metadata?.labels;
  if (!labels) return [fieldErrors.invalid('spec.template.metadata.labels', null, '`selector` not auto-generated')];
  const errs = [...hasLabel(labels, LABEL_CONTROLLER_UID, uid), ...hasLabel(labels, LABEL_JOB_NAME, name)];
  if (!selectorMatches(spec.selector, { [LABEL_CONTROLLER_UID]: uid, [LABEL_JOB_NAME]: name })) {
    errs.push(fieldErrors.invalid('spec.selector', goLabelSelector(spec.selector), '`selector` not auto-generated'));
  }
  return errs;
}

/** The JobSpec rules at `path` (spec, or spec.jobTemplate.spec of a CronJob). */
export function jobSpecErrors(path: string, spec: Obj): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'backoffLimitPerIndex', 'maxFailedIndexes', 'ttlSecondsAfterFinished']) {
    errs.push(...nonNegative(`${path}.${f}`, spec[f]));
  }
  const mode = spec.completionMode;
  if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed') {
    errs.push(fieldErrors.notSupported(`${path}.completionMode`, mode, ['NonIndexed', 'Indexed']));
  }
  if (mode === 'Indexed') {
    if (spec.completions == null) errs.push(fieldErrors.required(`${path}.completions`, 'when completion mode is Indexed'));
    if (typeof spec.parallelism === 'number' && spec.parallelism > MAX_INDEXED_PARALLELISM) {
      errs.push(fieldErrors.invalid(`${path}.parallelism`, spec.parallelism, `must be less than or equal to ${MAX_INDEXED_PARALLELISM} when completion mode is Indexed`));
    }
  }
  const rpp = spec.podReplacementPolicy;
  if (rpp !== undefined && rpp !== 'TerminatingOrFailed' && rpp !== 'Failed') {
    errs.push(fieldErrors.notSupported(`${path}.podReplacementPolicy`, rpp, ['TerminatingOrFailed', 'Failed']));
  }
  return errs;
}

export function validateJob(obj: Obj): FieldError[] {
  const spec: Obj = obj.spec ?? {};
  const errs: FieldError[] = [...generatedSelectorErrors(obj), ...jobSpecErrors('spec', spec)];
  if (!spec.selector) errs.push(fieldErrors.required('spec.selector', ''));
  else {
    errs.push(...labelSelectorErrors('spec.selector', spec.selector));
    const labels = spec.template?.metadata?.labels ?? {};
    if (!selectorMatches(spec.selector, labels)) {
      errs.push(fieldErrors.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
    }
  }
  return errs;
}

function templateErrors(obj: Obj, old: Obj): FieldError[] {
  const now: Obj | undefined = obj.spec?.template;
  const was: Obj | undefined = old.spec?.template;
  // a suspended job that never started may change where its pods go
  const schedulable = obj.spec?.suspend === true && !old.status?.startTime;
  if (!schedulable) return immutable('spec.template', now, was);
  const strip = (t: Obj | undefined) => {
    const c = structuredClone(t ?? {});
    if (c.metadata) {
      delete c.metadata.labels;
      delete c.metadata.annotations;
    }
    for (const f of SCHEDULING) if (c.spec) delete c.spec[f];
    return c;
  };
  return jsonEqual(strip(now), strip(was)) ? [] : [fieldErrors.invalid('spec.template', now ?? null, 'field is immutable')];
}

export function jobUpdateErrors(obj: Obj, old: Obj): FieldError[] {
  const a: Obj = obj.spec ?? {};
  const b: Obj = old.spec ?? {};
  const errs: FieldError[] = [];
  const elastic = a.completionMode === 'Indexed' && a.completions != null && a.completions === a.parallelism && b.completions === b.parallelism;
  if (!elastic) errs.push(...immutable('spec.completions', a.completions, b.completions));
  if (!jsonEqual(a.selector, b.selector)) errs.push(fieldErrors.invalid('spec.selector', goLabelSelector(a.selector), 'field is immutable'));
  errs.push(...templateErrors(obj, old));
  errs.push(...immutable('spec.completionMode', a.completionMode, b.completionMode));
  errs.push(...immutable('spec.podFailurePolicy', a.podFailurePolicy, b.podFailurePolicy));
  errs.push(...immutable('spec.backoffLimitPerIndex', a.backoffLimitPerIndex, b.backoffLimitPerIndex));
  return errs;
}

export function jobStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    prepareForCreate(obj) {
      base.prepareForCreate(obj);
      generateJobSelector(obj);
    },
    validate(obj) {
      // the store names a generateName object after prepareForCreate: complete the job-name labels now
      if (obj.metadata?.generateName && !obj.metadata?.resourceVersion) generateJobSelector(obj);
      return [...base.validate(obj), ...validateJob(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...validateJob(obj), ...jobUpdateErrors(obj, old)];
    },
  };
}
