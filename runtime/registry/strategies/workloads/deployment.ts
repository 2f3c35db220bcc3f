// Deployment and ReplicaSet (apps/v1): replicas and other counts not
// negative, selector and template rules (workloads/common.ts), the
// Deployment strategy (Recreate without rollingUpdate; RollingUpdate with
// maxUnavailable and maxSurge as counts or percentages, not both zero,
// maxUnavailable at most 100%), progressDeadlineSeconds above
// minReadySeconds, and a selector that never changes.

import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';
import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import type { Strategy } from '../../strategy.ts';
import { GoValue, goIntOrString } from '../../../api/go-format.ts';
import { intOrPercentErrors, isZero } from '../common/int-or-percent.ts';
import { noActiveDeadline, nonNegative, readOnlyDiskErrors, selectorImmutable, selectorTemplateErrors } from './common.ts';

function goStrategy(st: Obj): GoValue {
  const ru = st.rollingUpdate;
  const inner =
    ru && typeof ru === 'object'
      ? `&apps.RollingUpdateDeployment{MaxUnavailable:${goIntOrString(ru.maxUnavailable).text}, MaxSurge:${goIntOrString(ru.maxSurge).text}}`
      : '(*apps.RollingUpdateDeployment)(nil)';
  return new GoValue(`apps.DeploymentStrategy{Type:${JSON.stringify(String(st.type ?? ''))}, RollingUpdate:${inner}}`);
}

export function deploymentStrategyErrors(st: Obj | undefined): FieldError[] {
  const s: Obj = st ?? {};
  const errs: FieldError[] = [];
  switch (s.type) {
    case 'Recreate':
      if (s.rollingUpdate != null) errs.push(fieldErrors.forbidden('spec.strategy.rollingUpdate', "may not be specified when strategy `type` is 'Recreate'"));
      break;
    case 'RollingUpdate': {
      const ru = s.rollingUpdate;
      const p = 'spec.strategy.rollingUpdate';
      if (!ru) {
        errs.push(fieldErrors.required(p, 'this should be defaulted and never be nil'));
        break;
      }
      errs.push(...intOrPercentErrors(`${p}.maxUnavailable`, ru.maxUnavailable));
      errs.push(...intOrPercentErrors(`${p}.maxSurge`, ru.maxSurge, { capAt100: false }));
      if (isZero(ru.maxUnavailable ?? 0) && isZero(ru.maxSurge ?? 0)) {
        errs.push(fieldErrors.invalid(`${p}.maxUnavailable`, goIntOrString(ru.maxUnavailable), 'may not be 0 when `maxSurge` is 0'));
      }
      break;
    }
    default:
      errs.push(fieldErrors.notSupported('spec.strategy', goStrategy(s), ['Recreate', 'RollingUpdate']));
  }
  return errs;
}

export function validateDeployment(obj: Obj): FieldError[] {
  const spec: Obj = obj.spec ?? {};
  const errs: FieldError[] = [];
  errs.push(...nonNegative('spec.replicas', spec.replicas));
  errs.push(...selectorTemplateErrors(spec, 'deployment'));
  errs.push(...readOnlyDiskErrors(spec));
  errs.push(...noActiveDeadline(spec, 'ReplicaSet'));
  errs.push(...nonNegative('spec.revisionHistoryLimit', spec.revisionHistoryLimit));
  errs.push(...deploymentStrategyErrors(spec.strategy));
  errs.push(...nonNegative('spec.minReadySeconds', spec.minReadySeconds));
  if (typeof spec.progressDeadlineSeconds === 'number') {
    errs.push(...nonNegative('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds));
    if (spec.progressDeadlineSeconds <= (spec.minReadySeconds ?? 0)) {
      errs.push(fieldErrors.invalid('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
    }
  }
  return errs;
}

export function validateReplicaSet(obj: Obj): FieldError[] {
  const spec: Obj = obj.spec ?? {};
  return [
    ...nonNegative('spec.replicas', spec.replicas),
    ...nonNegative('spec.minReadySeconds', spec.minReadySeconds),
    ...selectorTemplateErrors(spec, 'deployment'),
    ...readOnlyDiskErrors(spec),
    ...noActiveDeadline(spec, 'ReplicaSet'),
  ];
}

function withRules(base: Strategy, validate: (obj: Obj) => FieldError[]): Strategy {
  return {
    ...base,
    validate(obj) {
      return [...base.validate(obj), ...validate(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...validate(obj), ...selectorImmutable(obj, old)];
    },
  };
}

export function deploymentStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return withRules(base, validateDeployment);
}

export function replicaSetStrategy(_def: ResourceDef, base: Strategy): Strategy {
  return withRules(base, validateReplicaSet);
}
