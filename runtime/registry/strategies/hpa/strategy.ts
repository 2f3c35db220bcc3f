// The HorizontalPodAutoscaler strategy: the autoscaling/v2 defaults for an
// object in v2 (defaults.ts), and upstream's validation (spec.ts) of the
// object in the storage version's shape (`ctx.toStorage`), as upstream
// validates the internal object: a v1 object's metrics include those its
// autoscaling.alpha.kubernetes.io/metrics annotation carries and its
// behavior the one of autoscaling.alpha.kubernetes.io/behavior, and their
// errors have v2's field paths. An update runs the update's rules only
// (minReplicas 0 stays allowed on an object stored with 0); a status write
// checks the replica counts. The fields the schemas require that the rules
// report themselves (with upstream's texts, as Go's zero values) are
// listed in reportsRequired.

import type { ResourceDef } from '../../../../generated/api-types.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { Strategy } from '../../strategy.ts';
import { statusWithMetadata } from '../common/status.ts';
import type { StrategyContext } from '../context.ts';
import { defaultHpaV2 } from './defaults.ts';
import { hpaSpecErrors, hpaStatusErrors, minReplicasLowerBound } from './spec.ts';

/** The feature gate that allows minReplicas 0 (alpha in 1.31: off by default). */
export const SCALE_TO_ZERO_GATE = 'HPAScaleToZero';

const METRIC = 'spec.metrics[*]';
const POLICY = (dir: string) => `spec.behavior.${dir}.policies[*]`;
const HPA_REPORTS_REQUIRED: ReadonlySet<string> = new Set([
  'spec.scaleTargetRef',
  'spec.scaleTargetRef.kind',
  'spec.scaleTargetRef.name',
  'spec.maxReplicas',
  `${METRIC}.type`,
  ...['object', 'pods', 'external'].map((s) => `${METRIC}.${s}.metric`),
  ...['object', 'pods', 'external'].map((s) => `${METRIC}.${s}.metric.name`),
  ...['object', 'pods', 'external', 'resource', 'containerResource'].flatMap((s) => [`${METRIC}.${s}.target`, `${METRIC}.${s}.target.type`]),
  `${METRIC}.object.describedObject`,
  `${METRIC}.object.describedObject.kind`,
  `${METRIC}.object.describedObject.name`,
  `${METRIC}.resource.name`,
  `${METRIC}.containerResource.name`,
  `${METRIC}.containerResource.container`,
  ...['scaleUp', 'scaleDown'].flatMap((d) => ['type', 'value', 'periodSeconds'].map((f) => `${POLICY(d)}.${f}`)),
]);

const versionOf = (obj: Obj, def: ResourceDef) => (typeof obj.apiVersion === 'string' && obj.apiVersion.includes('/') ? obj.apiVersion.slice(obj.apiVersion.lastIndexOf('/') + 1) : def.version);

export function hpaStrategy(def: ResourceDef, base: Strategy, ctx?: StrategyContext): Strategy {
  const stored = (obj: Obj) => (ctx?.toStorage ? ctx.toStorage(obj) : obj);
  const scaleToZero = () => ctx?.features?.enabled(SCALE_TO_ZERO_GATE) ?? false;
  return {
    ...base,
    reportsRequired: new Set([...(base.reportsRequired ?? []), ...HPA_REPORTS_REQUIRED]),
    defaults(obj) {
      base.defaults?.(obj);
      if (versionOf(obj, def) === 'v2') defaultHpaV2(obj);
    },
    validate(obj) {
      return [...base.validate(obj), ...hpaSpecErrors(stored(obj), minReplicasLowerBound(scaleToZero()))];
    },
    // upstream's update rules: the metadata update's and the spec's, with the stored object's lower bound
    updateRulesOnly: true,
    validateUpdate(obj, old) {
      return [...base.validateUpdate(obj, old), ...hpaSpecErrors(stored(obj), minReplicasLowerBound(scaleToZero(), stored(old)))];
    },
    subresources: { ...(base.subresources ?? {}), status: statusWithMetadata((obj) => hpaStatusErrors(obj)) },
  };
}
