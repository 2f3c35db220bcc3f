// DaemonSet: defaults (updateStrategy RollingUpdate with maxUnavailable 1
// and maxSurge 0, revisionHistoryLimit 10), a required non-empty selector
// that matches the template labels and never changes (restartPolicy Always
// is checked with the containers, pod/containers.ts), no activeDeadlineSeconds, update-strategy rules (not both 0,
// percentages), non-negative counts, and status counters through /status.

import type { ResourceDef } from '../../../generated/api-types.ts';
import type { Obj } from '../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../api/field-errors.ts';
import { type Strategy, type SubresourceStrategy } from '../strategy.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import { statusWithMetadata } from './common/status.ts';
import { goIntOrString, goLabelSelector } from '../../api/go-format.ts';
import { intOrPercentErrors, isZero } from './common/int-or-percent.ts';
import { isEmptySelector, labelSelectorErrors, selectorMatches } from '../../api/label-selector.ts';

const STATUS_COUNTS = [
  'currentNumberScheduled',
  'numberMisscheduled',
  'desiredNumberScheduled',
  'numberReady',
  'observedGeneration',
  'updatedNumberScheduled',
  'numberAvailable',
  'numberUnavailable',
  'collisionCount',
];

function nonNegative(path: string, v: unknown): FieldError[] {
  return typeof v === 'number' && v < 0 ? [fieldErrors.invalid(path, v, 'must be greater than or equal to 0')] : [];
}

export function defaultDaemonSet(obj: Obj): void {
  const spec = (obj.spec ??= {});
  const us = (spec.updateStrategy ??= {});
  us.type ??= 'RollingUpdate';
  if (us.type === 'RollingUpdate') {
    const ru = (us.rollingUpdate ??= {});
    ru.maxUnavailable ??= 1;
    ru.maxSurge ??= 0;
  }
  spec.revisionHistoryLimit ??= 10;
}

export function validateDaemonSet(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const spec: Obj = obj.spec ?? {};
  const sel = spec.selector;
  if (!sel) errs.push(fieldErrors.required('spec.selector', ''));
  else {
    errs.push(...labelSelectorErrors('spec.selector', sel));
    if (isEmptySelector(sel)) errs.push(fieldErrors.invalid('spec.selector', goLabelSelector(sel), 'empty selector is invalid for daemonset'));
    const labels = spec.template?.metadata?.labels ?? {};
    if (!isEmptySelector(sel) && !selectorMatches(sel, labels)) {
      errs.push(fieldErrors.invalid('spec.template.metadata.labels', labels, '`selector` does not match template `labels`'));
    }
  }
  const pod = spec.template?.spec;
  if (!spec.template) errs.push(fieldErrors.required('spec.template', ''));
  if (pod) {
    if (pod.activeDeadlineSeconds !== undefined) errs.push(fieldErrors.forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in DaemonSet is not Supported'));
  }
  errs.push(...nonNegative('spec.minReadySeconds', spec.minReadySeconds));
  errs.push(...nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit));
  const us = spec.updateStrategy ?? {};
  if (us.type !== 'RollingUpdate' && us.type !== 'OnDelete') {
    errs.push(fieldErrors.notSupported('spec.updateStrategy.type', us.type ?? '', ['OnDelete', 'RollingUpdate']));
  }
  if (us.type === 'RollingUpdate') {
    const ru = us.rollingUpdate;
    if (!ru) errs.push(fieldErrors.required('spec.updateStrategy.rollingUpdate', ''));
    else {
      const p = 'spec.updateStrategy.rollingUpdate';
      errs.push(...intOrPercentErrors(`${p}.maxUnavailable`, ru.maxUnavailable));
      errs.push(...intOrPercentErrors(`${p}.maxSurge`, ru.maxSurge));
      if (isZero(ru.maxUnavailable) && isZero(ru.maxSurge)) {
        errs.push(fieldErrors.invalid(`${p}.maxUnavailable`, goIntOrString(ru.maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
      }
    }
  }
  return errs;
}

export function validateDaemonSetStatus(obj: Obj): FieldError[] {
  const st: Obj = obj.status ?? {};
  return STATUS_COUNTS.flatMap((f) => nonNegative(`status.${f}`, st[f]));
}

function statusSub(): SubresourceStrategy {
  return statusWithMetadata((obj) => validateDaemonSetStatus(obj));
}

export function daemonSetStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    subresources: { status: statusSub() },
    defaults(obj) {
      base.defaults?.(obj);
      defaultDaemonSet(obj);
    },
    validate(obj) {
      return [...base.validate(obj), ...validateDaemonSet(obj)];
    },
    validateUpdate(obj, old) {
      const errs = base.validateUpdate(obj, old);
      if (!jsonEqual(obj.spec?.selector, old.spec?.selector)) errs.push(fieldErrors.invalid('spec.selector', goLabelSelector(obj.spec?.selector), 'field is immutable'));
      return errs;
    },
  };
}
