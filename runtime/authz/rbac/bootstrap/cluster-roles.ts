// The ClusterRoles and ClusterRoleBindings kube-apiserver 1.31 creates for
// people and components (upstream's bootstrappolicy ClusterRoles() and
// ClusterRoleBindings()); system:node's rules are the Node authorizer's
// (runtime/authz/node/node-rules.ts) and its binding has no subjects, as
// upstream's since nodes are authorized by the Node mode. admin, edit and view carry their
// aggregationRules and, already filled in, the rules the aggregation
// controller gathers for them from the system:aggregate-to-* roles.

import { GROUP_MASTERS } from '../../../api/k8s-names.ts';
import type { Obj } from '../../../storage/interface.ts';
import type { PolicyRule } from '../rules.ts';
import { nodeRules } from '../../node/node-rules.ts';
import { CORE, EVENTS_WRITE, READ, READ_WRITE, WRITE, clusterRole, clusterRoleBinding, group, rule, serviceAccount, urls, user } from './build.ts';

const AGGREGATE_TO_ADMIN = 'rbac.authorization.k8s.io/aggregate-to-admin';
const AGGREGATE_TO_EDIT = 'rbac.authorization.k8s.io/aggregate-to-edit';
const AGGREGATE_TO_VIEW = 'rbac.authorization.k8s.io/aggregate-to-view';

const aggregateToView: PolicyRule[] = [
  rule(READ, CORE, 'pods replicationcontrollers replicationcontrollers/scale serviceaccounts services services/status endpoints persistentvolumeclaims persistentvolumeclaims/status configmaps'),
  rule(READ, CORE, 'limitranges resourcequotas bindings events pods/status resourcequotas/status namespaces/status replicationcontrollers/status pods/log'),
  // the namespaces a user may see are those they are bound in; read access to them is harmless
  rule(READ, CORE, 'namespaces'),
  rule(READ, ['discovery.k8s.io'], 'endpointslices'),
  rule(
    READ,
    ['apps'],
    'controllerrevisions statefulsets statefulsets/scale statefulsets/status daemonsets daemonsets/status deployments deployments/scale deployments/status replicasets replicasets/scale replicasets/status',
  ),
  rule(READ, ['autoscaling'], 'horizontalpodautoscalers horizontalpodautoscalers/status'),
  rule(READ, ['batch'], 'jobs cronjobs cronjobs/status jobs/status'),
  rule(
    READ,
    ['extensions'],
    'daemonsets daemonsets/status deployments deployments/scale deployments/status ingresses ingresses/status replicasets replicasets/scale replicasets/status replicationcontrollers/scale networkpolicies',
  ),
  rule(READ, ['policy'], 'poddisruptionbudgets poddisruptionbudgets/status'),
  rule(READ, ['networking.k8s.io'], 'ingresses ingresses/status networkpolicies'),
];

const aggregateToEdit: PolicyRule[] = [
  // secrets and the pod and service proxies and streams: edit may read what it may write
  rule(READ, CORE, 'pods/attach pods/proxy pods/exec pods/portforward secrets services/proxy'),
  rule('impersonate', CORE, 'serviceaccounts'),
  rule(WRITE, CORE, 'pods pods/attach pods/proxy pods/exec pods/portforward'),
  rule('create', CORE, 'pods/eviction'),
  rule(WRITE, CORE, 'replicationcontrollers replicationcontrollers/scale serviceaccounts services services/proxy persistentvolumeclaims configmaps secrets events'),
  rule('create', CORE, 'serviceaccounts/token'),
  rule(WRITE, ['apps'], 'statefulsets statefulsets/scale daemonsets deployments deployments/scale deployments/rollback replicasets replicasets/scale'),
  rule(WRITE, ['autoscaling'], 'horizontalpodautoscalers'),
  rule(WRITE, ['batch'], 'jobs cronjobs'),
  rule(WRITE, ['extensions'], 'daemonsets deployments deployments/scale deployments/rollback ingresses replicasets replicasets/scale replicationcontrollers/scale networkpolicies'),
  rule(WRITE, ['policy'], 'poddisruptionbudgets'),
  rule(WRITE, ['networking.k8s.io'], 'ingresses networkpolicies'),
  rule(READ_WRITE, ['coordination.k8s.io'], 'leases'),
];

const aggregateToAdmin: PolicyRule[] = [rule('create', ['authorization.k8s.io'], 'localsubjectaccessreviews'), rule(READ_WRITE, ['rbac.authorization.k8s.io'], 'roles rolebindings')];

/** What the aggregation controller gives a role: the rules of the roles it selects, in name order, each rule once (by its JSON text). */
export function aggregated(sources: Obj[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const src of [...sources].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0))) {
    for (const r of src.rules as PolicyRule[]) {
      const text = JSON.stringify(r);
      if (seen.has(text)) continue;
      seen.add(text);
      out.push(r);
    }
  }
  return out;
}

function aggregationRoles(): Obj[] {
  const toView = clusterRole('system:aggregate-to-view', aggregateToView, { labels: { [AGGREGATE_TO_VIEW]: 'true' } });
  const toEdit = clusterRole('system:aggregate-to-edit', aggregateToEdit, { labels: { [AGGREGATE_TO_EDIT]: 'true' } });
  const toAdmin = clusterRole('system:aggregate-to-admin', aggregateToAdmin, { labels: { [AGGREGATE_TO_ADMIN]: 'true' } });
  const view = clusterRole('view', aggregated([toView]), { labels: { [AGGREGATE_TO_EDIT]: 'true' }, aggregateFrom: AGGREGATE_TO_VIEW });
  const edit = clusterRole('edit', aggregated([toEdit, view]), { labels: { [AGGREGATE_TO_ADMIN]: 'true' }, aggregateFrom: AGGREGATE_TO_EDIT });
  const admin = clusterRole('admin', aggregated([toAdmin, edit]), { aggregateFrom: AGGREGATE_TO_ADMIN });
  return [admin, edit, view, toAdmin, toEdit, toView];
}

const signerApprover = (name: string, signer: string) => clusterRole(name, [rule('approve', ['certificates.k8s.io'], 'signers', signer)]);

export function bootstrapClusterRoles(): Obj[] {
  return [
    clusterRole('cluster-admin', [rule('*', ['*'], '*'), urls('*', '*')]),
    ...aggregationRoles(),
    clusterRole('system:discovery', [urls('get', '/livez /readyz /healthz /version /version/ /openapi /openapi/* /api /api/* /apis /apis/*')]),
    clusterRole('system:monitoring', [urls('get', '/livez /readyz /healthz /livez/* /readyz/* /healthz/* /metrics /metrics/slis')]),
    clusterRole('system:basic-user', [rule('create', ['authorization.k8s.io'], 'selfsubjectaccessreviews selfsubjectrulesreviews'), rule('create', ['authentication.k8s.io'], 'selfsubjectreviews')]),
    clusterRole('system:public-info-viewer', [urls('get', '/livez /readyz /healthz /version /version/')]),
    clusterRole('system:heapster', [rule(READ, CORE, 'events pods nodes namespaces'), rule(READ, ['extensions'], 'deployments')]),
    clusterRole('system:node-problem-detector', [rule('get', CORE, 'nodes'), rule('patch', CORE, 'nodes/status'), EVENTS_WRITE]),
    clusterRole('system:kubelet-api-admin', [rule(READ, CORE, 'nodes'), rule('proxy', CORE, 'nodes'), rule('*', CORE, 'nodes/proxy nodes/metrics nodes/stats nodes/log')]),
    clusterRole('system:node-bootstrapper', [rule('create get list watch', ['certificates.k8s.io'], 'certificatesigningrequests')]),
    clusterRole('system:auth-delegator', [rule('create', ['authentication.k8s.io'], 'tokenreviews'), rule('create', ['authorization.k8s.io'], 'subjectaccessreviews')]),
    clusterRole('system:kube-aggregator', [rule(READ, CORE, 'services endpoints')]),
    clusterRole('system:kube-controller-manager', [
      EVENTS_WRITE,
      // leader election
      rule('create', ['coordination.k8s.io'], 'leases'),
      rule('get update', ['coordination.k8s.io'], 'leases', 'kube-controller-manager'),
      // fetching its service-account credentials
      rule('create', CORE, 'secrets serviceaccounts'),
      rule('delete', CORE, 'secrets'),
      rule('get', CORE, 'namespaces secrets serviceaccounts configmaps'),
      rule('update', CORE, 'secrets serviceaccounts'),
      // delegated authentication and authorization of its own endpoints
      rule('create', ['authentication.k8s.io'], 'tokenreviews'),
      rule('create', ['authorization.k8s.io'], 'subjectaccessreviews'),
      // the informers of every controller
      rule('list watch', ['*'], '*'),
      rule('create', CORE, 'serviceaccounts/token'),
    ]),
    clusterRole('system:kube-dns', [rule('list watch', CORE, 'endpoints services')]),
    clusterRole('system:persistent-volume-provisioner', [
      rule('create delete get list watch', CORE, 'persistentvolumes'),
      rule('get list update watch', CORE, 'persistentvolumeclaims'),
      rule(READ, ['storage.k8s.io'], 'storageclasses'),
      rule('watch', CORE, 'events'),
      EVENTS_WRITE,
    ]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [rule('create', ['certificates.k8s.io'], 'certificatesigningrequests/nodeclient')]),
    clusterRole('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [rule('create', ['certificates.k8s.io'], 'certificatesigningrequests/selfnodeclient')]),
    signerApprover('system:certificates.k8s.io:kube-apiserver-client-approver', 'kubernetes.io/kube-apiserver-client'),
    signerApprover('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', 'kubernetes.io/kube-apiserver-client-kubelet'),
    signerApprover('system:certificates.k8s.io:kubelet-serving-approver', 'kubernetes.io/kubelet-serving'),
    signerApprover('system:certificates.k8s.io:legacy-unknown-approver', 'kubernetes.io/legacy-unknown'),
    clusterRole('system:kube-scheduler', [
      EVENTS_WRITE,
      rule('create', ['coordination.k8s.io'], 'leases'),
      rule('get update', ['coordination.k8s.io'], 'leases', 'kube-scheduler'),
      rule(READ, CORE, 'nodes'),
      rule('delete get list watch', CORE, 'pods'),
      rule('create', CORE, 'pods/binding bindings'),
      rule('patch update', CORE, 'pods/status'),
      rule(READ, CORE, 'replicationcontrollers services'),
      rule(READ, ['apps', 'extensions'], 'replicasets'),
      rule(READ, ['apps'], 'statefulsets'),
      rule(READ, ['policy'], 'poddisruptionbudgets'),
      rule(READ, CORE, 'persistentvolumeclaims persistentvolumes'),
      rule('create', ['authentication.k8s.io'], 'tokenreviews'),
      rule('create', ['authorization.k8s.io'], 'subjectaccessreviews'),
      rule(READ, ['storage.k8s.io'], 'csinodes'),
      rule(READ, CORE, 'namespaces'),
      rule(READ, ['storage.k8s.io'], 'csidrivers'),
      rule(READ, ['storage.k8s.io'], 'csistoragecapacities'),
    ]),
    clusterRole('system:volume-scheduler', [
      rule('get list patch update watch', CORE, 'persistentvolumes'),
      rule(READ, ['storage.k8s.io'], 'storageclasses'),
      rule('get list patch update watch', CORE, 'persistentvolumeclaims'),
    ]),
    clusterRole('system:node', nodeRules()),
    clusterRole('system:node-proxier', [rule('list watch', CORE, 'services endpoints'), rule(READ, CORE, 'nodes'), EVENTS_WRITE, rule('list watch', ['discovery.k8s.io'], 'endpointslices')]),
    clusterRole('system:service-account-issuer-discovery', [urls('get', '/.well-known/openid-configuration /openid/v1/jwks')]),
  ];
}

export function bootstrapClusterRoleBindings(): Obj[] {
  return [
    clusterRoleBinding('cluster-admin', 'cluster-admin', [group(GROUP_MASTERS)]),
    clusterRoleBinding('system:monitoring', 'system:monitoring', [group('system:monitoring')]),
    clusterRoleBinding('system:discovery', 'system:discovery', [group('system:authenticated')]),
    clusterRoleBinding('system:basic-user', 'system:basic-user', [group('system:authenticated')]),
    clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
    clusterRoleBinding('system:node', 'system:node', []),
    clusterRoleBinding('system:node-proxier', 'system:node-proxier', [user('system:kube-proxy')]),
    clusterRoleBinding('system:kube-controller-manager', 'system:kube-controller-manager', [user('system:kube-controller-manager')]),
    clusterRoleBinding('system:kube-dns', 'system:kube-dns', [serviceAccount('kube-system', 'kube-dns')]),
    clusterRoleBinding('system:kube-scheduler', 'system:kube-scheduler', [user('system:kube-scheduler')]),
    clusterRoleBinding('system:volume-scheduler', 'system:volume-scheduler', [user('system:kube-scheduler')]),
    clusterRoleBinding('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
  ];
}
