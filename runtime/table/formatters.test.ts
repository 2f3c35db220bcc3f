// Table-driven tests of the printer-column cell formatters, plus a check that
// every formatter named by an api-specs printer column exists.

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PrinterColumn } from '../../generated/api-types.ts';
import { formatLabelSelector, formatLabels, formatters, podStatus } from './formatters.ts';

const col = (jsonPath: string, type = 'string'): PrinterColumn => ({ name: 'X', type, jsonPath, priority: 0 });
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const MIN = 60_000;

type Case = [name: string, formatter: string, obj: Record<string, any>, column: PrinterColumn, expected: string | number | boolean | RegExp];

const cases: Case[] = [
  // generic
  ['orNone present', 'orNone', { spec: { nodeName: 'n1' } }, col('.spec.nodeName'), 'n1'],
  ['orNone absent', 'orNone', {}, col('.spec.nodeName'), '<none>'],
  ['orNone empty string', 'orNone', { spec: { nodeName: '' } }, col('.spec.nodeName'), '<none>'],
  ['orNone number', 'orNone', { spec: { p: 5 } }, col('.spec.p'), 5],
  ['orEmpty absent', 'orEmpty', {}, col('.a'), ''],
  ['orUnset absent', 'orUnset', {}, col('.a'), '<unset>'],
  ['orUnset number as text', 'orUnset', { spec: { minReplicas: 2 } }, col('.spec.minReplicas'), '2'],
  ['orNA absent', 'orNA', {}, col('.spec.minAvailable'), 'N/A'],
  ['orNA percent', 'orNA', { spec: { minAvailable: '50%' } }, col('.spec.minAvailable'), '50%'],
  ['intOrZero absent', 'intOrZero', {}, col('.status.replicas'), 0],
  ['intOrZero present', 'intOrZero', { status: { replicas: 3 } }, col('.status.replicas'), 3],
  ['boolOrFalse absent', 'boolOrFalse', {}, col('.spec.suspend'), false],
  ['boolOrFalse true', 'boolOrFalse', { spec: { suspend: true } }, col('.spec.suspend'), true],
  ['count list', 'count', { secrets: [{}, {}] }, col('.secrets'), 2],
  ['count map', 'count', { data: { a: '1' } }, col('.data'), 1],
  ['count absent', 'count', {}, col('.webhooks'), 0],
  ['joinComma wildcard', 'joinComma', { spec: { containers: [{ name: 'a' }, { name: 'b' }] } }, col('.spec.containers[*].name'), 'a,b'],
  ['joinComma list', 'joinComma', { spec: { cidrs: ['10.0.0.0/16', 'fd00::/108'] } }, col('.spec.cidrs'), '10.0.0.0/16,fd00::/108'],
  ['joinComma none', 'joinComma', {}, col('.spec.cidrs'), ''],
  ['joinCommaOrNone none', 'joinCommaOrNone', {}, col('.spec.volumeLifecycleModes'), '<none>'],
  ['joinCommaOrNone', 'joinCommaOrNone', { spec: { volumeLifecycleModes: ['Persistent', 'Ephemeral'] } }, col('.spec.volumeLifecycleModes'), 'Persistent,Ephemeral'],
  ['selectorString', 'selectorString', { spec: { selector: { matchLabels: { app: 'web' } } } }, col('.spec.selector'), 'app=web'],
  ['selectorString empty', 'selectorString', { spec: { selector: {} } }, col('.spec.selector'), ''],
  ['boolOrTrue absent', 'boolOrTrue', { spec: {} }, col('.spec.attachRequired'), true],
  ['boolOrTrue false', 'boolOrTrue', { spec: { attachRequired: false } }, col('.spec.attachRequired'), false],
  ['boolText false', 'boolText', { spec: { suspend: false } }, col('.spec.suspend'), 'False'],
  ['boolText true', 'boolText', { spec: { suspend: true } }, col('.spec.suspend'), 'True'],
  ['boolText unset', 'boolText', { spec: {} }, col('.spec.suspend'), '<unset>'],
  ['orUnknown', 'orUnknown', { status: { nodeInfo: {} } }, col('.status.nodeInfo.osImage'), '<unknown>'],
  ['trimmed', 'trimmed', { message: '  hello \n' }, col('.message'), 'hello'],
  ['orNone indexed path', 'orNone', { status: { podIPs: [{ ip: '10.1.0.5' }, { ip: 'fd00::5' }] } }, col('.status.podIPs[0].ip'), '10.1.0.5'],
  [
    'labelSelector',
    'labelSelector',
    { spec: { selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] } } },
    col('.spec.selector'),
    'app=web,tier in (a,b)',
  ],
  ['labelSelector empty', 'labelSelector', { spec: { podSelector: {} } }, col('.spec.podSelector'), '<none>'],
  ['labelMap', 'labelMap', { spec: { selector: { b: '2', a: '1' } } }, col('.spec.selector'), 'a=1,b=2'],
  ['labelMap absent', 'labelMap', {}, col('.spec.selector'), '<none>'],
  ['ageOrNone set', 'ageOrNone', { status: { lastScheduleTime: ago(5 * MIN) } }, col('.status.lastScheduleTime', 'date'), '5m'],
  ['ageOrNone unset', 'ageOrNone', {}, col('.status.lastScheduleTime', 'date'), '<none>'],

  // Service
  [
    'servicePorts',
    'servicePorts',
    {
      spec: {
        ports: [
          { port: 80, protocol: 'TCP' },
          { port: 443, nodePort: 30443, protocol: 'TCP' },
        ],
      },
    },
    col('.spec.ports'),
    '80/TCP,443:30443/TCP',
  ],
  ['servicePorts udp default tcp', 'servicePorts', { spec: { ports: [{ port: 53, protocol: 'UDP' }, { port: 8080 }] } }, col('.spec.ports'), '53/UDP,8080/TCP'],
  ['servicePorts none', 'servicePorts', { spec: {} }, col('.spec.ports'), '<none>'],
  ['externalIP clusterIP none', 'serviceExternalIP', { spec: { type: 'ClusterIP' } }, col('.x'), '<none>'],
  ['externalIP clusterIP with externalIPs', 'serviceExternalIP', { spec: { type: 'ClusterIP', externalIPs: ['1.2.3.4'] } }, col('.x'), '1.2.3.4'],
  ['externalIP LB pending', 'serviceExternalIP', { spec: { type: 'LoadBalancer' } }, col('.x'), '<pending>'],
  ['externalIP LB ingress', 'serviceExternalIP', { spec: { type: 'LoadBalancer' }, status: { loadBalancer: { ingress: [{ ip: '5.6.7.8' }] } } }, col('.x'), '5.6.7.8'],
  [
    'externalIP LB sorted unique plus externalIPs',
    'serviceExternalIP',
    { spec: { type: 'LoadBalancer', externalIPs: ['9.9.9.9'] }, status: { loadBalancer: { ingress: [{ ip: '2.2.2.2' }, { ip: '1.1.1.1' }, { ip: '2.2.2.2' }] } } },
    col('.x'),
    '1.1.1.1,2.2.2.2,9.9.9.9',
  ],
  [
    'externalIP LB long truncated',
    'serviceExternalIP',
    { spec: { type: 'LoadBalancer' }, status: { loadBalancer: { ingress: [{ hostname: 'a-very-long-hostname.example.com' }] } } },
    col('.x'),
    'a-very-long-h...',
  ],
  ['externalIP ExternalName', 'serviceExternalIP', { spec: { type: 'ExternalName', externalName: 'db.example.com' } }, col('.x'), 'db.example.com'],
  ['externalIP unknown type', 'serviceExternalIP', { spec: { type: 'Weird' } }, col('.x'), '<unknown>'],

  // Endpoints, ConfigMap, Secret, ComponentStatus
  ['endpoints', 'endpoints', { subsets: [{ addresses: [{ ip: '10.0.0.1' }, { ip: '10.0.0.2' }], ports: [{ port: 80 }] }] }, col('.subsets'), '10.0.0.1:80,10.0.0.2:80'],
  [
    'endpoints ipv6 and more',
    'endpoints',
    { subsets: [{ addresses: [{ ip: 'fd00::1' }, { ip: 'a' }, { ip: 'b' }, { ip: 'c' }, { ip: 'd' }], ports: [{ port: 80 }] }] },
    col('.subsets'),
    '[fd00::1]:80,a:80,b:80 + 2 more...',
  ],
  ['endpoints no ports', 'endpoints', { subsets: [{ addresses: [{ ip: '10.0.0.1' }] }] }, col('.subsets'), '10.0.0.1'],
  ['endpoints none', 'endpoints', {}, col('.subsets'), '<none>'],
  ['endpoints subset without addresses', 'endpoints', { subsets: [{ ports: [{ port: 80 }] }] }, col('.subsets'), ''],
  ['configMapData', 'configMapData', { data: { a: '1', b: '2' }, binaryData: { c: 'AA==' } }, col('.data'), 3],
  ['configMapData empty', 'configMapData', {}, col('.data'), 0],
  ['secretData', 'secretData', { data: { a: 'eA==' } }, col('.data'), 1],
  ['componentStatus healthy', 'componentStatus', { conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] }, col('.conditions'), 'Healthy'],
  ['componentStatus unhealthy', 'componentStatus', { conditions: [{ type: 'Healthy', status: 'False', error: 'boom' }] }, col('.conditions'), 'Unhealthy'],
  ['componentStatus unknown', 'componentStatus', {}, col('.conditions'), 'Unknown'],
  ['componentMessage', 'componentMessage', { conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }] }, col('.conditions'), 'ok'],
  ['componentError', 'componentError', { conditions: [{ type: 'Healthy', status: 'False', error: 'boom' }] }, col('.conditions'), 'boom'],

  // Volumes
  ['accessModes ordered', 'accessModes', { spec: { accessModes: ['ReadWriteMany', 'ReadWriteOnce'] } }, col('.spec.accessModes'), 'RWO,RWX'],
  ['accessModes RWOP', 'accessModes', { spec: { accessModes: ['ReadWriteOncePod'] } }, col('.spec.accessModes'), 'RWOP'],
  ['volumeCapacity', 'volumeCapacity', { spec: { capacity: { storage: '5Gi' } } }, col('.x'), '5Gi'],
  ['volumeCapacity unset', 'volumeCapacity', { spec: {} }, col('.x'), '0'],
  ['volumeClaim', 'volumeClaim', { spec: { claimRef: { namespace: 'ns', name: 'c' } } }, col('.x'), 'ns/c'],
  ['volumeClaim none', 'volumeClaim', { spec: {} }, col('.x'), ''],
  ['storageClassOf field', 'storageClassOf', { spec: { storageClassName: 'fast' } }, col('.x'), 'fast'],
  ['storageClassOf annotation wins', 'storageClassOf', { metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'old' } }, spec: { storageClassName: 'fast' } }, col('.x'), 'old'],
  ['volumeMode unset', 'volumeMode', { spec: {} }, col('.x'), '<unset>'],
  ['volumeMode block', 'volumeMode', { spec: { volumeMode: 'Block' } }, col('.x'), 'Block'],
  ['phaseOrTerminating', 'phaseOrTerminating', { status: { phase: 'Bound' } }, col('.x'), 'Bound'],
  ['phaseOrTerminating deleting', 'phaseOrTerminating', { metadata: { deletionTimestamp: ago(0) }, status: { phase: 'Bound' } }, col('.x'), 'Terminating'],
  ['claimCapacity bound', 'claimCapacity', { spec: { volumeName: 'pv1' }, status: { capacity: { storage: '1Gi' } } }, col('.x'), '1Gi'],
  ['claimCapacity unbound', 'claimCapacity', { spec: {}, status: {} }, col('.x'), ''],
  ['claimAccessModes bound', 'claimAccessModes', { spec: { volumeName: 'pv1' }, status: { accessModes: ['ReadWriteOnce'] } }, col('.x'), 'RWO'],
  ['claimAccessModes unbound', 'claimAccessModes', { spec: {}, status: { accessModes: ['ReadWriteOnce'] } }, col('.x'), ''],

  // Node
  ['nodeStatus ready', 'nodeStatus', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }, col('.x'), 'Ready'],
  ['nodeStatus not ready cordoned', 'nodeStatus', { spec: { unschedulable: true }, status: { conditions: [{ type: 'Ready', status: 'False' }] } }, col('.x'), 'NotReady,SchedulingDisabled'],
  ['nodeStatus unknown', 'nodeStatus', {}, col('.x'), 'Unknown'],
  [
    'nodeRoles',
    'nodeRoles',
    { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/role': 'master', 'node-role.kubernetes.io/': '' } } },
    col('.x'),
    'control-plane,master',
  ],
  ['nodeRoles none', 'nodeRoles', { metadata: {} }, col('.x'), '<none>'],
  [
    'nodeInternalIP',
    'nodeInternalIP',
    {
      status: {
        addresses: [
          { type: 'Hostname', address: 'h' },
          { type: 'InternalIP', address: '10.1.1.1' },
        ],
      },
    },
    col('.x'),
    '10.1.1.1',
  ],
  ['nodeExternalIP none', 'nodeExternalIP', { status: { addresses: [{ type: 'InternalIP', address: '10.1.1.1' }] } }, col('.x'), '<none>'],

  // Pod
  [
    'podReady',
    'podReady',
    {
      spec: { containers: [{ name: 'a' }, { name: 'b' }] },
      status: {
        containerStatuses: [
          { name: 'a', ready: true, state: { running: {} } },
          { name: 'b', ready: false, state: { running: {} } },
        ],
      },
    },
    col('.x'),
    '1/2',
  ],
  [
    'podReady ready but not running',
    'podReady',
    { spec: { containers: [{ name: 'a' }] }, status: { containerStatuses: [{ name: 'a', ready: true, state: { waiting: { reason: 'X' } } }] } },
    col('.x'),
    '0/1',
  ],
  [
    'podReady with sidecar',
    'podReady',
    {
      spec: { containers: [{ name: 'a' }], initContainers: [{ name: 'i' }, { name: 's', restartPolicy: 'Always' }] },
      status: {
        containerStatuses: [{ name: 'a', ready: true, state: { running: {} } }],
        initContainerStatuses: [
          { name: 'i', state: { terminated: { exitCode: 0 } } },
          { name: 's', ready: true, started: true, state: { running: {} } },
        ],
      },
    },
    col('.x'),
    '2/2',
  ],
  [
    'podReady while initializing',
    'podReady',
    {
      spec: { containers: [{ name: 'a' }], initContainers: [{ name: 'i' }] },
      status: { containerStatuses: [{ name: 'a', ready: true, state: { running: {} } }], initContainerStatuses: [{ name: 'i', state: { running: {} } }] },
    },
    col('.x'),
    '0/1',
  ],
  [
    'podRestarts while initializing',
    'podRestarts',
    {
      spec: { initContainers: [{ name: 'i' }] },
      status: { initContainerStatuses: [{ name: 'i', restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } } }], containerStatuses: [{ restartCount: 9 }] },
    },
    col('.x'),
    '4',
  ],
  ['podReady no status', 'podReady', { spec: { containers: [{ name: 'a' }] } }, col('.x'), '0/1'],
  ['podRestarts zero', 'podRestarts', { status: { containerStatuses: [{ restartCount: 0 }] } }, col('.x'), '0'],
  [
    'podRestarts with last',
    'podRestarts',
    { status: { containerStatuses: [{ restartCount: 2, lastState: { terminated: { finishedAt: ago(3 * MIN) } } }, { restartCount: 1 }] } },
    col('.x'),
    '3 (3m ago)',
  ],
  ['podReadinessGates none', 'podReadinessGates', { spec: {} }, col('.x'), '<none>'],
  ['podReadinessGates', 'podReadinessGates', { spec: { readinessGates: [{ conditionType: 'a' }, { conditionType: 'b' }] }, status: { conditions: [{ type: 'a', status: 'True' }] } }, col('.x'), '1/2'],

  // ResourceQuota
  ['quotaRequest', 'quotaRequest', { status: { hard: { pods: '10', 'requests.cpu': '2', 'limits.cpu': '4' }, used: { pods: '1', 'limits.cpu': '1' } } }, col('.x'), 'pods: 1/10, requests.cpu: 0/2'],
  ['quotaLimit', 'quotaLimit', { status: { hard: { pods: '10', 'limits.cpu': '4', 'limits.memory': '1Gi' }, used: { 'limits.cpu': '1' } } }, col('.x'), 'limits.cpu: 1/4, limits.memory: 0/1Gi'],
  ['quotaRequest empty', 'quotaRequest', {}, col('.x'), ''],

  // Events
  ['eventLastSeen', 'eventLastSeen', { lastTimestamp: ago(2 * MIN + 5000) }, col('.lastTimestamp', 'date'), '2m5s'],
  ['eventLastSeen series', 'eventLastSeen', { lastTimestamp: ago(60 * MIN), series: { lastObservedTime: ago(30_000), count: 4 } }, col('.x', 'date'), '30s'],
  ['eventLastSeen eventTime only', 'eventLastSeen', { eventTime: ago(10_000) }, col('.x', 'date'), '10s'],
  ['eventLastSeen none', 'eventLastSeen', {}, col('.x', 'date'), '<unknown>'],
  ['eventLastSeen events.k8s.io', 'eventLastSeen', { deprecatedLastTimestamp: ago(90_000) }, col('.x', 'date'), '90s'],
  ['eventFirstSeen', 'eventFirstSeen', { firstTimestamp: ago(4 * MIN) }, col('.x', 'date'), '4m'],
  ['eventCount', 'eventCount', { count: 7 }, col('.count'), 7],
  ['eventCount default', 'eventCount', {}, col('.count'), 1],
  ['eventCount series', 'eventCount', { count: 1, series: { count: 9 } }, col('.count'), 9],
  ['eventObject', 'eventObject', { involvedObject: { kind: 'Pod', name: 'web-1' } }, col('.x'), 'pod/web-1'],
  ['eventObject events.k8s.io', 'eventObject', { regarding: { kind: 'Deployment', name: 'web' } }, col('.x'), 'deployment/web'],
  ['eventObject without name', 'eventObject', { involvedObject: { kind: 'Node' } }, col('.x'), 'node'],
  ['eventSource mixed fallback', 'eventSource', { source: { component: 'kubelet' }, reportingInstance: 'n-2' }, col('.x'), 'kubelet, n-2'],
  ['eventSource', 'eventSource', { source: { component: 'kubelet', host: 'node-1' } }, col('.x'), 'kubelet, node-1'],
  ['eventSource component only', 'eventSource', { source: { component: 'scheduler' } }, col('.x'), 'scheduler'],
  ['eventSource reporting fallback', 'eventSource', { reportingController: 'ctrl', reportingInstance: 'i-1' }, col('.x'), 'ctrl, i-1'],

  // apps, rbac, discovery, storage
  ['readyOfDesired', 'readyOfDesired', { spec: { replicas: 3 }, status: { readyReplicas: 2 } }, col('.x'), '2/3'],
  ['readyOfDesired empty status', 'readyOfDesired', { spec: { replicas: 1 } }, col('.x'), '0/1'],
  ['controllerOwner', 'controllerOwner', { metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', controller: true }] } }, col('.x'), 'statefulset.apps/web'],
  ['controllerOwner core', 'controllerOwner', { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', controller: true }] } }, col('.x'), 'pod/p'],
  ['controllerOwner none', 'controllerOwner', { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p' }] } }, col('.x'), '<none>'],
  ['roleRef', 'roleRef', { roleRef: { kind: 'ClusterRole', name: 'admin' } }, col('.x'), 'ClusterRole/admin'],
  [
    'subjectsUsers',
    'subjectsUsers',
    {
      subjects: [
        { kind: 'User', name: 'a' },
        { kind: 'User', name: 'b' },
        { kind: 'Group', name: 'g' },
      ],
    },
    col('.x'),
    'a, b',
  ],
  ['subjectsGroups', 'subjectsGroups', { subjects: [{ kind: 'Group', name: 'g' }] }, col('.x'), 'g'],
  ['subjectsServiceAccounts', 'subjectsServiceAccounts', { subjects: [{ kind: 'ServiceAccount', namespace: 'ns', name: 'sa' }] }, col('.x'), 'ns:sa'],
  ['sliceEndpointPorts', 'sliceEndpointPorts', { ports: [{ port: 80 }, { name: 'https' }, {}, { port: 1 }] }, col('.x'), '80,https,* + 1 more...'],
  ['sliceEndpointPorts none', 'sliceEndpointPorts', {}, col('.x'), '<unset>'],
  ['sliceEndpoints', 'sliceEndpoints', { endpoints: [{ addresses: ['10.0.0.1'] }, { addresses: ['10.0.0.2'] }] }, col('.x'), '10.0.0.1,10.0.0.2'],
  ['sliceEndpoints none', 'sliceEndpoints', { endpoints: [] }, col('.x'), '<unset>'],
  ['reclaimPolicy default', 'reclaimPolicy', {}, col('.x'), 'Delete'],
  ['volumeBindingMode default', 'volumeBindingMode', {}, col('.x'), 'Immediate'],
  ['tokenRequestAudiences', 'tokenRequestAudiences', { spec: { tokenRequests: [{ audience: 'a' }, { audience: 'b' }] } }, col('.x'), 'a,b'],
  ['tokenRequestAudiences none', 'tokenRequestAudiences', { spec: {} }, col('.x'), '<unset>'],

  // apiregistration, networking, admission, flowcontrol
  ['apiServiceService local', 'apiServiceService', { spec: {} }, col('.x'), 'Local'],
  ['apiServiceService remote', 'apiServiceService', { spec: { service: { namespace: 'kube-system', name: 'metrics' } } }, col('.x'), 'kube-system/metrics'],
  ['apiServiceAvailable true', 'apiServiceAvailable', { status: { conditions: [{ type: 'Available', status: 'True' }] } }, col('.x'), 'True'],
  ['apiServiceAvailable false', 'apiServiceAvailable', { status: { conditions: [{ type: 'Available', status: 'False', reason: 'MissingEndpoints' }] } }, col('.x'), 'False (MissingEndpoints)'],
  ['apiServiceAvailable unknown', 'apiServiceAvailable', {}, col('.x'), 'Unknown'],
  ['ipParentRef', 'ipParentRef', { spec: { parentRef: { group: '', resource: 'services', namespace: 'default', name: 'kubernetes' } } }, col('.x'), 'services/default/kubernetes'],
  ['ipParentRef grouped cluster-scoped', 'ipParentRef', { spec: { parentRef: { group: 'networking.k8s.io', resource: 'ServiceCIDRs', name: 'x' } } }, col('.x'), 'servicecidrs.networking.k8s.io/x'],
  ['ipParentRef none', 'ipParentRef', { spec: {} }, col('.x'), '<none>'],
  ['ingressHosts', 'ingressHosts', { spec: { rules: [{ host: 'a' }, { host: 'b' }, { host: 'c' }, { host: 'd' }] } }, col('.x'), 'a,b,c + 1 more...'],
  ['ingressHosts skips empty hosts', 'ingressHosts', { spec: { rules: [{}, { host: 'a' }, { host: 'b' }, { host: 'c' }] } }, col('.x'), 'a,b,c'],
  ['ingressHosts more counts all rules', 'ingressHosts', { spec: { rules: [{}, { host: 'a' }, { host: 'b' }, { host: 'c' }, { host: 'd' }] } }, col('.x'), 'a,b,c + 2 more...'],
  ['ingressHosts wildcard', 'ingressHosts', { spec: { rules: [{}] } }, col('.x'), '*'],
  ['ingressAddress', 'ingressAddress', { status: { loadBalancer: { ingress: [{ ip: '1.1.1.1' }, { hostname: 'lb' }] } } }, col('.x'), '1.1.1.1,lb'],
  ['ingressAddress truncated', 'ingressAddress', { status: { loadBalancer: { ingress: [{ ip: '10.10.10.10' }, { ip: '10.10.10.11' }] } } }, col('.x'), '10.10.10.10,1...'],
  ['ingressPorts', 'ingressPorts', { spec: {} }, col('.x'), '80'],
  ['ingressPorts tls', 'ingressPorts', { spec: { tls: [{}] } }, col('.x'), '80, 443'],
  [
    'ingressClassParameters',
    'ingressClassParameters',
    { spec: { parameters: { apiGroup: 'k8s.example.com', kind: 'IngressParameters', name: 'p' } } },
    col('.x'),
    'IngressParameters.k8s.example.com/p',
  ],
  ['ingressClassParameters none', 'ingressClassParameters', { spec: {} }, col('.x'), '<none>'],
  ['paramKind', 'paramKind', { spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' } } }, col('.x'), 'v1/ConfigMap'],
  ['paramKind unset', 'paramKind', { spec: {} }, col('.x'), '<unset>'],
  ['paramRef named', 'paramRef', { spec: { paramRef: { namespace: 'ns', name: 'p' } } }, col('.x'), 'ns/p'],
  ['paramRef named any namespace', 'paramRef', { spec: { paramRef: { name: 'p' } } }, col('.x'), '*/p'],
  ['paramRef selector', 'paramRef', { spec: { paramRef: { selector: { matchLabels: { a: 'b' } } } } }, col('.x'), 'a=b'],
  ['paramRef unset', 'paramRef', { spec: {} }, col('.x'), '<unset>'],
  ['flowDistinguisher', 'flowDistinguisher', { spec: { distinguisherMethod: { type: 'ByUser' } } }, col('.x'), 'ByUser'],
  ['flowDistinguisher none', 'flowDistinguisher', { spec: {} }, col('.x'), '<none>'],
  ['flowSchemaMissingPL', 'flowSchemaMissingPL', { status: { conditions: [{ type: 'Dangling', status: 'False' }] } }, col('.x'), 'False'],
  ['flowSchemaMissingPL unknown', 'flowSchemaMissingPL', {}, col('.x'), '?'],

  // batch
  ['jobStatus complete', 'jobStatus', { status: { conditions: [{ type: 'Complete', status: 'True' }] } }, col('.x'), 'Complete'],
  ['jobStatus failed', 'jobStatus', { status: { conditions: [{ type: 'Failed', status: 'True' }] } }, col('.x'), 'Failed'],
  ['jobStatus suspended', 'jobStatus', { status: { conditions: [{ type: 'Suspended', status: 'True' }] } }, col('.x'), 'Suspended'],
  ['jobStatus terminating', 'jobStatus', { metadata: { deletionTimestamp: ago(0) }, status: {} }, col('.x'), 'Terminating'],
  ['jobStatus running', 'jobStatus', { status: { conditions: [{ type: 'Complete', status: 'False' }] } }, col('.x'), 'Running'],
  ['jobCompletions', 'jobCompletions', { spec: { completions: 3 }, status: { succeeded: 1 } }, col('.x'), '1/3'],
  ['jobCompletions parallel', 'jobCompletions', { spec: { parallelism: 4 }, status: {} }, col('.x'), '0/1 of 4'],
  ['jobCompletions single', 'jobCompletions', { spec: { parallelism: 1 }, status: { succeeded: 1 } }, col('.x'), '1/1'],
  ['jobDuration complete', 'jobDuration', { status: { startTime: '2024-01-01T00:00:00Z', completionTime: '2024-01-01T00:01:30Z' } }, col('.x'), '90s'],
  ['jobDuration running', 'jobDuration', { status: { startTime: ago(5 * MIN) } }, col('.x'), '5m'],
  ['jobDuration not started', 'jobDuration', { status: {} }, col('.x'), ''],

  // autoscaling
  ['hpaReference', 'hpaReference', { spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' } } }, col('.x'), 'Deployment/web'],
  ['hpaTargets none', 'hpaTargets', { spec: {} }, col('.x'), '<none>'],
  [
    'hpaTargets resource unknown',
    'hpaTargets',
    { spec: { metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }] } },
    col('.x'),
    'cpu: <unknown>/80%',
  ],
  [
    'hpaTargets resource current',
    'hpaTargets',
    {
      spec: {
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { averageUtilization: 80 } } },
          { type: 'Pods', pods: { target: { averageValue: '1k' } } },
        ],
      },
      status: {
        currentMetrics: [
          { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 12 } } },
          { type: 'Pods', pods: { current: { averageValue: '500' } } },
        ],
      },
    },
    col('.x'),
    'cpu: 12%/80%, 500/1k',
  ],
  [
    'hpaTargets more',
    'hpaTargets',
    { spec: { metrics: [{ type: 'External', external: { target: { value: '1' } } }, { type: 'Object', object: { target: { averageValue: '2' } } }, { type: 'X' }] } },
    col('.x'),
    '<unknown>/1, <unknown>/2 (avg) + 1 more...',
  ],
];

describe('formatters', () => {
  it.each(cases)('%s', (_name, name, obj, column, expected) => {
    const f = formatters[name];
    expect(f, `formatter ${name}`).toBeTypeOf('function');
    const got = f(obj, column);
    if (expected instanceof RegExp) expect(String(got)).toMatch(expected);
    else expect(got).toBe(expected);
  });
});

describe('podStatus', () => {
  const pod = (status: Record<string, any>, spec: Record<string, any> = {}, metadata: Record<string, any> = {}) => ({ metadata, spec, status });
  it.each([
    ['phase', pod({ phase: 'Pending' }), 'Pending'],
    ['reason wins over phase', pod({ phase: 'Failed', reason: 'Evicted' }), 'Evicted'],
    ['scheduling gated', pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] }), 'SchedulingGated'],
    ['waiting container', pod({ phase: 'Pending', containerStatuses: [{ state: { waiting: { reason: 'ContainerCreating' } } }] }), 'ContainerCreating'],
    ['crash loop', pod({ phase: 'Running', containerStatuses: [{ state: { waiting: { reason: 'CrashLoopBackOff' } } }] }), 'CrashLoopBackOff'],
    ['terminated completed', pod({ phase: 'Succeeded', containerStatuses: [{ state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }), 'Completed'],
    ['terminated by signal', pod({ phase: 'Failed', containerStatuses: [{ state: { terminated: { signal: 9, exitCode: 137 } } }] }), 'Signal:9'],
    ['terminated exit code', pod({ phase: 'Failed', containerStatuses: [{ state: { terminated: { exitCode: 2 } } }] }), 'ExitCode:2'],
    ['running', pod({ phase: 'Running', containerStatuses: [{ ready: true, state: { running: {} } }] }), 'Running'],
    [
      'completed but one running, ready',
      pod({
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [{ state: { terminated: { reason: 'Completed', exitCode: 0 } } }, { ready: true, state: { running: {} } }],
      }),
      'Running',
    ],
    [
      'completed but one running, not ready',
      pod({ phase: 'Running', containerStatuses: [{ ready: true, state: { running: {} } }, { state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }),
      'NotReady',
    ],
    [
      'init waiting',
      pod({ phase: 'Pending', initContainerStatuses: [{ name: 'i', state: { waiting: { reason: 'ImagePullBackOff' } } }] }, { initContainers: [{ name: 'i' }] }),
      'Init:ImagePullBackOff',
    ],
    [
      'init progress',
      pod(
        {
          phase: 'Pending',
          initContainerStatuses: [
            { name: 'a', state: { terminated: { exitCode: 0 } } },
            { name: 'b', state: { running: {} } },
          ],
        },
        { initContainers: [{ name: 'a' }, { name: 'b' }] },
      ),
      'Init:1/2',
    ],
    ['init failed', pod({ phase: 'Pending', initContainerStatuses: [{ name: 'a', state: { terminated: { exitCode: 1, reason: 'Error' } } }] }, { initContainers: [{ name: 'a' }] }), 'Init:Error'],
    ['init exit code', pod({ phase: 'Pending', initContainerStatuses: [{ name: 'a', state: { terminated: { exitCode: 3 } } }] }, { initContainers: [{ name: 'a' }] }), 'Init:ExitCode:3'],
    [
      'started sidecar skipped',
      pod(
        { phase: 'Running', initContainerStatuses: [{ name: 's', started: true, state: { running: {} } }], containerStatuses: [{ ready: true, state: { running: {} } }] },
        { initContainers: [{ name: 's', restartPolicy: 'Always' }] },
      ),
      'Running',
    ],
    ['terminating', pod({ phase: 'Running' }, {}, { deletionTimestamp: ago(0) }), 'Terminating'],
    [
      'deleted after success keeps its status',
      pod({ phase: 'Succeeded', containerStatuses: [{ state: { terminated: { reason: 'Completed', exitCode: 0 } } }] }, {}, { deletionTimestamp: ago(0) }),
      'Completed',
    ],
    ['node lost', pod({ phase: 'Running', reason: 'NodeLost' }, {}, { deletionTimestamp: ago(0) }), 'Unknown'],
  ])('%s', (_n, obj, expected) => {
    expect(podStatus(obj)).toBe(expected);
  });
});

describe('selector and label text', () => {
  it.each([
    [undefined, '<none>'],
    [{}, '<none>'],
    [{ matchLabels: { b: '1', a: '2' } }, 'a=2,b=1'],
    [
      {
        matchExpressions: [
          { key: 'x', operator: 'Exists' },
          { key: 'w', operator: 'DoesNotExist' },
          { key: 'y', operator: 'NotIn', values: ['2', '1'] },
        ],
      },
      '!w,x,y notin (1,2)',
    ],
  ])('formatLabelSelector(%j)', (sel, expected) => {
    expect(formatLabelSelector(sel)).toBe(expected);
  });
  it('formatLabels', () => {
    expect(formatLabels({ z: '1', a: '' })).toBe('a=,z=1');
    expect(formatLabels(null)).toBe('<none>');
  });
});

describe('api-specs printer columns', () => {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const files: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (n.endsWith('.json')) files.push(p);
    }
  };
  walk(join(root, 'api-specs'));

  it('name only formatters that exist', () => {
    const missing: string[] = [];
    let named = 0;
    for (const f of files) {
      const doc = JSON.parse(readFileSync(f, 'utf8'));
      for (const r of doc['x-specserver-resources'] ?? []) {
        for (const c of r.printerColumns ?? []) {
          if (!c.formatter) continue;
          named++;
          if (!formatters[c.formatter]) missing.push(`${r.kind}.${c.name}: ${c.formatter}`);
        }
      }
    }
    expect(named).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});
