// autoscaling/v2 HorizontalPodAutoscaler defaults, as the v2 Go defaulter
// sets them: minReplicas 1, one metric (CPU at 80% average utilization)
// when none is given, and a behavior's missing scale-up or scale-down rules
// (and their missing fields) filled with the controller's defaults. An
// object in autoscaling/v1 gets its version's defaults declared with its
// conversion (api-specs/autoscaling_v1.json) and none of these.

import type { Obj } from '../../../storage/interface.ts';
import { isObj } from './metrics.ts';

/** The CPU utilization a HorizontalPodAutoscaler without metrics targets (upstream's DefaultCPUUtilization). */
export const DEFAULT_CPU_UTILIZATION = 80;

const SCALE_UP: Obj = {
  stabilizationWindowSeconds: 0,
  selectPolicy: 'Max',
  policies: [
    { type: 'Pods', value: 4, periodSeconds: 15 },
    { type: 'Percent', value: 100, periodSeconds: 15 },
  ],
};
const SCALE_DOWN: Obj = { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] };

/** Scaling rules with every absent field (or the whole rules) from the defaults. */
function scalingRules(rules: unknown, defaults: Obj): Obj {
  if (!isObj(rules)) return structuredClone(defaults);
  for (const k of ['stabilizationWindowSeconds', 'selectPolicy', 'policies']) if (rules[k] === undefined || rules[k] === null) rules[k] = structuredClone(defaults[k]);
  return rules;
}

/** The autoscaling/v2 defaults (in place). */
export function defaultHpaV2(obj: Obj): void {
  const spec = obj.spec;
  if (!isObj(spec)) return;
  if (spec.minReplicas === undefined || spec.minReplicas === null) spec.minReplicas = 1;
  if (!Array.isArray(spec.metrics) || spec.metrics.length === 0) {
    spec.metrics = [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: DEFAULT_CPU_UTILIZATION } } }];
  }
  if (isObj(spec.behavior)) {
    spec.behavior.scaleUp = scalingRules(spec.behavior.scaleUp, SCALE_UP);
    spec.behavior.scaleDown = scalingRules(spec.behavior.scaleDown, SCALE_DOWN);
  }
}
