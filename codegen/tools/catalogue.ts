// The hand-authored part of the built-in API catalogue, read only by the
// one-off import tool (import-facts.ts): which kinds each group-version serves,
// a one-line description of each kind in our own words, and how each resource
// presents itself (short names, categories, printer columns, selectable
// fields, PUT-create, name rule). Schemas, verbs and subresources are NOT here:
// the tool takes those facts from the reference swagger. The build and the
// tests never import this file; api-specs/ is the source of truth.

export interface Column {
  name: string;
  type: string;
  jsonPath: string;
  priority?: number;
  formatter?: string;
  format?: string;
}

export interface KindEntry {
  kind: string;
  description: string;
  shortNames?: string[];
  categories?: string[];
  printerColumns?: Column[];
  selectableFields?: string[];
  allowCreateOnUpdate?: boolean;
  nameRule?: 'subdomain' | 'label' | 'path-segment';
  virtual?: boolean;
}

export interface GroupVersionEntry {
  group: string;
  version: string;
  kinds: KindEntry[];
  /** Emitted as x-specserver-group-version when the defaults are wrong. */
  settings?: Record<string, string | boolean>;
  /** Written in the upstream paths shape instead of the compact declaration. */
  upstreamShape?: boolean;
}

const age: Column = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };
const createdAt: Column = { name: 'Created At', type: 'date', jsonPath: '.metadata.creationTimestamp' };
const c = (name: string, type: string, jsonPath: string, formatter?: string, priority?: number): Column => {
  const col: Column = { name, type, jsonPath };
  if (priority) col.priority = priority;
  if (formatter) col.formatter = formatter;
  return col;
};
const wide = (name: string, type: string, jsonPath: string, formatter?: string): Column => c(name, type, jsonPath, formatter, 1);

/** Containers / Images / Selector columns shared by the workload kinds (-o wide). */
const templateColumns = (templatePath: string, selector?: 'labelSelector' | 'selectorString'): Column[] => {
  const cols = [
    wide('Containers', 'string', `${templatePath}.spec.containers[*].name`, 'joinComma'),
    wide('Images', 'string', `${templatePath}.spec.containers[*].image`, 'joinComma'),
  ];
  if (selector) cols.push(wide('Selector', 'string', '.spec.selector', selector));
  return cols;
};

const eventColumns: Column[] = [
  c('Last Seen', 'date', '.lastTimestamp', 'eventLastSeen'),
  c('Type', 'string', '.type'),
  c('Reason', 'string', '.reason'),
  c('Object', 'string', '.involvedObject', 'eventObject'),
  wide('Subobject', 'string', '.involvedObject.fieldPath'),
  wide('Source', 'string', '.source', 'eventSource'),
  c('Message', 'string', '.message', 'trimmed'),
  wide('First Seen', 'date', '.firstTimestamp', 'eventFirstSeen'),
  wide('Count', 'string', '.count', 'eventCount'),
];

const roleBindingColumns: Column[] = [
  c('Role', 'string', '.roleRef', 'roleRef'),
  age,
  wide('Users', 'string', '.subjects', 'subjectsUsers'),
  wide('Groups', 'string', '.subjects', 'subjectsGroups'),
  wide('ServiceAccounts', 'string', '.subjects', 'subjectsServiceAccounts'),
];

const flowSchema: KindEntry = {
  kind: 'FlowSchema',
  description: 'Classifies incoming requests into flows and assigns them to a priority level.',
  printerColumns: [
    c('PriorityLevel', 'string', '.spec.priorityLevelConfiguration.name'),
    c('MatchingPrecedence', 'string', '.spec.matchingPrecedence', 'intOrZero'),
    c('DistinguisherMethod', 'string', '.spec.distinguisherMethod', 'flowDistinguisher'),
    age,
    c('MissingPL', 'string', '.status.conditions', 'flowSchemaMissingPL'),
  ],
  nameRule: 'subdomain',
};
const priorityLevel: KindEntry = {
  kind: 'PriorityLevelConfiguration',
  description: 'Declares a priority level with its share of the server\'s concurrency and its queuing.',
  printerColumns: [
    c('Type', 'string', '.spec.type'),
    c('NominalConcurrencyShares', 'string', '.spec.limited.nominalConcurrencyShares', 'orNone'),
    c('Queues', 'string', '.spec.limited.limitResponse.queuing.queues', 'orNone'),
    c('HandSize', 'string', '.spec.limited.limitResponse.queuing.handSize', 'orNone'),
    c('QueueLengthLimit', 'string', '.spec.limited.limitResponse.queuing.queueLengthLimit', 'orNone'),
    age,
  ],
};

export const catalogue: GroupVersionEntry[] = [
  {
    group: '', version: 'v1', kinds: [
      {
        kind: 'Service', description: 'A stable network endpoint that load-balances over the pods a selector picks.',
        shortNames: ['svc'], categories: ['all'], nameRule: 'label',
        selectableFields: ['spec.clusterIP', 'spec.type'],
        printerColumns: [
          c('Type', 'string', '.spec.type'),
          c('Cluster-IP', 'string', '.spec.clusterIPs[0]', 'orNone'),
          c('External-IP', 'string', '.status.loadBalancer.ingress', 'serviceExternalIP'),
          c('Port(s)', 'string', '.spec.ports', 'servicePorts'),
          age,
          wide('Selector', 'string', '.spec.selector', 'labelMap'),
        ],
      },
      {
        kind: 'Endpoints', description: 'The network addresses and ports that back a service.',
        shortNames: ['ep'], allowCreateOnUpdate: true,
        printerColumns: [c('Endpoints', 'string', '.subsets', 'endpoints'), age],
      },
      {
        kind: 'ConfigMap', description: 'Non-secret configuration data as string or binary key-value pairs.',
        shortNames: ['cm'],
        printerColumns: [c('Data', 'string', '.data', 'configMapData'), age],
      },
      {
        kind: 'Secret', description: 'Sensitive key-value data such as passwords, tokens and keys.',
        selectableFields: ['type'],
        printerColumns: [c('Type', 'string', '.type'), c('Data', 'string', '.data', 'secretData'), age],
      },
      {
        kind: 'Namespace', description: 'A scope for names that partitions namespaced objects.',
        shortNames: ['ns'], nameRule: 'label', selectableFields: ['status.phase'],
        printerColumns: [c('Status', 'string', '.status.phase'), age],
      },
      {
        kind: 'ComponentStatus', description: 'Health of a control-plane component (deprecated).',
        shortNames: ['cs'],
        printerColumns: [
          c('Status', 'string', '.conditions', 'componentStatus'),
          c('Message', 'string', '.conditions', 'componentMessage'),
          c('Error', 'string', '.conditions', 'componentError'),
        ],
      },
      {
        kind: 'PersistentVolume', description: 'A piece of cluster storage provisioned by an administrator or a storage class.',
        shortNames: ['pv'],
        printerColumns: [
          c('Capacity', 'string', '.spec.capacity.storage', 'volumeCapacity'),
          c('Access Modes', 'string', '.spec.accessModes', 'accessModes'),
          c('Reclaim Policy', 'string', '.spec.persistentVolumeReclaimPolicy'),
          c('Status', 'string', '.status.phase', 'phaseOrTerminating'),
          c('Claim', 'string', '.spec.claimRef', 'volumeClaim'),
          c('StorageClass', 'string', '.spec.storageClassName', 'storageClassOf'),
          c('VolumeAttributesClass', 'string', '.spec.volumeAttributesClassName', 'orUnset'),
          c('Reason', 'string', '.status.reason', 'orEmpty'),
          age,
          wide('VolumeMode', 'string', '.spec.volumeMode', 'volumeMode'),
        ],
      },
      {
        kind: 'Node', description: 'A machine that runs pods, as registered by its kubelet.',
        shortNames: ['no'], selectableFields: ['spec.unschedulable'],
        printerColumns: [
          c('Status', 'string', '.status.conditions', 'nodeStatus'),
          c('Roles', 'string', '.metadata.labels', 'nodeRoles'),
          age,
          c('Version', 'string', '.status.nodeInfo.kubeletVersion', 'orEmpty'),
          wide('Internal-IP', 'string', '.status.addresses', 'nodeInternalIP'),
          wide('External-IP', 'string', '.status.addresses', 'nodeExternalIP'),
          wide('OS-Image', 'string', '.status.nodeInfo.osImage', 'orUnknown'),
          wide('Kernel-Version', 'string', '.status.nodeInfo.kernelVersion', 'orUnknown'),
          wide('Container-Runtime', 'string', '.status.nodeInfo.containerRuntimeVersion', 'orUnknown'),
        ],
      },
      {
        kind: 'Pod', description: 'A group of containers scheduled together onto one node.',
        shortNames: ['po'], categories: ['all'],
        selectableFields: [
          'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName',
          'spec.hostNetwork', 'status.phase', 'status.podIP', 'status.nominatedNodeName',
        ],
        printerColumns: [
          c('Ready', 'string', '.status.containerStatuses', 'podReady'),
          c('Status', 'string', '.status.phase', 'podStatus'),
          c('Restarts', 'string', '.status.containerStatuses', 'podRestarts'),
          age,
          wide('IP', 'string', '.status.podIPs[0].ip', 'orNone'),
          wide('Node', 'string', '.spec.nodeName', 'orNone'),
          wide('Nominated Node', 'string', '.status.nominatedNodeName', 'orNone'),
          wide('Readiness Gates', 'string', '.spec.readinessGates', 'podReadinessGates'),
        ],
      },
      {
        kind: 'ServiceAccount', description: 'An identity for processes that run in pods.',
        shortNames: ['sa'],
        printerColumns: [c('Secrets', 'string', '.secrets', 'count'), age],
      },
      {
        kind: 'PersistentVolumeClaim', description: 'A request for storage that binds to a persistent volume.',
        shortNames: ['pvc'],
        printerColumns: [
          c('Status', 'string', '.status.phase', 'phaseOrTerminating'),
          c('Volume', 'string', '.spec.volumeName', 'orEmpty'),
          c('Capacity', 'string', '.status.capacity.storage', 'claimCapacity'),
          c('Access Modes', 'string', '.status.accessModes', 'claimAccessModes'),
          c('StorageClass', 'string', '.spec.storageClassName', 'storageClassOf'),
          c('VolumeAttributesClass', 'string', '.spec.volumeAttributesClassName', 'orUnset'),
          age,
          wide('VolumeMode', 'string', '.spec.volumeMode', 'volumeMode'),
        ],
      },
      {
        kind: 'LimitRange', description: 'Default, minimum and maximum resource amounts per object in a namespace.',
        shortNames: ['limits'], allowCreateOnUpdate: true,
        printerColumns: [createdAt],
      },
      {
        kind: 'ResourceQuota', description: 'Caps the total resources and object counts a namespace may use.',
        shortNames: ['quota'],
        printerColumns: [
          c('Request', 'string', '.status', 'quotaRequest'),
          c('Limit', 'string', '.status', 'quotaLimit'),
          age,
        ],
      },
      {
        kind: 'Event', description: 'A report of something that happened to an object (core form).',
        shortNames: ['ev'], allowCreateOnUpdate: true,
        selectableFields: [
          'involvedObject.kind', 'involvedObject.namespace', 'involvedObject.name', 'involvedObject.uid',
          'involvedObject.apiVersion', 'involvedObject.resourceVersion', 'involvedObject.fieldPath',
          'reason', 'reportingComponent', 'source', 'type',
        ],
        printerColumns: eventColumns,
      },
    ],
  },
  {
    group: 'discovery.k8s.io', version: 'v1', kinds: [
      {
        kind: 'EndpointSlice', description: 'A slice of the endpoints that back a service.',
        printerColumns: [
          c('AddressType', 'string', '.addressType'),
          c('Ports', 'string', '.ports', 'sliceEndpointPorts'),
          c('Endpoints', 'string', '.endpoints', 'sliceEndpoints'),
          age,
        ],
      },
    ],
  },
  {
    group: 'storage.k8s.io', version: 'v1', kinds: [
      {
        kind: 'VolumeAttachment', description: 'A request to attach a volume to a node, and its outcome.',
        printerColumns: [
          c('Attacher', 'string', '.spec.attacher'),
          c('PV', 'string', '.spec.source.persistentVolumeName', 'orEmpty'),
          c('Node', 'string', '.spec.nodeName'),
          c('Attached', 'boolean', '.status.attached', 'boolOrFalse'),
          age,
        ],
      },
      {
        kind: 'CSIDriver', description: 'Describes a CSI volume driver installed in the cluster.',
        printerColumns: [
          c('AttachRequired', 'boolean', '.spec.attachRequired', 'boolOrTrue'),
          c('PodInfoOnMount', 'boolean', '.spec.podInfoOnMount', 'boolOrFalse'),
          c('StorageCapacity', 'boolean', '.spec.storageCapacity', 'boolOrFalse'),
          c('TokenRequests', 'string', '.spec.tokenRequests', 'tokenRequestAudiences'),
          c('RequiresRepublish', 'boolean', '.spec.requiresRepublish', 'boolOrFalse'),
          c('Modes', 'string', '.spec.volumeLifecycleModes', 'joinCommaOrNone'),
          age,
        ],
      },
      {
        kind: 'CSINode', description: 'The CSI drivers installed on one node.',
        printerColumns: [c('Drivers', 'integer', '.spec.drivers', 'count'), age],
      },
      {
        kind: 'CSIStorageCapacity', description: 'Storage capacity a CSI driver reports for a topology segment and class.',
        printerColumns: [
          c('StorageClassName', 'string', '.storageClassName'),
          c('Capacity', 'string', '.capacity', 'orUnset'),
        ],
      },
      {
        kind: 'StorageClass', description: 'A class of dynamically provisioned storage.',
        shortNames: ['sc'],
        printerColumns: [
          c('Provisioner', 'string', '.provisioner'),
          c('ReclaimPolicy', 'string', '.reclaimPolicy', 'reclaimPolicy'),
          c('VolumeBindingMode', 'string', '.volumeBindingMode', 'volumeBindingMode'),
          c('AllowVolumeExpansion', 'string', '.allowVolumeExpansion', 'boolOrFalse'),
          age,
        ],
      },
    ],
  },
  {
    group: 'events.k8s.io', version: 'v1', kinds: [
      {
        kind: 'Event', description: 'A report of something that happened to an object (events.k8s.io form).',
        shortNames: ['ev'], allowCreateOnUpdate: true,
        printerColumns: [
          c('Last Seen', 'date', '.deprecatedLastTimestamp', 'eventLastSeen'),
          c('Type', 'string', '.type'),
          c('Reason', 'string', '.reason'),
          c('Object', 'string', '.regarding', 'eventObject'),
          wide('Subobject', 'string', '.regarding.fieldPath'),
          wide('Source', 'string', '.deprecatedSource', 'eventSource'),
          c('Message', 'string', '.note', 'trimmed'),
          wide('First Seen', 'date', '.deprecatedFirstTimestamp', 'eventFirstSeen'),
          wide('Count', 'string', '.deprecatedCount', 'eventCount'),
        ],
      },
    ],
  },
  {
    group: 'apiregistration.k8s.io', version: 'v1', kinds: [
      {
        kind: 'APIService', description: 'Registers a group-version served by this server or an extension server.',
        categories: ['api-extensions'],
        printerColumns: [
          c('Service', 'string', '.spec.service', 'apiServiceService'),
          c('Available', 'string', '.status.conditions', 'apiServiceAvailable'),
          age,
        ],
      },
    ],
  },
  {
    group: 'networking.k8s.io', version: 'v1beta1',
    settings: { introduced: '1.31', enabledByDefault: false },
    kinds: [
      {
        kind: 'IPAddress', description: 'Records that one IP address is allocated, and to what.',
        shortNames: ['ip'], nameRule: 'path-segment',
        printerColumns: [c('ParentRef', 'string', '.spec.parentRef', 'ipParentRef')],
      },
      {
        kind: 'ServiceCIDR', description: 'A range of IP addresses from which service cluster IPs are allocated.',
        printerColumns: [c('CIDRs', 'string', '.spec.cidrs', 'joinComma'), age],
      },
    ],
  },
  {
    group: 'networking.k8s.io', version: 'v1', kinds: [
      {
        kind: 'Ingress', description: 'HTTP routing rules from outside the cluster to services.',
        shortNames: ['ing'],
        printerColumns: [
          c('Class', 'string', '.spec.ingressClassName', 'orNone'),
          c('Hosts', 'string', '.spec.rules', 'ingressHosts'),
          c('Address', 'string', '.status.loadBalancer.ingress', 'ingressAddress'),
          c('Ports', 'string', '.spec.tls', 'ingressPorts'),
          age,
        ],
      },
      {
        kind: 'IngressClass', description: 'Names the controller that implements a class of ingresses.',
        printerColumns: [
          c('Controller', 'string', '.spec.controller'),
          c('Parameters', 'string', '.spec.parameters', 'ingressClassParameters'),
          age,
        ],
      },
      {
        kind: 'NetworkPolicy', description: 'Which traffic may reach and leave a set of pods.',
        shortNames: ['netpol'],
        printerColumns: [c('Pod-Selector', 'string', '.spec.podSelector', 'labelSelector'), age],
      },
    ],
  },
  {
    group: 'coordination.k8s.io', version: 'v1', kinds: [
      {
        kind: 'Lease', description: 'A lease held by one holder at a time, used for leader election and heartbeats.',
        allowCreateOnUpdate: true,
        printerColumns: [c('Holder', 'string', '.spec.holderIdentity', 'orEmpty'), age],
      },
    ],
  },
  {
    group: 'node.k8s.io', version: 'v1', upstreamShape: true, kinds: [
      { kind: 'RuntimeClass', description: 'A named container runtime configuration that pods can select.' },
    ],
  },
  {
    group: 'apps', version: 'v1', kinds: [
      {
        kind: 'DaemonSet', description: 'Runs one copy of a pod on each eligible node.',
        shortNames: ['ds'], categories: ['all'],
        printerColumns: [
          c('Desired', 'integer', '.status.desiredNumberScheduled', 'intOrZero'),
          c('Current', 'integer', '.status.currentNumberScheduled', 'intOrZero'),
          c('Ready', 'integer', '.status.numberReady', 'intOrZero'),
          c('Up-to-date', 'integer', '.status.updatedNumberScheduled', 'intOrZero'),
          c('Available', 'integer', '.status.numberAvailable', 'intOrZero'),
          c('Node Selector', 'string', '.spec.template.spec.nodeSelector', 'labelMap'),
          age,
          ...templateColumns('.spec.template', 'labelSelector'),
        ],
      },
      {
        kind: 'Deployment', description: 'Declarative rollouts of a replicated, stateless pod template.',
        shortNames: ['deploy'], categories: ['all'],
        printerColumns: [
          c('Ready', 'string', '.status.readyReplicas', 'readyOfDesired'),
          c('Up-to-date', 'string', '.status.updatedReplicas', 'intOrZero'),
          c('Available', 'string', '.status.availableReplicas', 'intOrZero'),
          age,
          ...templateColumns('.spec.template', 'selectorString'),
        ],
      },
      {
        kind: 'ReplicaSet', description: 'Keeps a stable number of identical pods running.',
        shortNames: ['rs'], categories: ['all'], selectableFields: ['status.replicas'],
        printerColumns: [
          c('Desired', 'integer', '.spec.replicas', 'intOrZero'),
          c('Current', 'integer', '.status.replicas', 'intOrZero'),
          c('Ready', 'integer', '.status.readyReplicas', 'intOrZero'),
          age,
          ...templateColumns('.spec.template', 'labelSelector'),
        ],
      },
      {
        kind: 'StatefulSet', description: 'Runs pods with stable identities and stable storage.',
        shortNames: ['sts'], categories: ['all'],
        printerColumns: [
          c('Ready', 'string', '.status.readyReplicas', 'readyOfDesired'),
          age,
          ...templateColumns('.spec.template'),
        ],
      },
      {
        kind: 'ControllerRevision', description: 'An immutable snapshot of a controller\'s state, kept for rollbacks.',
        printerColumns: [
          c('Controller', 'string', '.metadata.ownerReferences', 'controllerOwner'),
          c('Revision', 'string', '.revision'),
          age,
        ],
      },
    ],
  },
  {
    group: 'rbac.authorization.k8s.io', version: 'v1', kinds: [
      { kind: 'Role', description: 'A namespaced set of permissions.', allowCreateOnUpdate: true, nameRule: 'path-segment', printerColumns: [createdAt] },
      { kind: 'ClusterRole', description: 'A cluster-wide set of permissions.', allowCreateOnUpdate: true, nameRule: 'path-segment', printerColumns: [createdAt] },
      { kind: 'RoleBinding', description: 'Grants a role\'s permissions to subjects within a namespace.', allowCreateOnUpdate: true, nameRule: 'path-segment', printerColumns: roleBindingColumns },
      { kind: 'ClusterRoleBinding', description: 'Grants a cluster role\'s permissions to subjects cluster-wide.', allowCreateOnUpdate: true, nameRule: 'path-segment', printerColumns: roleBindingColumns },
    ],
  },
  {
    group: 'authentication.k8s.io', version: 'v1', kinds: [
      { kind: 'TokenReview', description: 'Asks the server to authenticate a bearer token.', virtual: true },
      { kind: 'SelfSubjectReview', description: 'Asks the server who the caller is authenticated as.', virtual: true },
    ],
  },
  {
    group: 'authorization.k8s.io', version: 'v1', kinds: [
      { kind: 'SubjectAccessReview', description: 'Asks whether a given user may perform an action.', virtual: true },
      { kind: 'SelfSubjectAccessReview', description: 'Asks whether the caller may perform an action.', virtual: true },
      { kind: 'LocalSubjectAccessReview', description: 'Asks whether a user may perform an action in one namespace.', virtual: true },
      { kind: 'SelfSubjectRulesReview', description: 'Lists the actions the caller may perform in a namespace.', virtual: true },
    ],
  },
  {
    group: 'apiextensions.k8s.io', version: 'v1', kinds: [
      {
        kind: 'CustomResourceDefinition', description: 'Adds a new resource type, with its schema, to the API.',
        shortNames: ['crd', 'crds'], categories: ['api-extensions'],
        printerColumns: [createdAt],
      },
    ],
  },
  {
    group: 'admissionregistration.k8s.io', version: 'v1', kinds: [
      {
        kind: 'ValidatingWebhookConfiguration', description: 'Webhooks that may reject requests during admission.',
        categories: ['api-extensions'],
        printerColumns: [c('Webhooks', 'integer', '.webhooks', 'count'), age],
      },
      {
        kind: 'MutatingWebhookConfiguration', description: 'Webhooks that may change or reject requests during admission.',
        categories: ['api-extensions'],
        printerColumns: [c('Webhooks', 'integer', '.webhooks', 'count'), age],
      },
      {
        kind: 'ValidatingAdmissionPolicy', description: 'CEL rules evaluated in-process to admit or reject requests.',
        categories: ['api-extensions'],
        printerColumns: [
          c('Validations', 'integer', '.spec.validations', 'count'),
          c('ParamKind', 'string', '.spec.paramKind', 'paramKind'),
          age,
        ],
      },
      {
        kind: 'ValidatingAdmissionPolicyBinding', description: 'Applies a validating admission policy to resources, with parameters.',
        categories: ['api-extensions'],
        printerColumns: [
          c('PolicyName', 'string', '.spec.policyName'),
          c('ParamRef', 'string', '.spec.paramRef', 'paramRef'),
          age,
        ],
      },
    ],
  },
  {
    group: 'flowcontrol.apiserver.k8s.io', version: 'v1', kinds: [flowSchema, priorityLevel],
  },
  {
    group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3',
    settings: { introduced: '1.26', enabledByDefault: true, deprecatedIn: '1.29', removedIn: '1.32' },
    kinds: [flowSchema, priorityLevel],
  },
  {
    group: 'batch', version: 'v1', kinds: [
      {
        kind: 'Job', description: 'Runs pods until a given number of them complete successfully.',
        categories: ['all'], selectableFields: ['status.successful'],
        printerColumns: [
          c('Status', 'string', '.status.conditions', 'jobStatus'),
          c('Completions', 'string', '.status.succeeded', 'jobCompletions'),
          c('Duration', 'string', '.status.startTime', 'jobDuration'),
          age,
          ...templateColumns('.spec.template', 'labelSelector'),
        ],
      },
      {
        kind: 'CronJob', description: 'Creates jobs on a repeating schedule.',
        shortNames: ['cj'], categories: ['all'],
        printerColumns: [
          c('Schedule', 'string', '.spec.schedule'),
          c('Timezone', 'string', '.spec.timeZone', 'orNone'),
          c('Suspend', 'boolean', '.spec.suspend', 'boolText'),
          c('Active', 'integer', '.status.active', 'count'),
          c('Last Schedule', 'date', '.status.lastScheduleTime', 'ageOrNone'),
          age,
          ...templateColumns('.spec.jobTemplate.spec.template'),
          wide('Selector', 'string', '.spec.jobTemplate.spec.selector', 'labelSelector'),
        ],
      },
    ],
  },
  {
    group: 'policy', version: 'v1', kinds: [
      {
        kind: 'PodDisruptionBudget', description: 'Limits how many pods of a set voluntary disruptions may take down at once.',
        shortNames: ['pdb'],
        printerColumns: [
          c('Min Available', 'string', '.spec.minAvailable', 'orNA'),
          c('Max Unavailable', 'string', '.spec.maxUnavailable', 'orNA'),
          c('Allowed Disruptions', 'integer', '.status.disruptionsAllowed', 'intOrZero'),
          age,
        ],
      },
    ],
  },
  {
    group: 'scheduling.k8s.io', version: 'v1', kinds: [
      {
        kind: 'PriorityClass', description: 'Maps a class name to the scheduling priority of pods that use it.',
        shortNames: ['pc'],
        printerColumns: [
          c('Value', 'integer', '.value'),
          c('Global-Default', 'boolean', '.globalDefault', 'boolOrFalse'),
          age,
          c('PreemptionPolicy', 'string', '.preemptionPolicy', 'orEmpty'),
        ],
      },
    ],
  },
  {
    group: 'autoscaling', version: 'v2', kinds: [
      {
        kind: 'HorizontalPodAutoscaler', description: 'Scales a workload\'s replica count to track observed metrics.',
        shortNames: ['hpa'], categories: ['all'],
        printerColumns: [
          c('Reference', 'string', '.spec.scaleTargetRef', 'hpaReference'),
          c('Targets', 'string', '.spec.metrics', 'hpaTargets'),
          c('MinPods', 'string', '.spec.minReplicas', 'orUnset'),
          c('MaxPods', 'string', '.spec.maxReplicas'),
          c('Replicas', 'string', '.status.currentReplicas', 'intOrZero'),
          age,
        ],
      },
    ],
  },
];

/**
 * Kinds that live in another group-version's schemas only as subresource
 * bodies (Scale, Eviction, Binding, TokenRequest): the tool finds them from
 * the paths; their descriptions are here.
 */
export const extraKindDescriptions: Record<string, string> = {
  'io.k8s.api.autoscaling.v1.Scale': 'The replica count of a scalable resource, served at its scale subresource.',
  'io.k8s.api.policy.v1.Eviction': 'A request to evict a pod, subject to its disruption budgets.',
  'io.k8s.api.core.v1.Binding': 'Binds a pod to a node; posted to the pod\'s binding subresource.',
  'io.k8s.api.authentication.v1.TokenRequest': 'Asks for a token for a service account; posted to its token subresource.',
};
