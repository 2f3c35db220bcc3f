// Resource-specific strategies, looked up by group and kind. Each wraps the
// default strategy (runtime/registry/strategy.ts) and adds the rules of its
// resource; a kind without an entry gets the default behaviour. Every
// strategy warns about finalizer names without a domain.

import type { ResourceDef } from '../../../generated/api-types.ts';
import { type Strategy, hasStatus } from '../strategy.ts';
import { finalizerWarnings } from './common/finalizer-warnings.ts';
import { statusWithMetadata } from './common/status.ts';
import { configMapStrategy } from './configmap.ts';
import { daemonSetStrategy } from './daemonset.ts';
import { endpointSliceStrategy, endpointsStrategy } from './endpoints.ts';
import { eventStrategy } from './event.ts';
import type { StrategyContext } from './context.ts';
import { apiServiceStrategy, ipAddressStrategy, leaseStrategy, podDisruptionBudgetStrategy, runtimeClassStrategy, serviceCIDRStrategy } from './misc.ts';
import { namespaceStrategy } from './namespace.ts';
import { priorityLevelStrategy } from './flowcontrol.ts';
import { ingressStrategy } from './ingress.ts';
import { hpaStrategy } from './hpa/strategy.ts';
import { certificateSigningRequestStrategy } from './certificates/strategy.ts';
import { persistentVolumeStrategy } from './persistentvolume.ts';
import { limitRangeStrategy } from './limitrange.ts';
import { priorityClassStrategy } from './priorityclass.ts';
import { podStrategy } from './pod/update.ts';
import { bindingStrategy, roleStrategy } from './rbac.ts';
import { withPodSpec } from './pod/workloads.ts';
import { secretStrategy } from './secret.ts';
import { serviceStrategy } from './service/strategy.ts';
import { cronJobStrategy } from './workloads/cronjob.ts';
import { deploymentStrategy, replicaSetStrategy } from './workloads/deployment.ts';
import { jobStrategy } from './workloads/job.ts';
import { replicationControllerStrategy } from './workloads/replicationcontroller.ts';
import { statefulSetStrategy } from './workloads/statefulset.ts';
import { customResourceDefinitionStrategy } from './apiextensions/strategy.ts';
import { validatingAdmissionPolicyBindingStrategy, validatingAdmissionPolicyStrategy } from './admissionregistration/policy.ts';
import { webhookConfigurationStrategy } from './admissionregistration/webhook-configuration.ts';
import { csiDriverStrategy, csiNodeStrategy, csiStorageCapacityStrategy, volumeAttachmentStrategy } from './storage.ts';

export type StrategyFactory = (def: ResourceDef, base: Strategy, ctx?: StrategyContext) => Strategy;

const factories: Record<string, StrategyFactory> = {
  '/Namespace': namespaceStrategy,
  '/Pod': podStrategy,
  '/Secret': secretStrategy,
  '/ConfigMap': configMapStrategy,
  '/Service': serviceStrategy,
  'apps/DaemonSet': daemonSetStrategy,
  'apps/Deployment': deploymentStrategy,
  'apps/ReplicaSet': replicaSetStrategy,
  '/ReplicationController': replicationControllerStrategy,
  'apps/StatefulSet': statefulSetStrategy,
  'batch/Job': jobStrategy,
  'batch/CronJob': cronJobStrategy,
  '/Endpoints': endpointsStrategy,
  'discovery.k8s.io/EndpointSlice': endpointSliceStrategy,
  'storage.k8s.io/CSIDriver': csiDriverStrategy,
  'storage.k8s.io/CSINode': csiNodeStrategy,
  'storage.k8s.io/CSIStorageCapacity': csiStorageCapacityStrategy,
  'storage.k8s.io/VolumeAttachment': volumeAttachmentStrategy,
  '/Event': eventStrategy,
  'coordination.k8s.io/Lease': leaseStrategy,
  'node.k8s.io/RuntimeClass': runtimeClassStrategy,
  'networking.k8s.io/IPAddress': ipAddressStrategy,
  'networking.k8s.io/ServiceCIDR': serviceCIDRStrategy,
  'apiregistration.k8s.io/APIService': apiServiceStrategy,
  'policy/PodDisruptionBudget': podDisruptionBudgetStrategy,
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration': priorityLevelStrategy,
  'networking.k8s.io/Ingress': ingressStrategy,
  'autoscaling/HorizontalPodAutoscaler': hpaStrategy,
  'certificates.k8s.io/CertificateSigningRequest': certificateSigningRequestStrategy,
  '/PersistentVolume': persistentVolumeStrategy,
  '/LimitRange': limitRangeStrategy,
  'scheduling.k8s.io/PriorityClass': priorityClassStrategy,
  'rbac.authorization.k8s.io/Role': roleStrategy,
  'rbac.authorization.k8s.io/ClusterRole': roleStrategy,
  'rbac.authorization.k8s.io/RoleBinding': bindingStrategy,
  'rbac.authorization.k8s.io/ClusterRoleBinding': bindingStrategy,
  'apiextensions.k8s.io/CustomResourceDefinition': customResourceDefinitionStrategy,
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': validatingAdmissionPolicyStrategy,
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': validatingAdmissionPolicyBindingStrategy,
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': webhookConfigurationStrategy,
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': webhookConfigurationStrategy,
};

/** The strategy of a store bound over `def` (its storage version); `ctx` what the binding knows of its other versions. */
export function strategyFor(def: ResourceDef, base: Strategy, ctx?: StrategyContext): Strategy {
  const f = factories[`${def.group}/${def.kind}`];
  const inner = withPodSpec(def, base);
  const kind = f ? f(def, inner, ctx) : inner;
  const strategy: Strategy = {
    ...kind,
    warningsOnCreate: (obj) => [...kind.warningsOnCreate(obj), ...finalizerWarnings(obj)],
    warningsOnUpdate: (obj, old) => [...kind.warningsOnUpdate(obj, old), ...finalizerWarnings(obj, old)],
  };
  if (hasStatus(def) && !strategy.subresources?.status) {
    const status = statusWithMetadata(() => [], { keepOwnerReferences: def.group === '' && def.kind === 'Pod' });
    return { ...strategy, subresources: { ...(strategy.subresources ?? {}), status } };
  }
  return strategy;
}
