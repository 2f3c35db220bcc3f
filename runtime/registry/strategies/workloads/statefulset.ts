// StatefulSet (apps/v1): counts not negative, podManagementPolicy
// OrderedReady or Parallel, update strategy RollingUpdate (partition not
// negative) or OnDelete (no rollingUpdate), PVC retention policy values,
// selector and template rules; on update only replicas, ordinals,
// template, updateStrategy, revisionHistoryLimit, the PVC retention policy
// and minReadySeconds may change.

import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import { type Strategy } from '../../strategy.ts';
import { jsonEqual } from '../../../api/json-equal.ts';
import { GoValue, goIntOrString } from '../../../api/go-format.ts';
import { noActiveDeadline, nonNegative, selectorTemplateErrors } from './common.ts';

const MUTABLE = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];
const RETENTION = ['Retain', 'Delete'];
export const STS_UPDATE_FORBIDDEN =
  "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

function goRollingUpdate(ru: Obj): string {
  const mu = ru.maxUnavailable === undefined ? '(*intstr.IntOrString)(nil)' : `&${goIntOrString(ru.maxUnavailable).text}`;
  return `apps.RollingUpdateStatefulSetStrategy{Partition:${Number(ru.partition ?? 0)}, MaxUnavailable:${mu}}`;
}

function goUpdateStrategy(us: Obj): GoValue {
  const ru = us.rollingUpdate && typeof us.rollingUpdate === 'object' ? `&${goRollingUpdate(us.rollingUpdate)}` : '(*apps.RollingUpdateStatefulSetStrategy)(nil)';
  return new GoValue(`apps.StatefulSetUpdateStrategy{Type:${JSON.stringify(String(us.type ?? ''))}, RollingUpdate:${ru}}`);
}

export function validateStatefulSet(obj: Obj): FieldError[] {
  const spec: Obj = obj.spec ?? {};
  const errs: FieldError[] = [];
  const pmp = spec.podManagementPolicy;
  if (!pmp) errs.push(fieldErrors.required('spec.podManagementPolicy', ''));
  else if (pmp !== 'OrderedReady' && pmp !== 'Parallel') errs.push(fieldErrors.invalid('spec.podManagementPolicy', pmp, "must be 'OrderedReady' or 'Parallel'"));
  const us: Obj = spec.updateStrategy ?? {};
  switch (us.type) {
    case undefined:
    case '':
      errs.push(fieldErrors.required('spec.updateStrategy', ''));
      break;
    case 'OnDelete':
      if (us.rollingUpdate != null)
        errs.push(fieldErrors.invalid('spec.updateStrategy.rollingUpdate', new GoValue(goRollingUpdate(us.rollingUpdate)), "only allowed for updateStrategy 'RollingUpdate'"));
      break;
    case 'RollingUpdate':
      errs.push(...nonNegative('spec.updateStrategy.rollingUpdate.partition', us.rollingUpdate?.partition));
      break;
    default:
      errs.push(fieldErrors.invalid('spec.updateStrategy', goUpdateStrategy(us), "must be 'RollingUpdate' or 'OnDelete'"));
  }
  const pr = spec.persistentVolumeClaimRetentionPolicy;
  if (pr && typeof pr === 'object') {
    for (const f of ['whenDeleted', 'whenScaled']) {
      if (pr[f] !== undefined && !RETENTION.includes(pr[f])) errs.push(fieldErrors.notSupported(`spec.persistentVolumeClaimRetentionPolicy.${f}`, pr[f], RETENTION));
    }
  }
  errs.push(...nonNegative('spec.replicas', spec.replicas));
  errs.push(...nonNegative('spec.minReadySeconds', spec.minReadySeconds));
  errs.push(...nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit));
  if (spec.ordinals) errs.push(...nonNegative('spec.ordinals.start', spec.ordinals.start));
  errs.push(...selectorTemplateErrors(spec, 'statefulset'));
  errs.push(...noActiveDeadline(spec, 'StatefulSet'));
  return errs;
}

export function statefulSetUpdateErrors(obj: Obj, old: Obj): FieldError[] {
  const strip = (spec: Obj | undefined) => Object.fromEntries(Object.entries(spec ?? {}).filter(([k]) => !MUTABLE.includes(k)));
  return jsonEqual(strip(obj.spec), strip(old.spec)) ? [] : [fieldErrors.forbidden('spec', STS_UPDATE_FORBIDDEN)];
}

export function statefulSetStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return {
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...validateStatefulSet(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...validateStatefulSet(obj), ...statefulSetUpdateErrors(obj, old)];
    },
  };
}
