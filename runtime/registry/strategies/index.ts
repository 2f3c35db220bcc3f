// Resource-specific strategies, looked up by group and kind. Each wraps the
// default strategy (runtime/registry/strategy.ts) and adds the rules of its
// resource; a kind without an entry gets the default behaviour.

import type { ResourceDef } from '../../../generated/api-types.ts';
import { type Strategy, hasStatus } from '../strategy.ts';
import { statusWithMetadata } from './common/status.ts';
import { configMapStrategy } from './configmap.ts';
import { daemonSetStrategy } from './daemonset.ts';
import { endpointSliceStrategy, endpointsStrategy } from './endpoints.ts';
import { eventV1Strategy } from './event.ts';
import { apiServiceStrategy, ipAddressStrategy, leaseStrategy, podDisruptionBudgetStrategy, runtimeClassStrategy, serviceCIDRStrategy } from './misc.ts';
import { namespaceStrategy } from './namespace.ts';
import { persistentVolumeStrategy } from './persistentvolume.ts';
import { withPodSpec } from './pod/workloads.ts';
import { secretStrategy } from './secret.ts';
import { serviceStrategy } from './service/strategy.ts';
import { csiDriverStrategy, csiNodeStrategy, csiStorageCapacityStrategy, volumeAttachmentStrategy } from './storage.ts';

export type StrategyFactory = (def: ResourceDef, base: Strategy) => Strategy;

const factories: Record<string, StrategyFactory> = {
  '/Namespace': namespaceStrategy,
  '/Secret': secretStrategy,
  '/ConfigMap': configMapStrategy,
  '/Service': serviceStrategy,
  'apps/DaemonSet': daemonSetStrategy,
  '/Endpoints': endpointsStrategy,
  'discovery.k8s.io/EndpointSlice': endpointSliceStrategy,
  'storage.k8s.io/CSIDriver': csiDriverStrategy,
  'storage.k8s.io/CSINode': csiNodeStrategy,
  'storage.k8s.io/CSIStorageCapacity': csiStorageCapacityStrategy,
  'storage.k8s.io/VolumeAttachment': volumeAttachmentStrategy,
  'events.k8s.io/Event': eventV1Strategy,
  'coordination.k8s.io/Lease': leaseStrategy,
  'node.k8s.io/RuntimeClass': runtimeClassStrategy,
  'networking.k8s.io/IPAddress': ipAddressStrategy,
  'networking.k8s.io/ServiceCIDR': serviceCIDRStrategy,
  'apiregistration.k8s.io/APIService': apiServiceStrategy,
  'policy/PodDisruptionBudget': podDisruptionBudgetStrategy,
  '/PersistentVolume': persistentVolumeStrategy,
};

export function strategyFor(def: ResourceDef, base: Strategy): Strategy {
  const f = factories[`${def.group}/${def.kind}`];
  const inner = withPodSpec(def, base);
  const strategy = f ? f(def, inner) : inner;
  if (hasStatus(def) && !strategy.subresources?.status) {
    const status = statusWithMetadata(() => [], { keepOwnerReferences: def.group === '' && def.kind === 'Pod' });
    return { ...strategy, subresources: { ...(strategy.subresources ?? {}), status } };
  }
  return strategy;
}
