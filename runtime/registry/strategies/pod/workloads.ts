// Where a PodSpec sits in each kind that carries one, and the strategy
// wrapper that defaults it and validates its containers, restart policy and
// volumes, and a template's labels and annotations (pod/template.ts) (plus the kind's own workload defaults: Deployment, ReplicaSet,
// StatefulSet, Job, CronJob).

import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { FieldError } from '../../../api/field-errors.ts';
import type { Strategy } from '../../strategy.ts';
import { ALL_RESTART_POLICIES, type PodSpecRules, podSpecErrors } from './containers.ts';
import { defaultPodSpec } from './defaults.ts';
import { volumesErrors } from './volumes.ts';
import { podTemplateErrors } from './template.ts';

/** Path of the PodSpec per `group/Kind`. */
export const POD_SPEC_PATHS: Record<string, string> = {
  '/Pod': 'spec',
  '/PodTemplate': 'template.spec',
  '/ReplicationController': 'spec.template.spec',
  'apps/Deployment': 'spec.template.spec',
  'apps/ReplicaSet': 'spec.template.spec',
  'apps/StatefulSet': 'spec.template.spec',
  'apps/DaemonSet': 'spec.template.spec',
  'batch/Job': 'spec.template.spec',
  'batch/CronJob': 'spec.jobTemplate.spec.template.spec',
};

/** Container rules per carrying kind: Pods need images; controllers of long-running pods restart them Always, jobs never Always. */
export const POD_SPEC_RULES: Record<string, PodSpecRules> = {
  '/Pod': { requireImage: true, restartPolicies: ALL_RESTART_POLICIES },
  '/PodTemplate': { requireImage: false, restartPolicies: ALL_RESTART_POLICIES },
  '/ReplicationController': { requireImage: false, restartPolicies: ['Always'] },
  'apps/Deployment': { requireImage: false, restartPolicies: ['Always'] },
  'apps/ReplicaSet': { requireImage: false, restartPolicies: ['Always'] },
  'apps/StatefulSet': { requireImage: false, restartPolicies: ['Always'] },
  'apps/DaemonSet': { requireImage: false, restartPolicies: ['Always'] },
  'batch/Job': { requireImage: false, restartPolicies: ['OnFailure', 'Never'] },
  'batch/CronJob': { requireImage: false, restartPolicies: ['OnFailure', 'Never'] },
};

export function podSpecAt(obj: Obj, path: string): Obj | undefined {
  let cur: unknown = obj;
  for (const p of path.split('.')) cur = cur !== null && typeof cur === 'object' ? (cur as Obj)[p] : undefined;
  return cur && typeof cur === 'object' ? (cur as Obj) : undefined;
}

/** The Go defaulters of the workload kinds themselves (not the template). */
function defaultWorkload(key: string, obj: Obj): void {
  const spec = obj.spec;
  if (!spec || typeof spec !== 'object') return;
  switch (key) {
    case 'apps/Deployment': {
      spec.replicas ??= 1;
      const st = (spec.strategy ??= {});
      st.type ??= 'RollingUpdate';
      if (st.type === 'RollingUpdate') {
        const ru = (st.rollingUpdate ??= {});
        ru.maxUnavailable ??= '25%';
        ru.maxSurge ??= '25%';
      }
      spec.revisionHistoryLimit ??= 10;
      spec.progressDeadlineSeconds ??= 600;
      break;
    }
    case 'apps/ReplicaSet':
    case '/ReplicationController':
      spec.replicas ??= 1;
      break;
    case 'apps/StatefulSet': {
      spec.replicas ??= 1;
      spec.podManagementPolicy ??= 'OrderedReady';
      const us = (spec.updateStrategy ??= {});
      us.type ??= 'RollingUpdate';
      if (us.type === 'RollingUpdate') (us.rollingUpdate ??= {}).partition ??= 0;
      spec.revisionHistoryLimit ??= 10;
      const pr = (spec.persistentVolumeClaimRetentionPolicy ??= {});
      pr.whenDeleted ??= 'Retain';
      pr.whenScaled ??= 'Retain';
      break;
    }
    case 'batch/Job':
      defaultJobSpec(spec);
      break;
    case 'batch/CronJob':
      spec.concurrencyPolicy ??= 'Allow';
      spec.suspend ??= false;
      spec.successfulJobsHistoryLimit ??= 3;
      spec.failedJobsHistoryLimit ??= 1;
      if (spec.jobTemplate?.spec) defaultJobSpec(spec.jobTemplate.spec);
      break;
    default:
  }
}

function defaultJobSpec(spec: Obj): void {
  spec.completions ??= 1;
  spec.parallelism ??= 1;
  spec.backoffLimit ??= 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  if (spec.podFailurePolicy === undefined) spec.podReplacementPolicy ??= 'TerminatingOrFailed';
}

/** Wraps a kind's strategy with PodSpec defaults and volume rules. */
export function withPodSpec(def: ResourceDef, base: Strategy): Strategy {
  const key = `${def.group}/${def.kind}`;
  const path = POD_SPEC_PATHS[key];
  if (!path) return base;
  const defaults = (obj: Obj) => {
    defaultWorkload(key, obj);
    defaultPodSpec(podSpecAt(obj, path));
  };
  const rules = POD_SPEC_RULES[key];
  // every kind but Pod carries a template: its metadata is checked too
  const templatePath = key === '/Pod' ? undefined : path.replace(/\.spec$/, '');
  const templateErrs = (obj: Obj): FieldError[] => (templatePath ? podTemplateErrors(templatePath, podSpecAt(obj, templatePath)) : []);
  const errs = (obj: Obj): FieldError[] => {
    const spec = podSpecAt(obj, path);
    return [...templateErrs(obj), ...podSpecErrors(path, spec, rules), ...volumesErrors(path, spec?.volumes)];
  };
  return {
    ...base,
    defaults(obj) {
      base.defaults?.(obj);
      defaults(obj);
    },
    validate(obj) {
      return [...base.validate(obj), ...errs(obj)];
    },
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...templateErrs(obj)];
    },
  };
}
