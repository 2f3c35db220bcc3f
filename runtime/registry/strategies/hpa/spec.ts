// A HorizontalPodAutoscaler's spec and status as upstream's
// ValidateHorizontalPodAutoscaler (and its update and status update) check
// them, on the object in the storage version's shape (autoscaling/v2), so
// that an autoscaling/v1 object (whose metrics and behavior travel in
// annotations) gets v2's field paths: scaleTargetRef (kind and name, path
// segment names), minReplicas at least the lower bound (1; 0 with the
// HPAScaleToZero gate, or on update when the stored object has 0),
// maxReplicas above 0 and at least minReplicas, the metrics (metrics.ts)
// and the behavior (behavior.ts). Status: replica counts not negative.

import { type FieldError, fieldErrors } from '../../../api/field-errors.ts';
import type { Obj } from '../../../storage/interface.ts';
import { behaviorErrors } from './behavior.ts';
import { isObj, metricsErrors, objectReferenceErrors } from './metrics.ts';

/** The spec's errors; `minReplicasLowerBound` 1, or 0 where scaling to zero is allowed. */
export function hpaSpecErrors(obj: Obj, minReplicasLowerBound: number): FieldError[] {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const errs: FieldError[] = [];
  const min = typeof spec.minReplicas === 'number' ? spec.minReplicas : undefined;
  const max = typeof spec.maxReplicas === 'number' ? spec.maxReplicas : 0;
  if (min !== undefined && min < minReplicasLowerBound) errs.push(fieldErrors.invalid('spec.minReplicas', min, `must be greater than or equal to ${minReplicasLowerBound}`));
  if (max < 1) errs.push(fieldErrors.invalid('spec.maxReplicas', max, 'must be greater than 0'));
  if (min !== undefined && max < min) errs.push(fieldErrors.invalid('spec.maxReplicas', max, 'must be greater than or equal to `minReplicas`'));
  errs.push(...objectReferenceErrors('spec.scaleTargetRef', spec.scaleTargetRef));
  errs.push(...metricsErrors(spec.metrics, min));
  errs.push(...behaviorErrors(spec.behavior));
  return errs;
}

/** The lower bound of minReplicas: 0 with scale to zero enabled, or on an update of an object stored with 0. */
export function minReplicasLowerBound(scaleToZero: boolean, old?: Obj): number {
  return scaleToZero || (isObj(old?.spec) && old.spec.minReplicas === 0) ? 0 : 1;
}

/** A status write: the replica counts are not negative. */
export function hpaStatusErrors(obj: Obj): FieldError[] {
  const status = isObj(obj.status) ? obj.status : {};
  const errs: FieldError[] = [];
  for (const f of ['currentReplicas', 'desiredReplicas']) {
    const v = typeof status[f] === 'number' ? status[f] : 0;
    if (v < 0) errs.push(fieldErrors.invalid(`status.${f}`, v, 'must be greater than or equal to 0'));
  }
  return errs;
}
