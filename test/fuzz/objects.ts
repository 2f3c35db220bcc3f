// One valid object per served kind, written by hand for this harness (the
// server's validation decides what "valid" means: the fuzz test checks that
// each of these is accepted with 201 before mutating them). Kinds whose
// required fields are only metadata get a few optional fields so that the
// mutations have something to bite on.

import type { FuzzKind } from './kinds.ts';
import { makeCSR } from '../support/csr.ts';

type Obj = Record<string, any>;

const podTemplate = (app: string): Obj => ({
  metadata: { labels: { app } },
  spec: {
    containers: [
      {
        name: 'main',
        image: 'registry.example/app:1.0',
        ports: [{ containerPort: 8080, protocol: 'TCP' }],
        env: [{ name: 'MODE', value: 'fuzz' }],
        resources: { limits: { cpu: '100m', memory: '64Mi' } },
      },
    ],
    restartPolicy: 'Always',
  },
});

const selector = (app: string): Obj => ({ matchLabels: { app } });

/** One signed certificate request shared by every CertificateSigningRequest the harness makes. */
const CSR_REQUEST = makeCSR({ commonName: 'fuzz', organizations: ['fuzzers'] }).request;

/** The parts of a valid object after apiVersion, kind and metadata, by `group/Kind`. */
const BODIES: Record<string, (name: string, ns: string) => Obj> = {
  // binds the pod of the same name, which the caller creates first
  '/Binding': () => ({ target: { apiVersion: 'v1', kind: 'Node', name: 'fuzz-node' } }),
  '/ConfigMap': () => ({ data: { key: 'value', 'file.txt': 'line 1\nline 2\n' }, binaryData: { bin: 'AAEC' } }),
  '/Secret': () => ({ type: 'Opaque', data: { password: 'c2VjcmV0' }, stringData: { user: 'admin' } }),
  '/Endpoints': () => ({ subsets: [{ addresses: [{ ip: '10.1.2.3' }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }] }),
  '/Event': (name, ns) => ({
    involvedObject: { kind: 'ConfigMap', namespace: ns, name: 'x', apiVersion: 'v1' },
    reason: 'Fuzzed',
    message: 'an event',
    type: 'Normal',
    source: { component: 'fuzz' },
    firstTimestamp: '2024-01-01T00:00:00Z',
    lastTimestamp: '2024-01-01T00:00:00Z',
    count: 1,
  }),
  '/LimitRange': () => ({ spec: { limits: [{ type: 'Container', max: { cpu: '2' }, min: { cpu: '10m' } }] } }),
  '/Namespace': () => ({ spec: { finalizers: ['kubernetes'] } }),
  '/Node': () => ({ spec: { podCIDR: '10.244.0.0/24', unschedulable: false, taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] } }),
  '/PersistentVolumeClaim': () => ({ spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
  '/PersistentVolume': () => ({ spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/tmp/pv' }, persistentVolumeReclaimPolicy: 'Retain' } }),
  '/Pod': () => podTemplate('fuzz-pod'),
  '/PodTemplate': () => ({ template: podTemplate('fuzz-podtemplate') }),
  '/ReplicationController': () => ({ spec: { replicas: 1, selector: { app: 'fuzz-rc' }, template: podTemplate('fuzz-rc') } }),
  '/ResourceQuota': () => ({ spec: { hard: { pods: '10', 'requests.cpu': '4' } } }),
  '/ServiceAccount': () => ({ automountServiceAccountToken: false, secrets: [{ name: 'token' }] }),
  '/Service': () => ({ spec: { selector: { app: 'fuzz' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }], type: 'ClusterIP' } }),
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': () => ({ webhooks: [] }),
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': () => ({ webhooks: [] }),
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': () => ({
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['deployments'] }] },
      validations: [{ expression: 'object.spec.replicas <= 5' }],
    },
  }),
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': () => ({ spec: { policyName: 'fz-policy', validationActions: ['Deny'] } }),
  'apiextensions.k8s.io/CustomResourceDefinition': (name) => {
    // a CRD's name must be <plural>.<group>: the plural is the fuzz name with dashes removed
    const plural = name.replace(/[^a-z0-9]/g, '') || 'things';
    return {
      metadata: { name: `${plural}.fuzz.example.com` },
      spec: {
        group: 'fuzz.example.com',
        names: { plural, singular: `${plural}s`.slice(0, 40), kind: 'Fuzzed', listKind: 'FuzzedList' },
        scope: 'Namespaced',
        versions: [
          { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } },
        ],
      },
    };
  },
  'apiregistration.k8s.io/APIService': () => ({
    metadata: { name: 'v1.fuzz.example.com' },
    spec: { group: 'fuzz.example.com', version: 'v1', groupPriorityMinimum: 100, versionPriority: 10, service: { namespace: 'fuzz', name: 'api', port: 443 }, insecureSkipTLSVerify: true },
  }),
  'apps/ControllerRevision': () => ({ revision: 1, data: { spec: { template: { metadata: {} } } } }),
  'apps/DaemonSet': () => ({ spec: { selector: selector('fuzz-ds'), template: podTemplate('fuzz-ds') } }),
  'apps/Deployment': () => ({ spec: { replicas: 2, selector: selector('fuzz-deploy'), template: podTemplate('fuzz-deploy'), strategy: { type: 'RollingUpdate' } } }),
  'apps/ReplicaSet': () => ({ spec: { replicas: 1, selector: selector('fuzz-rs'), template: podTemplate('fuzz-rs') } }),
  'apps/StatefulSet': () => ({ spec: { replicas: 1, serviceName: 'svc', selector: selector('fuzz-sts'), template: podTemplate('fuzz-sts') } }),
  'authentication.k8s.io/TokenReview': () => ({ spec: { token: 'not-a-token' } }),
  'authentication.k8s.io/SelfSubjectReview': () => ({}),
  'authorization.k8s.io/LocalSubjectAccessReview': (_name, ns) => ({ spec: { user: 'alice', resourceAttributes: { namespace: ns, verb: 'get', resource: 'pods' } } }),
  'authorization.k8s.io/SelfSubjectAccessReview': () => ({ spec: { resourceAttributes: { namespace: 'fuzz', verb: 'list', resource: 'configmaps' } } }),
  'authorization.k8s.io/SelfSubjectRulesReview': () => ({ spec: { namespace: 'fuzz' } }),
  'authorization.k8s.io/SubjectAccessReview': () => ({ spec: { user: 'bob', groups: ['g'], nonResourceAttributes: { path: '/healthz', verb: 'get' } } }),
  'autoscaling/HorizontalPodAutoscaler': () => ({
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 1,
      maxReplicas: 3,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }],
    },
  }),
  'batch/CronJob': () => ({
    spec: {
      schedule: '*/5 * * * *',
      concurrencyPolicy: 'Forbid',
      jobTemplate: { spec: { template: { ...podTemplate('fuzz-cron'), spec: { ...podTemplate('fuzz-cron').spec, restartPolicy: 'OnFailure' } } } },
    },
  }),
  'batch/Job': () => ({ spec: { backoffLimit: 2, template: { ...podTemplate('fuzz-job'), spec: { ...podTemplate('fuzz-job').spec, restartPolicy: 'Never' } } } }),
  'coordination.k8s.io/Lease': () => ({ spec: { holderIdentity: 'fuzz', leaseDurationSeconds: 15 } }),
  'discovery.k8s.io/EndpointSlice': () => ({ addressType: 'IPv4', endpoints: [{ addresses: ['10.1.2.3'], conditions: { ready: true } }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }),
  'events.k8s.io/Event': (_name, ns) => ({
    eventTime: '2024-01-01T00:00:00.000000Z',
    reportingController: 'example.com/fuzz',
    reportingInstance: 'fuzz-1',
    action: 'Fuzz',
    reason: 'Fuzzed',
    type: 'Normal',
    note: 'a note',
    regarding: { kind: 'ConfigMap', namespace: ns, name: 'x', apiVersion: 'v1' },
  }),
  'flowcontrol.apiserver.k8s.io/FlowSchema': () => ({
    spec: {
      priorityLevelConfiguration: { name: 'global-default' },
      matchingPrecedence: 5000,
      rules: [{ subjects: [{ kind: 'Group', group: { name: 'fuzzers' } }], resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['*'] }] }],
    },
  }),
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration': () => ({ spec: { type: 'Limited', limited: { nominalConcurrencyShares: 5, limitResponse: { type: 'Reject' } } } }),
  'networking.k8s.io/IngressClass': () => ({ spec: { controller: 'example.com/ingress' } }),
  'networking.k8s.io/Ingress': () => ({
    spec: { rules: [{ host: 'fuzz.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] },
  }),
  'networking.k8s.io/NetworkPolicy': () => ({ spec: { podSelector: { matchLabels: { app: 'web' } }, policyTypes: ['Ingress'], ingress: [{ from: [{ podSelector: {} }], ports: [{ port: 80 }] }] } }),
  'networking.k8s.io/IPAddress': () => ({ spec: { parentRef: { resource: 'services', namespace: 'fuzz', name: 'web' } } }),
  'networking.k8s.io/ServiceCIDR': () => ({ spec: { cidrs: ['10.96.0.0/28'] } }),
  'node.k8s.io/RuntimeClass': () => ({ handler: 'runc' }),
  'policy/PodDisruptionBudget': () => ({ spec: { minAvailable: 1, selector: selector('web') } }),
  'rbac.authorization.k8s.io/ClusterRole': () => ({ rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] }),
  'rbac.authorization.k8s.io/Role': () => ({ rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }] }),
  'rbac.authorization.k8s.io/ClusterRoleBinding': () => ({
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
  }),
  'rbac.authorization.k8s.io/RoleBinding': () => ({
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'edit' },
    subjects: [{ kind: 'ServiceAccount', name: 'default', namespace: 'fuzz' }],
  }),
  'scheduling.k8s.io/PriorityClass': () => ({ value: 1000, globalDefault: false, description: 'fuzz' }),
  'storage.k8s.io/CSIDriver': () => ({ spec: { attachRequired: true, podInfoOnMount: false } }),
  'certificates.k8s.io/CertificateSigningRequest': () => ({
    spec: { request: CSR_REQUEST, signerName: 'example.com/fuzz-signer', usages: ['digital signature', 'client auth'], expirationSeconds: 3600 },
  }),
  'storage.k8s.io/CSINode': () => ({ spec: { drivers: [{ name: 'csi.example.com', nodeID: 'node-1' }] } }),
  'storage.k8s.io/CSIStorageCapacity': () => ({ storageClassName: 'standard', capacity: '10Gi' }),
  'storage.k8s.io/StorageClass': () => ({ provisioner: 'example.com/provisioner', reclaimPolicy: 'Delete', volumeBindingMode: 'Immediate' }),
  'storage.k8s.io/VolumeAttachment': () => ({ spec: { attacher: 'csi.example.com', nodeName: 'node-1', source: { persistentVolumeName: 'pv-1' } } }),
};

/**
 * A valid object of kind k named `name` (in namespace ns when namespaced),
 * labelled fuzz-owned=yes. CRD and APIService names follow from their spec
 * and override `name`: read metadata.name back for their object path.
 */
export function validObject(k: FuzzKind, name: string, ns: string, labels: Record<string, string> = {}): Obj {
  const build = BODIES[`${k.def.group}/${k.def.kind}`];
  const body = build ? build(name, ns) : {};
  const metaOverride = body.metadata ?? {};
  delete body.metadata;
  // the access reviews' metadata must be empty, as upstream validates them (a local review's may name its namespace)
  if (k.def.group === 'authorization.k8s.io' && k.def.kind.endsWith('AccessReview')) {
    return { apiVersion: k.apiVersion, kind: k.def.kind, metadata: k.def.namespaced ? { namespace: ns } : {}, ...body };
  }
  const metadata: Obj = { name, labels: { 'fuzz-owned': 'yes', ...labels }, annotations: { 'fuzz.example.com/note': 'made by the fuzz harness' }, ...metaOverride };
  if (k.def.namespaced) metadata.namespace = ns;
  return { apiVersion: k.apiVersion, kind: k.def.kind, metadata, ...body };
}

/** Whether the harness has a hand-written body for a kind (every served kind should). */
export function hasBody(k: FuzzKind): boolean {
  return `${k.def.group}/${k.def.kind}` in BODIES || ['ComponentStatus'].includes(k.def.kind);
}
