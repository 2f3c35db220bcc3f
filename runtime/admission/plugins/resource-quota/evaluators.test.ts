// Quota evaluators: the usage each kind of object costs, the names each
// evaluator accounts for, the pod scopes and the `must specify` constraint.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../../storage/interface.ts';
import { type ScopeRequirement, evaluatorFor, groupResourcesOf, objectCountName, quotaMatches } from './evaluators.ts';
import { formatList } from './resources.ts';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const c = (name: string, resources?: Obj, extra: Obj = {}): Obj => ({ name, image: 'x', ...(resources ? { resources } : {}), ...extra });
const pod = (spec: Obj, metadata: Obj = {}, status: Obj = {}): Obj => ({ metadata: { name: 'p', ...metadata }, spec, status });

describe('usage', () => {
  const rows: [string, string, string, Obj, Record<string, string>][] = [
    ['a bare pod', '', 'pods', pod({ containers: [c('a')] }), { 'count/pods': '1', pods: '1' }],
    [
      'requests and limits summed over containers, cpu and memory shorthands',
      '',
      'pods',
      pod({ containers: [c('a', { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '1' } }), c('b', { requests: { cpu: '250m', memory: '64Mi' }, limits: { cpu: '500m' } })] }),
      { 'count/pods': '1', pods: '1', cpu: '500m', 'requests.cpu': '500m', memory: '128Mi', 'requests.memory': '128Mi', 'limits.cpu': '1500m' },
    ],
    [
      'an init container larger than the containers sets the pod request',
      '',
      'pods',
      pod({ containers: [c('a', { requests: { cpu: '100m' } })], initContainers: [c('i', { requests: { cpu: '1' } })] }),
      { 'count/pods': '1', pods: '1', cpu: '1', 'requests.cpu': '1' },
    ],
    [
      'a sidecar adds to the containers and to later init containers',
      '',
      'pods',
      pod({ containers: [c('a', { requests: { cpu: '100m' } })], initContainers: [c('s', { requests: { cpu: '200m' } }, { restartPolicy: 'Always' }), c('i', { requests: { cpu: '250m' } })] }),
      { 'count/pods': '1', pods: '1', cpu: '450m', 'requests.cpu': '450m' },
    ],
    [
      'extended resources and hugepages',
      '',
      'pods',
      pod({ containers: [c('a', { requests: { 'example.com/gpu': '2', 'hugepages-2Mi': '4Mi' } })] }),
      { 'count/pods': '1', pods: '1', 'requests.example.com/gpu': '2', 'hugepages-2Mi': '4Mi', 'requests.hugepages-2Mi': '4Mi' },
    ],
    ['a finished pod counts only as an object', '', 'pods', pod({ containers: [c('a', { requests: { cpu: '1' } })] }, {}, { phase: 'Succeeded' }), { 'count/pods': '1' }],
    [
      'a pod past its deletion grace period counts only as an object',
      '',
      'pods',
      pod({ containers: [c('a')] }, { deletionTimestamp: '2025-12-31T23:59:00Z', deletionGracePeriodSeconds: 30 }),
      { 'count/pods': '1' },
    ],
    ['a ClusterIP service', '', 'services', { spec: { type: 'ClusterIP', ports: [{ port: 80 }] } }, { 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '0' }],
    [
      'a NodePort service',
      '',
      'services',
      { spec: { type: 'NodePort', ports: [{ port: 80 }, { port: 443 }] } },
      { 'count/services': '1', services: '1', 'services.loadbalancers': '0', 'services.nodeports': '2' },
    ],
    [
      'a LoadBalancer without node ports allocated counts only explicit ones',
      '',
      'services',
      { spec: { type: 'LoadBalancer', allocateLoadBalancerNodePorts: false, ports: [{ port: 80, nodePort: 30080 }, { port: 443 }] } },
      { 'count/services': '1', services: '1', 'services.loadbalancers': '1', 'services.nodeports': '1' },
    ],
    [
      'a claim with a class',
      '',
      'persistentvolumeclaims',
      { spec: { storageClassName: 'fast', resources: { requests: { storage: '5Gi' } } } },
      {
        'count/persistentvolumeclaims': '1',
        persistentvolumeclaims: '1',
        'requests.storage': '5Gi',
        'fast.storageclass.storage.k8s.io/persistentvolumeclaims': '1',
        'fast.storageclass.storage.k8s.io/requests.storage': '5Gi',
      },
    ],
    [
      'the beta class annotation wins over storageClassName',
      '',
      'persistentvolumeclaims',
      { metadata: { annotations: { 'volume.beta.kubernetes.io/storage-class': 'old' } }, spec: { storageClassName: 'new' } },
      { 'count/persistentvolumeclaims': '1', persistentvolumeclaims: '1', 'old.storageclass.storage.k8s.io/persistentvolumeclaims': '1' },
    ],
    ['a configmap, by its legacy name too', '', 'configmaps', {}, { 'count/configmaps': '1', configmaps: '1' }],
    ['a deployment', 'apps', 'deployments', {}, { 'count/deployments.apps': '1' }],
    ['a custom resource', 'example.com', 'widgets', {}, { 'count/widgets.example.com': '1' }],
  ];
  it.each(rows)('%s', (_name, group, resource, obj, want) => {
    expect(formatList(evaluatorFor(group, resource).usage(obj, NOW))).toEqual(Object.fromEntries(Object.entries(want).sort(([a], [b]) => (a < b ? -1 : 1))));
  });
});

describe('handles', () => {
  const rows: [string, string, string, string, Obj | null, Obj | null, boolean][] = [
    ['pod create', '', 'pods', 'CREATE', pod({}), null, true],
    ['pod update', '', 'pods', 'UPDATE', pod({}), pod({}), false],
    ['pod update, even entering Terminating', '', 'pods', 'UPDATE', pod({ activeDeadlineSeconds: 5 }), pod({}), false],
    ['service update', '', 'services', 'UPDATE', {}, {}, true],
    ['claim update', '', 'persistentvolumeclaims', 'UPDATE', {}, {}, true],
    ['configmap update', '', 'configmaps', 'UPDATE', {}, {}, false],
    ['deployment create', 'apps', 'deployments', 'CREATE', {}, null, true],
  ];
  it.each(rows)('%s', (_n, group, resource, operation, object, oldObject, want) => {
    expect(evaluatorFor(group, resource).handles({ operation, object, oldObject })).toBe(want);
  });
});

describe('matching resources', () => {
  const names = [
    'pods',
    'count/pods',
    'requests.cpu',
    'requests.example.com/gpu',
    'requests.hugepages-2Mi',
    'services',
    'requests.storage',
    'gold.storageclass.storage.k8s.io/requests.storage',
    'count/deployments.apps',
    'configmaps',
  ];
  it.each([
    ['', 'pods', ['pods', 'count/pods', 'requests.cpu', 'requests.example.com/gpu', 'requests.hugepages-2Mi']],
    ['', 'services', ['services']],
    ['', 'persistentvolumeclaims', ['requests.storage', 'gold.storageclass.storage.k8s.io/requests.storage']],
    ['apps', 'deployments', ['count/deployments.apps']],
    ['', 'configmaps', ['configmaps']],
  ])('%s/%s', (group, resource, want) => {
    expect(evaluatorFor(group, resource).matchingResources(names)).toEqual(want);
  });
  it('names the group-resources a quota counts', () => {
    expect(
      groupResourcesOf(['pods', 'count/deployments.apps', 'configmaps', 'count/widgets.example.com'])
        .map((g) => `${g.group}/${g.resource}`)
        .sort(),
    ).toEqual(['/configmaps', '/pods', 'apps/deployments', 'example.com/widgets']);
    expect(objectCountName('', 'secrets')).toBe('count/secrets');
  });
});

describe('pod scopes', () => {
  const bestEffort = pod({ containers: [c('a')] });
  const burstable = pod({ containers: [c('a', { requests: { memory: '1Mi' } })], priorityClassName: 'high', activeDeadlineSeconds: 10 });
  const crossNs = pod({
    containers: [c('a')],
    affinity: { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 1, podAffinityTerm: { namespaces: ['other'], topologyKey: 'k' } }] } },
  });
  const scope = (scopeName: string, operator = 'Exists', values?: string[]): ScopeRequirement => ({ scopeName, operator, values });
  const rows: [string, ScopeRequirement, Obj, boolean][] = [
    ['BestEffort', scope('BestEffort'), bestEffort, true],
    ['BestEffort (burstable)', scope('BestEffort'), burstable, false],
    ['NotBestEffort', scope('NotBestEffort'), burstable, true],
    ['Terminating', scope('Terminating'), burstable, true],
    ['NotTerminating', scope('NotTerminating'), burstable, false],
    ['PriorityClass Exists', scope('PriorityClass'), burstable, true],
    ['PriorityClass Exists (none)', scope('PriorityClass'), bestEffort, false],
    ['PriorityClass In', scope('PriorityClass', 'In', ['high', 'low']), burstable, true],
    ['PriorityClass NotIn', scope('PriorityClass', 'NotIn', ['high']), burstable, false],
    ['PriorityClass DoesNotExist', scope('PriorityClass', 'DoesNotExist'), bestEffort, true],
    ['CrossNamespacePodAffinity', scope('CrossNamespacePodAffinity'), crossNs, true],
    ['CrossNamespacePodAffinity (none)', scope('CrossNamespacePodAffinity'), bestEffort, false],
  ];
  it.each(rows)('%s', (_n, s, obj, want) => {
    expect(evaluatorFor('', 'pods').matchesScope(s, obj)).toBe(want);
  });
  it('a scoped quota never matches an object counted without scopes', () => {
    const q = { spec: { scopes: ['BestEffort'] }, status: { hard: { 'count/configmaps': '1' } } };
    expect(quotaMatches(evaluatorFor('', 'configmaps'), q, {})).toBe(false);
    expect(quotaMatches(evaluatorFor('', 'configmaps'), { status: { hard: { 'count/configmaps': '1' } } }, {})).toBe(true);
    // spec.hard alone does not count: status.hard is what matches
    expect(quotaMatches(evaluatorFor('', 'configmaps'), { spec: { hard: { 'count/configmaps': '1' } } }, {})).toBe(false);
  });
});

describe('pod constraints', () => {
  const ev = evaluatorFor('', 'pods');
  it.each([
    ['nothing required', ['pods'], pod({ containers: [c('a')] }), undefined],
    [
      'every container must state what a compute quota covers',
      ['requests.cpu', 'limits.memory', 'pods'],
      pod({ containers: [c('b'), c('a', { requests: { cpu: '1' } })], initContainers: [c('init')] }),
      'must specify limits.memory for: a,b,init; requests.cpu for: b,init',
    ],
    ['the cpu shorthand is a request', ['cpu'], pod({ containers: [c('a', { requests: { cpu: '1' } })] }), undefined],
    ['a limit is not a request', ['memory'], pod({ containers: [c('a', { limits: { memory: '1Gi' } })] }), 'must specify memory for: a'],
    ['ephemeral-storage is never required', ['requests.ephemeral-storage'], pod({ containers: [c('a')] }), undefined],
  ] as [string, string[], Obj, string | undefined][])('%s', (_n, required, obj, want) => {
    expect(ev.constraints(required, obj)).toBe(want);
  });
});
