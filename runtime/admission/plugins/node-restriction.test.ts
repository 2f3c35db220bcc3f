// NodeRestriction admission, one row per upstream rule: mirror pods, pod
// deletes, status and evictions, Node writes (names, configSource, taints,
// labels), PVC status, leases, CSINodes and token requests; other users pass.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import type { UserInfo } from '../../auth/user.ts';
import type { Obj } from '../../storage/interface.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { forbiddenNodeLabels } from './node-labels.ts';
import { nodeRestrictionPlugin } from './node-restriction.ts';

const n1: UserInfo = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const pods: Record<string, Obj> = {
  mine: { metadata: { namespace: 'ns', name: 'mine', uid: 'uid-mine' }, spec: { nodeName: 'n1' } },
  theirs: { metadata: { namespace: 'ns', name: 'theirs', uid: 'uid-theirs' }, spec: { nodeName: 'n2' } },
};
const plugin = nodeRestrictionPlugin({
  pod: async (_ns, name) => pods[name],
  node: async (name) => (name === 'n1' ? { metadata: { name: 'n1', uid: 'node-uid' } } : undefined),
});

const attrs = (over: Partial<AdmissionAttributes>): AdmissionAttributes => ({
  operation: 'CREATE',
  group: '',
  version: 'v1',
  kind: 'Pod',
  resource: 'pods',
  subresource: '',
  namespace: 'ns',
  name: '',
  object: null,
  oldObject: null,
  dryRun: false,
  user: n1,
  ...over,
});

const owner = { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'node-uid', controller: true };
const mirror = (spec: Obj = {}, meta: Obj = {}): Obj => ({
  metadata: { name: 'static', annotations: { 'kubernetes.io/config.mirror': 'hash' }, ownerReferences: [owner], ...meta },
  spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }], ...spec },
});
const node = (labels: Obj = {}, spec: Obj = {}): Obj => ({ metadata: { name: 'n1', labels }, spec });
const pvc = (status: Obj, meta: Obj = {}): Obj => ({ metadata: { namespace: 'ns', name: 'c', resourceVersion: '5', ...meta }, spec: { resources: {} }, status });

type Row = [string, AdmissionAttributes, number | undefined, string?];
const rows: Row[] = [
  // pods
  ['a mirror pod bound to itself', attrs({ object: mirror() }), undefined],
  [
    'a pod without the mirror annotation',
    attrs({ object: { metadata: { name: 'p' }, spec: { nodeName: 'n1' } } }),
    403,
    'pods "p" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods',
  ],
  ['a mirror pod bound elsewhere', attrs({ object: mirror({ nodeName: 'n2' }) }), 403, 'pods "static" is forbidden: node "n1" can only create pods with spec.nodeName set to itself'],
  ['a mirror pod without owner', attrs({ object: mirror({}, { ownerReferences: [] }) }), 403, 'node "n1" can only create pods with an owner reference set to itself'],
  ['a mirror pod with two owners', attrs({ object: mirror({}, { ownerReferences: [owner, owner] }) }), 403, 'node "n1" can only create pods with a single owner reference set to itself'],
  ['a mirror pod owned by another node', attrs({ object: mirror({}, { ownerReferences: [{ ...owner, name: 'n2' }] }) }), 403, 'node "n1" can only create pods with an owner reference set to itself'],
  [
    'an owner that is not the controller',
    attrs({ object: mirror({}, { ownerReferences: [{ ...owner, controller: false }] }) }),
    403,
    'node "n1" can only create pods with a controller owner reference set to itself',
  ],
  ['blockOwnerDeletion', attrs({ object: mirror({}, { ownerReferences: [{ ...owner, blockOwnerDeletion: true }] }) }), 403, 'node "n1" must not set blockOwnerDeletion on an owner reference'],
  ['a stale node uid', attrs({ object: mirror({}, { ownerReferences: [{ ...owner, uid: 'old' }] }) }), 403, 'node n1 UID mismatch: expected old got node-uid'],
  ['a mirror pod naming a service account', attrs({ object: mirror({ serviceAccountName: 'default' }) }), 403, 'node "n1" can not create pods that reference a service account'],
  ['a mirror pod naming a secret', attrs({ object: mirror({ volumes: [{ name: 'v', secret: { secretName: 's' } }] }) }), 403, 'node "n1" can not create pods that reference secrets'],
  [
    'a mirror pod naming a configmap',
    attrs({ object: mirror({ containers: [{ name: 'c', envFrom: [{ configMapRef: { name: 'cm' } }] }] }) }),
    403,
    'node "n1" can not create pods that reference configmaps',
  ],
  [
    'a mirror pod naming a trust bundle',
    attrs({ object: mirror({ volumes: [{ name: 'v', projected: { sources: [{ clusterTrustBundle: { name: 'b', path: 'p' } }] } }] }) }),
    403,
    'node "n1" can not create pods that reference clustertrustbundles',
  ],
  [
    'a mirror pod naming a claim',
    attrs({ object: mirror({ volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'c' } }] }) }),
    403,
    'node "n1" can not create pods that reference persistentvolumeclaims',
  ],
  ['deleting its pod', attrs({ operation: 'DELETE', name: 'mine', oldObject: pods.mine }), undefined],
  [
    "deleting another node's pod",
    attrs({ operation: 'DELETE', name: 'theirs', oldObject: pods.theirs }),
    403,
    'pods "theirs" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself',
  ],
  ['updating a pod', attrs({ operation: 'UPDATE', name: 'mine', object: pods.mine, oldObject: pods.mine }), 403, 'unexpected operation "UPDATE", node "n1" can only create and delete mirror pods'],
  ['status of its pod', attrs({ operation: 'UPDATE', subresource: 'status', name: 'mine', object: { ...pods.mine, status: { phase: 'Running' } }, oldObject: pods.mine }), undefined],
  [
    "status of another node's pod",
    attrs({ operation: 'UPDATE', subresource: 'status', name: 'theirs', object: pods.theirs, oldObject: pods.theirs }),
    403,
    'node "n1" can only update pod status for pods with spec.nodeName set to itself',
  ],
  [
    'labels through pod status',
    attrs({ operation: 'UPDATE', subresource: 'status', name: 'mine', object: { ...pods.mine, metadata: { ...pods.mine.metadata, labels: { a: 'b' } } }, oldObject: pods.mine }),
    403,
    'node "n1" cannot update labels through pod status',
  ],
  [
    'resource claim statuses',
    attrs({ operation: 'UPDATE', subresource: 'status', name: 'mine', object: { ...pods.mine, status: { resourceClaimStatuses: [{ name: 'r', resourceClaimName: 'x' }] } }, oldObject: pods.mine }),
    403,
    'node "n1" cannot update resource claim statues',
  ],
  ['evicting its pod', attrs({ subresource: 'eviction', name: 'mine', object: { metadata: { name: 'mine' } } }), undefined],
  ["evicting another node's pod", attrs({ subresource: 'eviction', name: 'theirs', object: { metadata: { name: 'theirs' } } }), 403, 'node n1 can only evict pods with spec.nodeName set to itself'],
  ['evicting a missing pod', attrs({ subresource: 'eviction', name: 'gone', object: { metadata: { name: 'gone' } } }), 404, 'pods "gone" not found'],
  ['another pod subresource', attrs({ subresource: 'binding', name: 'mine', object: {} }), 403, `unexpected pod subresource "binding", only 'status' and 'eviction' are allowed`],
  // nodes
  ['registering itself', attrs({ kind: 'Node', resource: 'nodes', name: 'n1', object: node({ 'kubernetes.io/hostname': 'n1', 'example.com/x': 'y' }) }), undefined],
  [
    'changing another Node',
    attrs({ operation: 'UPDATE', kind: 'Node', resource: 'nodes', name: 'n2', object: node(), oldObject: node() }),
    403,
    'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"',
  ],
  [
    'registering with a configSource',
    attrs({ kind: 'Node', resource: 'nodes', name: 'n1', object: node({}, { configSource: { configMap: {} } }) }),
    403,
    'node "n1" is not allowed to create pods with a non-nil configSource',
  ],
  [
    'registering with restricted labels',
    attrs({ kind: 'Node', resource: 'nodes', name: 'n1', object: node({ 'node-restriction.kubernetes.io/a': 'x', 'node-role.kubernetes.io/master': '' }) }),
    403,
    'node "n1" is not allowed to set the following labels: node-restriction.kubernetes.io/a, node-role.kubernetes.io/master',
  ],
  [
    'changing its taints',
    attrs({ operation: 'UPDATE', kind: 'Node', resource: 'nodes', name: 'n1', object: node({}, { taints: [] }), oldObject: node({}, { taints: [{ key: 'k', effect: 'NoSchedule' }] }) }),
    403,
    'node "n1" is not allowed to modify taints',
  ],
  ['no taints either side', attrs({ operation: 'UPDATE', kind: 'Node', resource: 'nodes', name: 'n1', object: node({}, { taints: [] }), oldObject: node() }), undefined],
  [
    'a new configSource',
    attrs({ operation: 'UPDATE', kind: 'Node', resource: 'nodes', name: 'n1', object: node({}, { configSource: { configMap: { name: 'x' } } }), oldObject: node() }),
    403,
    'node "n1" is not allowed to update configSource to a new non-nil configSource',
  ],
  [
    'removing a restricted label',
    attrs({ operation: 'UPDATE', kind: 'Node', resource: 'nodes', subresource: 'status', name: 'n1', object: node(), oldObject: node({ 'node-restriction.kubernetes.io/a': 'x' }) }),
    403,
    'is not allowed to modify labels: node-restriction.kubernetes.io/a',
  ],
  [
    'changing its own labels',
    attrs({ operation: 'UPDATE', kind: 'Node', resource: 'nodes', name: 'n1', object: node({ 'kubernetes.io/os': 'linux', 'node.kubernetes.io/x': '1' }), oldObject: node() }),
    undefined,
  ],
  // PVCs
  [
    'PVC capacity and conditions',
    attrs({
      operation: 'UPDATE',
      kind: 'PersistentVolumeClaim',
      resource: 'persistentvolumeclaims',
      subresource: 'status',
      name: 'c',
      object: pvc({ phase: 'Bound', capacity: { storage: '2Gi' } }, { resourceVersion: '' }),
      oldObject: pvc({ phase: 'Bound' }),
    }),
    undefined,
  ],
  [
    'PVC phase',
    attrs({
      operation: 'UPDATE',
      kind: 'PersistentVolumeClaim',
      resource: 'persistentvolumeclaims',
      subresource: 'status',
      name: 'c',
      object: pvc({ phase: 'Lost' }),
      oldObject: pvc({ phase: 'Bound' }),
    }),
    403,
    'node "n1" is not allowed to update fields other than status.capacity and status.conditions: status changed',
  ],
  [
    'a PVC itself',
    attrs({ operation: 'UPDATE', kind: 'PersistentVolumeClaim', resource: 'persistentvolumeclaims', name: 'c', object: pvc({}), oldObject: pvc({}) }),
    403,
    'may only update PVC status',
  ],
  // leases and CSINodes
  ['creating its lease', attrs({ kind: 'Lease', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'n1', object: { metadata: { name: 'n1' } } }), undefined],
  [
    "creating another node's lease",
    attrs({ kind: 'Lease', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'n2', object: { metadata: { name: 'n2' } } }),
    403,
    'can only access node lease with the same name as the requesting node',
  ],
  [
    'a lease elsewhere',
    attrs({ operation: 'DELETE', kind: 'Lease', group: 'coordination.k8s.io', resource: 'leases', namespace: 'default', name: 'n1', oldObject: {} }),
    403,
    'can only access leases in the "kube-node-lease" system namespace',
  ],
  ['updating its CSINode', attrs({ operation: 'UPDATE', kind: 'CSINode', group: 'storage.k8s.io', resource: 'csinodes', namespace: '', name: 'n1', object: {}, oldObject: {} }), undefined],
  [
    "creating another node's CSINode",
    attrs({ kind: 'CSINode', group: 'storage.k8s.io', resource: 'csinodes', namespace: '', name: 'n2', object: { metadata: { name: 'n2' } } }),
    403,
    'csinodes.storage.k8s.io "n2" is forbidden: can only access CSINode with the same name as the requesting node',
  ],
  // tokens
  [
    'a token bound to its pod',
    attrs({
      kind: 'TokenRequest',
      resource: 'serviceaccounts',
      subresource: 'token',
      name: 'sa',
      object: { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'uid-mine' } } },
    }),
    undefined,
  ],
  [
    'an unbound token',
    attrs({ kind: 'TokenRequest', resource: 'serviceaccounts', subresource: 'token', name: 'sa', object: { spec: {} } }),
    403,
    'serviceaccounts "sa" is forbidden: node requested token not bound to a pod',
  ],
  [
    'a binding without uid',
    attrs({ kind: 'TokenRequest', resource: 'serviceaccounts', subresource: 'token', name: 'sa', object: { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'mine' } } } }),
    403,
    'node requested token with a pod binding without a uid',
  ],
  [
    'a stale pod uid',
    attrs({ kind: 'TokenRequest', resource: 'serviceaccounts', subresource: 'token', name: 'sa', object: { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'mine', uid: 'x' } } } }),
    403,
    'the UID in the bound object reference (x) does not match the UID in record. The object might have been deleted and then recreated',
  ],
  [
    'a token for a pod elsewhere',
    attrs({
      kind: 'TokenRequest',
      resource: 'serviceaccounts',
      subresource: 'token',
      name: 'sa',
      object: { spec: { boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'theirs', uid: 'uid-theirs' } } },
    }),
    403,
    'node requested token bound to a pod scheduled on a different node',
  ],
  // who
  ['other users', attrs({ user: { name: 'alice', groups: ['system:nodes'] }, object: { metadata: { name: 'p' }, spec: {} } }), undefined],
  [
    'a node without a name',
    attrs({ user: { name: 'system:node:', groups: ['system:nodes'] }, kind: 'ConfigMap', resource: 'configmaps', name: 'x', object: {} }),
    403,
    'could not determine node from user "system:node:"',
  ],
  ['resources it does not restrict', attrs({ kind: 'Event', resource: 'events', name: 'e', object: {} }), undefined],
];

describe('NodeRestriction', () => {
  it.each(rows)('%s', async (_n, a, code, message) => {
    let err: unknown;
    try {
      await plugin.admit!(a);
    } catch (e) {
      err = e;
    }
    if (code === undefined) {
      expect(err).toBeUndefined();
      return;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(code);
    expect((err as ApiError).message).toContain(message);
  });
});

describe('forbiddenNodeLabels', () => {
  const rows: [string, Obj | undefined, Obj | undefined, string[]][] = [
    ['kubelet labels', { 'kubernetes.io/hostname': 'h', 'topology.kubernetes.io/zone': 'z', 'kubelet.kubernetes.io/x': '1', 'a.node.kubernetes.io/y': '2' }, undefined, []],
    ['custom labels', { 'example.com/a': '1', plain: '2' }, undefined, []],
    [
      'node-restriction and subdomains',
      { 'node-restriction.kubernetes.io/a': '1', 'x.node-restriction.kubernetes.io/b': '2' },
      undefined,
      ['node-restriction.kubernetes.io/a', 'x.node-restriction.kubernetes.io/b'],
    ],
    ['other kubernetes.io and k8s.io labels', { 'node-role.kubernetes.io/control-plane': '', 'example.k8s.io/x': '' }, undefined, ['example.k8s.io/x', 'node-role.kubernetes.io/control-plane']],
    ['unchanged restricted labels', { 'node-role.kubernetes.io/worker': '' }, { 'node-role.kubernetes.io/worker': '' }, []],
    ['a removed restricted label', {}, { 'node-role.kubernetes.io/worker': '' }, ['node-role.kubernetes.io/worker']],
  ];
  it.each(rows)('%s', (_n, now, before, want) => expect(forbiddenNodeLabels(now, before)).toEqual(want));
});
