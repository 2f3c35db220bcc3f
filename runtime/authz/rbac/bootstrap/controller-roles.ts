// The roles of kube-controller-manager's controllers (upstream's
// controller_policy.go as of 1.31, without the roles of controllers behind
// feature gates that are off by default): each a ClusterRole
// `system:controller:<name>` bound to the ServiceAccount `<name>` in
// kube-system.

import type { Obj } from '../../../storage/interface.ts';
import type { PolicyRule } from '../rules.ts';
import { CORE, EVENTS_WRITE, READ, clusterRole, clusterRoleBinding, rule, serviceAccount } from './build.ts';

const RW_FULL = 'create delete get list patch update watch';

const CONTROLLERS: [string, PolicyRule[]][] = [
  [
    'attachdetach-controller',
    [
      rule('list watch', CORE, 'persistentvolumes persistentvolumeclaims'),
      rule(READ, CORE, 'nodes'),
      rule('patch update', CORE, 'nodes/status'),
      rule('list watch', CORE, 'pods'),
      EVENTS_WRITE,
      rule('create delete get list watch', ['storage.k8s.io'], 'volumeattachments'),
      rule(READ, ['storage.k8s.io'], 'csidrivers'),
      rule(READ, ['storage.k8s.io'], 'csinodes'),
    ],
  ],
  [
    'clusterrole-aggregation-controller',
    [
      // it must be able to grant whatever the roles it gathers grant
      rule('escalate get list patch update watch', ['rbac.authorization.k8s.io'], 'clusterroles'),
    ],
  ],
  [
    'cronjob-controller',
    [
      rule('get list update watch', ['batch'], 'cronjobs'),
      rule(RW_FULL, ['batch'], 'jobs'),
      rule('update', ['batch'], 'cronjobs/status'),
      rule('update', ['batch'], 'cronjobs/finalizers'),
      rule('delete list', CORE, 'pods'),
      EVENTS_WRITE,
    ],
  ],
  [
    'daemon-set-controller',
    [
      rule(READ, ['apps', 'extensions'], 'daemonsets'),
      rule('update', ['apps', 'extensions'], 'daemonsets/status'),
      rule('update', ['apps', 'extensions'], 'daemonsets/finalizers'),
      rule('list watch', CORE, 'nodes'),
      rule('create delete list patch watch', CORE, 'pods'),
      rule('create', CORE, 'pods/binding'),
      rule(RW_FULL, ['apps'], 'controllerrevisions'),
      EVENTS_WRITE,
    ],
  ],
  [
    'deployment-controller',
    [
      rule('get list update watch', ['apps', 'extensions'], 'deployments'),
      rule('update', ['apps', 'extensions'], 'deployments/status'),
      rule('update', ['apps', 'extensions'], 'deployments/finalizers'),
      rule(RW_FULL, ['apps', 'extensions'], 'replicasets'),
      // pods are only read (and their labels updated for the pod-template-hash)
      rule('get list update watch', CORE, 'pods'),
      EVENTS_WRITE,
    ],
  ],
  [
    'disruption-controller',
    [
      rule(READ, ['apps', 'extensions'], 'deployments'),
      rule(READ, ['apps', 'extensions'], 'replicasets'),
      rule(READ, CORE, 'replicationcontrollers'),
      rule(READ, ['policy'], 'poddisruptionbudgets'),
      rule(READ, ['apps'], 'statefulsets'),
      rule('update', ['policy'], 'poddisruptionbudgets/status'),
      rule('patch update', CORE, 'pods/status'),
      rule('get', ['*'], '*/scale'),
      EVENTS_WRITE,
    ],
  ],
  ['endpoint-controller', [rule(READ, CORE, 'services pods'), rule('create delete get list update', CORE, 'endpoints'), rule('create', CORE, 'endpoints/restricted'), EVENTS_WRITE]],
  [
    'endpointslice-controller',
    [
      rule(READ, CORE, 'services pods nodes'),
      // the owner references it sets need finalizers access
      rule('update', CORE, 'services/finalizers'),
      rule('create delete get list update', ['discovery.k8s.io'], 'endpointslices'),
      EVENTS_WRITE,
    ],
  ],
  [
    'endpointslicemirroring-controller',
    [
      rule(READ, CORE, 'services endpoints'),
      rule('update', CORE, 'services/finalizers'),
      rule('update', CORE, 'endpoints/finalizers'),
      rule('create delete get list update', ['discovery.k8s.io'], 'endpointslices'),
      EVENTS_WRITE,
    ],
  ],
  [
    'expand-controller',
    [rule('get list patch update watch', CORE, 'persistentvolumes'), rule('patch update', CORE, 'persistentvolumeclaims/status'), rule(READ, CORE, 'persistentvolumeclaims'), EVENTS_WRITE],
  ],
  ['ephemeral-volume-controller', [rule(READ, CORE, 'pods'), rule('update', CORE, 'pods/finalizers'), rule('create get list watch', CORE, 'persistentvolumeclaims'), EVENTS_WRITE]],
  ['generic-garbage-collector', [rule('delete get list patch update watch', ['*'], '*'), EVENTS_WRITE]],
  [
    'horizontal-pod-autoscaler',
    [
      rule(READ, ['autoscaling'], 'horizontalpodautoscalers'),
      rule('update', ['autoscaling'], 'horizontalpodautoscalers/status'),
      rule('get update', ['*'], '*/scale'),
      rule('list', CORE, 'pods'),
      rule('list', ['metrics.k8s.io'], 'pods'),
      rule('get list', ['custom.metrics.k8s.io'], '*'),
      rule('get list', ['external.metrics.k8s.io'], '*'),
      EVENTS_WRITE,
    ],
  ],
  [
    'job-controller',
    [
      rule('get list patch update watch', ['batch'], 'jobs'),
      rule('update', ['batch'], 'jobs/status'),
      rule('update', ['batch'], 'jobs/finalizers'),
      rule('create delete list patch watch', CORE, 'pods'),
      EVENTS_WRITE,
    ],
  ],
  ['namespace-controller', [rule('delete get list watch', CORE, 'namespaces'), rule('update', CORE, 'namespaces/finalize namespaces/status'), rule('delete deletecollection get list', ['*'], '*')]],
  [
    'node-controller',
    [
      rule('delete get list patch update', CORE, 'nodes'),
      rule('patch update', CORE, 'nodes/status'),
      // evicting the pods of unreachable nodes
      rule('patch update', CORE, 'pods/status'),
      rule('delete get list', CORE, 'pods'),
      EVENTS_WRITE,
    ],
  ],
  [
    'persistent-volume-binder',
    [
      rule('create delete get list update watch', CORE, 'persistentvolumes'),
      rule('update', CORE, 'persistentvolumes/status'),
      rule('get list update watch', CORE, 'persistentvolumeclaims'),
      rule('update', CORE, 'persistentvolumeclaims/status'),
      rule('create delete get list watch', CORE, 'pods'),
      rule(READ, ['storage.k8s.io'], 'storageclasses'),
      rule('list watch', CORE, 'nodes'),
      EVENTS_WRITE,
      rule('watch', CORE, 'events'),
    ],
  ],
  ['pod-garbage-collector', [rule('delete list watch', CORE, 'pods'), rule('get list', CORE, 'nodes'), rule('patch', CORE, 'pods/status')]],
  [
    'replicaset-controller',
    [
      rule('get list update watch', ['apps', 'extensions'], 'replicasets'),
      rule('update', ['apps', 'extensions'], 'replicasets/status'),
      rule('update', ['apps', 'extensions'], 'replicasets/finalizers'),
      rule('create delete list patch watch', CORE, 'pods'),
      EVENTS_WRITE,
    ],
  ],
  [
    'replication-controller',
    [
      rule('get list update watch', CORE, 'replicationcontrollers'),
      rule('update', CORE, 'replicationcontrollers/status'),
      rule('update', CORE, 'replicationcontrollers/finalizers'),
      rule('create delete list patch watch', CORE, 'pods'),
      EVENTS_WRITE,
    ],
  ],
  ['resourcequota-controller', [rule('list watch', ['*'], '*'), rule('update', CORE, 'resourcequotas/status'), EVENTS_WRITE]],
  ['route-controller', [rule('list watch', CORE, 'nodes'), rule('patch', CORE, 'nodes/status'), EVENTS_WRITE]],
  ['service-account-controller', [rule('create', CORE, 'serviceaccounts'), EVENTS_WRITE]],
  ['service-controller', [rule(READ, CORE, 'services'), rule('patch update', CORE, 'services/status'), rule('list watch', CORE, 'nodes'), EVENTS_WRITE]],
  [
    'statefulset-controller',
    [
      rule('list watch', CORE, 'pods'),
      rule(READ, ['apps'], 'statefulsets'),
      rule('update', ['apps'], 'statefulsets/status'),
      rule('update', ['apps'], 'statefulsets/finalizers'),
      rule('create delete get patch update', CORE, 'pods'),
      rule(RW_FULL, ['apps'], 'controllerrevisions'),
      rule('create get list watch', CORE, 'persistentvolumeclaims'),
      rule('delete update', CORE, 'persistentvolumeclaims'),
      rule('update', CORE, 'pods/finalizers'),
      EVENTS_WRITE,
    ],
  ],
  ['ttl-controller', [rule('list patch update watch', CORE, 'nodes'), EVENTS_WRITE]],
  [
    'certificate-controller',
    [
      rule('delete get list watch', ['certificates.k8s.io'], 'certificatesigningrequests'),
      rule('update', ['certificates.k8s.io'], 'certificatesigningrequests/status certificatesigningrequests/approval'),
      rule('approve', ['certificates.k8s.io'], 'signers', 'kubernetes.io/kube-apiserver-client-kubelet'),
      rule('sign', ['certificates.k8s.io'], 'signers', 'kubernetes.io/legacy-unknown kubernetes.io/kube-apiserver-client kubernetes.io/kube-apiserver-client-kubelet kubernetes.io/kubelet-serving'),
      rule('create', ['authorization.k8s.io'], 'subjectaccessreviews'),
      EVENTS_WRITE,
    ],
  ],
  ['pvc-protection-controller', [rule('get list update watch', CORE, 'persistentvolumeclaims'), rule(READ, CORE, 'pods'), EVENTS_WRITE]],
  ['pv-protection-controller', [rule('get list update watch', CORE, 'persistentvolumes'), EVENTS_WRITE]],
  ['ttl-after-finished-controller', [rule('delete get list watch', ['batch'], 'jobs'), EVENTS_WRITE]],
  ['root-ca-cert-publisher', [rule('create update', CORE, 'configmaps'), EVENTS_WRITE]],
  [
    'validatingadmissionpolicy-status-controller',
    [rule(READ, ['admissionregistration.k8s.io'], 'validatingadmissionpolicies'), rule('get patch update', ['admissionregistration.k8s.io'], 'validatingadmissionpolicies/status'), EVENTS_WRITE],
  ],
  ['legacy-service-account-token-cleaner', [rule('get', CORE, 'configmaps', 'kube-apiserver-legacy-service-account-token-tracking'), rule('delete patch', CORE, 'secrets')]],
];

export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

export function controllerRoles(): Obj[] {
  return CONTROLLERS.map(([name, rules]) => clusterRole(CONTROLLER_ROLE_PREFIX + name, rules));
}

export function controllerRoleBindings(): Obj[] {
  return CONTROLLERS.map(([name]) => clusterRoleBinding(CONTROLLER_ROLE_PREFIX + name, CONTROLLER_ROLE_PREFIX + name, [serviceAccount('kube-system', name)]));
}
