// The Node authorizer's decisions: who counts as a node, graph-scoped reads,
// token creation, leases and CSINodes, the static node rules, upstream's reasons.
import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../auth/user.ts';
import { pathAttributes, resourceAttributes, type Attributes } from '../attributes.ts';
import { buildAuthorization } from '../modes.ts';
import { NodeAuthorizer, nodeIdentity, nodeMode } from './authorizer.ts';
import { NodeGraph } from './graph.ts';

const node = (name: string): UserInfo => ({ name: `system:node:${name}`, groups: ['system:nodes', 'system:authenticated'] });
const n1 = node('n1');

function graph(): NodeGraph {
  const g = new NodeGraph();
  g.addPod({
    metadata: { namespace: 'ns', name: 'p1' },
    spec: {
      nodeName: 'n1',
      serviceAccountName: 'sa1',
      containers: [{ name: 'c', envFrom: [{ configMapRef: { name: 'cm1' } }] }],
      volumes: [
        { name: 'v', secret: { secretName: 's1' } },
        { name: 'w', persistentVolumeClaim: { claimName: 'claim1' } },
      ],
      resourceClaims: [{ name: 'r', resourceClaimName: 'rc1' }],
    },
  });
  g.addPod({ metadata: { namespace: 'ns', name: 'p2' }, spec: { nodeName: 'n2', serviceAccountName: 'sa2', volumes: [{ name: 'v', secret: { secretName: 's2' } }] } });
  g.addPV({ metadata: { name: 'pv1' }, spec: { claimRef: { namespace: 'ns', name: 'claim1' } } });
  g.addVolumeAttachment('va1', 'n1');
  return g;
}

type Row = [string, Attributes, 'allow' | 'noopinion', string];
const r = (user: UserInfo, verb: string, resource: string, more: Partial<Omit<Attributes, 'user' | 'verb'>> = {}) => resourceAttributes(user, verb, { resource, ...more });
const NO_REL = "no relationship found between node 'n1' and this object";

describe('nodeIdentity', () => {
  const rows: [string, UserInfo, string | undefined][] = [
    ['a node', n1, 'n1'],
    ['the prefix without the group', { name: 'system:node:n1', groups: ['system:authenticated'] }, undefined],
    ['the group without the prefix', { name: 'alice', groups: ['system:nodes'] }, undefined],
    ['an empty node name', { name: 'system:node:', groups: ['system:nodes'] }, ''],
  ];
  it.each(rows)('%s', (_n, user, want) => expect(nodeIdentity(user)).toBe(want));
});

describe('NodeAuthorizer', () => {
  const rows: Row[] = [
    ['reads the secret of its pod', r(n1, 'get', 'secrets', { namespace: 'ns', name: 's1' }), 'allow', ''],
    ['lists (one named) secret of its pod', r(n1, 'list', 'secrets', { namespace: 'ns', name: 's1' }), 'allow', ''],
    ["not another node's pod's secret", r(n1, 'get', 'secrets', { namespace: 'ns', name: 's2' }), 'noopinion', NO_REL],
    ['not an unknown secret', r(n1, 'get', 'secrets', { namespace: 'ns', name: 'nope' }), 'noopinion', NO_REL],
    ['not all secrets', r(n1, 'list', 'secrets', { namespace: 'ns' }), 'noopinion', 'No Object name found'],
    ['not secrets across namespaces', r(n1, 'list', 'secrets'), 'noopinion', 'can only read namespaced object of this type'],
    ['never writes a secret', r(n1, 'update', 'secrets', { namespace: 'ns', name: 's1' }), 'noopinion', 'can only read resources of this type'],
    ['no secret subresource', r(n1, 'get', 'secrets', { namespace: 'ns', name: 's1', subresource: 'x' }), 'noopinion', 'cannot read subresource'],
    ['reads a configmap of envFrom', r(n1, 'watch', 'configmaps', { namespace: 'ns', name: 'cm1' }), 'allow', ''],
    ['reads its claim', r(n1, 'get', 'persistentvolumeclaims', { namespace: 'ns', name: 'claim1' }), 'allow', ''],
    ['does not list claims', r(n1, 'list', 'persistentvolumeclaims', { namespace: 'ns' }), 'noopinion', 'can only get individual resources of this type'],
    ["updates its claim's status", r(n1, 'patch', 'persistentvolumeclaims', { namespace: 'ns', name: 'claim1', subresource: 'status' }), 'allow', ''],
    ['does not get claim status', r(n1, 'get', 'persistentvolumeclaims', { namespace: 'ns', name: 'claim1', subresource: 'status' }), 'noopinion', 'can only get/update/patch this type'],
    ['reads the PV of its claim', r(n1, 'get', 'persistentvolumes', { name: 'pv1' }), 'allow', ''],
    ['reads its resource claim', r(n1, 'get', 'resourceclaims', { apiGroup: 'resource.k8s.io', namespace: 'ns', name: 'rc1' }), 'allow', ''],
    ['reads its volume attachment', r(n1, 'get', 'volumeattachments', { apiGroup: 'storage.k8s.io', name: 'va1' }), 'allow', ''],
    ['creates a token for the account of its pod', r(n1, 'create', 'serviceaccounts', { namespace: 'ns', name: 'sa1', subresource: 'token' }), 'allow', ''],
    ['not for the account of a pod elsewhere', r(n1, 'create', 'serviceaccounts', { namespace: 'ns', name: 'sa2', subresource: 'token' }), 'noopinion', NO_REL],
    ['not reading service accounts', r(n1, 'get', 'serviceaccounts', { namespace: 'ns', name: 'sa1' }), 'noopinion', 'can only create tokens for individual service accounts'],
    ['only the token subresource', r(n1, 'create', 'serviceaccounts', { namespace: 'ns', name: 'sa1' }), 'noopinion', 'can only create token subresource of serviceaccount'],
    ['its own lease', r(n1, 'update', 'leases', { apiGroup: 'coordination.k8s.io', namespace: 'kube-node-lease', name: 'n1' }), 'allow', ''],
    ['creates a lease (the name is checked by admission)', r(n1, 'create', 'leases', { apiGroup: 'coordination.k8s.io', namespace: 'kube-node-lease' }), 'allow', ''],
    [
      "not another node's lease",
      r(n1, 'get', 'leases', { apiGroup: 'coordination.k8s.io', namespace: 'kube-node-lease', name: 'n2' }),
      'noopinion',
      'can only access node lease with the same name as the requesting node',
    ],
    [
      'no leases elsewhere',
      r(n1, 'get', 'leases', { apiGroup: 'coordination.k8s.io', namespace: 'default', name: 'n1' }),
      'noopinion',
      'can only access leases in the "kube-node-lease" system namespace',
    ],
    ['no lease lists', r(n1, 'list', 'leases', { apiGroup: 'coordination.k8s.io', namespace: 'kube-node-lease' }), 'noopinion', 'can only get, create, update, patch, or delete a node lease'],
    ['its own CSINode', r(n1, 'patch', 'csinodes', { apiGroup: 'storage.k8s.io', name: 'n1' }), 'allow', ''],
    ["not another node's CSINode", r(n1, 'delete', 'csinodes', { apiGroup: 'storage.k8s.io', name: 'n2' }), 'noopinion', 'can only access CSINode with the same name as the requesting node'],
    ['node rules: list pods', r(n1, 'list', 'pods'), 'allow', ''],
    ['node rules: update node status', r(n1, 'update', 'nodes', { name: 'n2', subresource: 'status' }), 'allow', ''],
    ['node rules: evict', r(n1, 'create', 'pods', { namespace: 'ns', name: 'p1', subresource: 'eviction' }), 'allow', ''],
    ['node rules: create events', r(n1, 'create', 'events', { namespace: 'ns' }), 'allow', ''],
    ['node rules: CSRs', r(n1, 'create', 'certificatesigningrequests', { apiGroup: 'certificates.k8s.io' }), 'allow', ''],
    ['not in the node rules: delete nodes', r(n1, 'delete', 'nodes', { name: 'n1' }), 'noopinion', ''],
    ['not in the node rules: deployments', r(n1, 'get', 'deployments', { apiGroup: 'apps', namespace: 'ns', name: 'd' }), 'noopinion', ''],
    ['no paths', pathAttributes(n1, 'get', '/healthz'), 'noopinion', ''],
    ['no opinion for other users', r({ name: 'alice', groups: [] }, 'get', 'secrets', { namespace: 'ns', name: 's1' }), 'noopinion', ''],
    ['an unknown node', r({ name: 'system:node:', groups: ['system:nodes'] }, 'get', 'pods'), 'noopinion', 'unknown node for user "system:node:"'],
  ];
  it.each(rows)('%s', (_n, a, decision, reason) => {
    const got = new NodeAuthorizer(graph()).authorize(a);
    expect(got).toEqual({ decision, reason });
  });

  it('loses access once the pod goes', () => {
    const g = graph();
    const z = new NodeAuthorizer(g);
    const a = r(n1, 'get', 'secrets', { namespace: 'ns', name: 's1' });
    expect(z.authorize(a).decision).toBe('allow');
    g.deletePod('ns', 'p1');
    expect(z.authorize(a)).toEqual({ decision: 'noopinion', reason: NO_REL });
  });
});

describe('Node mode', () => {
  it('cannot list rules for nodes and lists none for others', async () => {
    const m = nodeMode(new NodeGraph());
    expect(await m.ruleResolver.rulesFor(n1, 'ns')).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: true, error: 'node authorizer does not support user rule resolution' });
    expect(await m.ruleResolver.rulesFor({ name: 'alice', groups: [] }, 'ns')).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
  });

  it('is built by --authorization-mode=Node over the given graph', async () => {
    const built = buildAuthorization(['Node'], { nodeGraph: graph() });
    expect(built.modes).toEqual(['Node']);
    expect((await built.authorizer.authorize(r(n1, 'get', 'secrets', { namespace: 'ns', name: 's1' }))).decision).toBe('allow');
    expect((await built.authorizer.authorize(r({ name: 'alice', groups: [] }, 'get', 'pods'))).decision).toBe('noopinion');
  });
});
