// The node graph: pods bound, rebound and deleted; what a pod references;
// PVs with their claims and secrets; attachments; orphans dropped.
import { describe, expect, it } from 'vitest';
import type { Obj } from '../../storage/interface.ts';
import { NodeGraph, type VertexType } from './graph.ts';

const pod = (name: string, nodeName: string | undefined, spec: Obj = {}, extra: Obj = {}): Obj => ({
  metadata: { namespace: 'ns', name, ...(extra.metadata ?? {}) },
  spec: { nodeName, containers: [{ name: 'c', image: 'i' }], ...spec },
  ...(extra.status ? { status: extra.status } : {}),
});

describe('NodeGraph pods', () => {
  const full = pod(
    'p',
    'n1',
    {
      serviceAccountName: 'sa',
      imagePullSecrets: [{ name: 'pull' }],
      initContainers: [{ name: 'i', env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'init-env', key: 'k' } } }] }],
      containers: [
        {
          name: 'c',
          envFrom: [{ configMapRef: { name: 'cm-from' } }, { secretRef: { name: 's-from' } }],
          env: [{ name: 'B', valueFrom: { configMapKeyRef: { name: 'cm-env', key: 'k' } } }],
        },
      ],
      ephemeralContainers: [{ name: 'e', envFrom: [{ secretRef: { name: 'eph' } }] }],
      volumes: [
        { name: 'v1', secret: { secretName: 'vol-secret' } },
        { name: 'v2', configMap: { name: 'vol-cm' } },
        { name: 'v3', projected: { sources: [{ secret: { name: 'proj-secret' } }, { configMap: { name: 'proj-cm' } }, { serviceAccountToken: { path: 't' } }] } },
        { name: 'v4', persistentVolumeClaim: { claimName: 'claim' } },
        { name: 'v5', ephemeral: { volumeClaimTemplate: { spec: {} } } },
        { name: 'v6', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-secret' } } },
      ],
      resourceClaims: [
        { name: 'direct', resourceClaimName: 'rc-direct' },
        { name: 'tmpl', resourceClaimTemplateName: 't' },
        { name: 'pending', resourceClaimTemplateName: 't' },
      ],
    },
    { status: { resourceClaimStatuses: [{ name: 'tmpl', resourceClaimName: 'rc-generated' }] } },
  );

  const rows: [string, VertexType, string, boolean][] = [
    ['the service account', 'serviceAccount', 'sa', true],
    ['an image pull secret', 'secret', 'pull', true],
    ['an init container env secret', 'secret', 'init-env', true],
    ['an envFrom configmap', 'configmap', 'cm-from', true],
    ['an envFrom secret', 'secret', 's-from', true],
    ['an env configmap', 'configmap', 'cm-env', true],
    ['an ephemeral container secret', 'secret', 'eph', true],
    ['a secret volume', 'secret', 'vol-secret', true],
    ['a configmap volume', 'configmap', 'vol-cm', true],
    ['a projected secret', 'secret', 'proj-secret', true],
    ['a projected configmap', 'configmap', 'proj-cm', true],
    ['a PVC volume', 'pvc', 'claim', true],
    ['an ephemeral volume claim (<pod>-<volume>)', 'pvc', 'p-v5', true],
    ['a CSI node publish secret', 'secret', 'csi-secret', true],
    ['a resource claim named directly', 'resourceclaim', 'rc-direct', true],
    ['a resource claim from a template', 'resourceclaim', 'rc-generated', true],
    ['the pod itself', 'pod', 'p', true],
    ['an unreferenced secret', 'secret', 'other', false],
  ];
  it.each(rows)('a pod on n1 links %s', (_n, type, name, want) => {
    const g = new NodeGraph();
    g.addPod(full);
    expect(g.hasPathFrom('n1', type, 'ns', name)).toBe(want);
    expect(g.hasPathFrom('n2', type, 'ns', name)).toBe(false);
  });

  it('links nothing in another namespace', () => {
    const g = new NodeGraph();
    g.addPod(full);
    expect(g.hasPathFrom('n1', 'secret', 'other', 'pull')).toBe(false);
  });

  it('ignores a pod not bound to a node', () => {
    const g = new NodeGraph();
    g.addPod(pod('p', undefined, { volumes: [{ name: 'v', secret: { secretName: 's' } }] }));
    expect(g.size).toBe(0);
  });

  it('moves a rebound pod to its new node', () => {
    const g = new NodeGraph();
    const spec = { volumes: [{ name: 'v', secret: { secretName: 's' } }] };
    g.addPod(pod('p', 'n1', spec));
    g.addPod(pod('p', 'n2', spec));
    expect(g.hasPathFrom('n1', 'secret', 'ns', 's')).toBe(false);
    expect(g.hasPathFrom('n2', 'secret', 'ns', 's')).toBe(true);
  });

  it('drops a deleted pod and what only it referenced', () => {
    const g = new NodeGraph();
    g.addPod(
      pod('a', 'n1', {
        volumes: [
          { name: 'v', secret: { secretName: 'shared' } },
          { name: 'w', secret: { secretName: 'only-a' } },
        ],
      }),
    );
    g.addPod(pod('b', 'n1', { volumes: [{ name: 'v', secret: { secretName: 'shared' } }] }));
    g.deletePod('ns', 'a');
    expect(g.has('secret', 'ns', 'only-a')).toBe(false);
    expect(g.hasPathFrom('n1', 'secret', 'ns', 'only-a')).toBe(false);
    expect(g.hasPathFrom('n1', 'secret', 'ns', 'shared')).toBe(true);
    g.deletePod('ns', 'b');
    expect(g.size).toBe(0);
  });

  it('a secret shared by pods on two nodes is readable by both', () => {
    const g = new NodeGraph();
    const spec = { volumes: [{ name: 'v', secret: { secretName: 's' } }] };
    g.addPod(pod('a', 'n1', spec));
    g.addPod(pod('b', 'n2', spec));
    expect(g.hasPathFrom('n1', 'secret', 'ns', 's')).toBe(true);
    expect(g.hasPathFrom('n2', 'secret', 'ns', 's')).toBe(true);
    g.deletePod('ns', 'b');
    expect(g.hasPathFrom('n2', 'secret', 'ns', 's')).toBe(false);
  });

  it('gives a mirror pod only its node edge', () => {
    const g = new NodeGraph();
    g.addPod(pod('m', 'n1', { serviceAccountName: 'sa', volumes: [{ name: 'v', secret: { secretName: 's' } }] }, { metadata: { annotations: { 'kubernetes.io/config.mirror': 'x' } } }));
    expect(g.hasPathFrom('n1', 'pod', 'ns', 'm')).toBe(true);
    expect(g.hasPathFrom('n1', 'secret', 'ns', 's')).toBe(false);
    expect(g.hasPathFrom('n1', 'serviceAccount', 'ns', 'sa')).toBe(false);
  });
});

describe('NodeGraph persistent volumes', () => {
  const pv = (name: string, claim: Obj | undefined, source: Obj): Obj => ({ metadata: { name }, spec: { claimRef: claim, ...source } });

  it('links a PV and its secrets through the bound claim of a pod on the node', () => {
    const g = new NodeGraph();
    g.addPod(pod('p', 'n1', { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'claim' } }] }));
    g.addPV(
      pv(
        'vol',
        { namespace: 'ns', name: 'claim' },
        {
          csi: { driver: 'd', nodeStageSecretRef: { namespace: 'sec', name: 'stage' }, controllerPublishSecretRef: { namespace: 'sec', name: 'controller' } },
        },
      ),
    );
    expect(g.hasPathFrom('n1', 'pv', '', 'vol')).toBe(true);
    expect(g.hasPathFrom('n1', 'secret', 'sec', 'stage')).toBe(true);
    // the controller's secrets are not the kubelet's
    expect(g.hasPathFrom('n1', 'secret', 'sec', 'controller')).toBe(false);
    expect(g.hasPathFrom('n2', 'pv', '', 'vol')).toBe(false);
  });

  it('puts a secret reference without a namespace in the claim namespace', () => {
    const g = new NodeGraph();
    g.addPod(pod('p', 'n1', { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'claim' } }] }));
    g.addPV(pv('vol', { namespace: 'ns', name: 'claim' }, { rbd: { monitors: ['m'], image: 'i', secretRef: { name: 'ceph' } } }));
    expect(g.hasPathFrom('n1', 'secret', 'ns', 'ceph')).toBe(true);
  });

  it('links nothing for an unbound PV, and forgets a deleted one', () => {
    const g = new NodeGraph();
    g.addPod(pod('p', 'n1', { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'claim' } }] }));
    g.addPV(pv('free', undefined, { csi: { driver: 'd', nodePublishSecretRef: { namespace: 'ns', name: 's' } } }));
    expect(g.has('pv', '', 'free')).toBe(false);
    g.addPV(pv('vol', { namespace: 'ns', name: 'claim' }, { csi: { driver: 'd', nodePublishSecretRef: { namespace: 'ns', name: 's' } } }));
    expect(g.hasPathFrom('n1', 'secret', 'ns', 's')).toBe(true);
    g.deletePV('vol');
    expect(g.hasPathFrom('n1', 'secret', 'ns', 's')).toBe(false);
    expect(g.hasPathFrom('n1', 'pvc', 'ns', 'claim')).toBe(true);
  });
});

describe('NodeGraph node-scoped objects', () => {
  it('links a volume attachment and a resource slice to their node only', () => {
    const g = new NodeGraph();
    g.addVolumeAttachment('va', 'n1');
    g.addResourceSlice('slice', 'n2');
    expect(g.hasPathFrom('n1', 'volumeattachment', '', 'va')).toBe(true);
    expect(g.hasPathFrom('n2', 'volumeattachment', '', 'va')).toBe(false);
    expect(g.hasPathFrom('n2', 'resourceslice', '', 'slice')).toBe(true);
    g.addVolumeAttachment('va', 'n2');
    expect(g.hasPathFrom('n1', 'volumeattachment', '', 'va')).toBe(false);
    g.deleteVolumeAttachment('va');
    g.deleteResourceSlice('slice');
    expect(g.size).toBe(0);
  });

  it('lists the names of one type for a resync', () => {
    const g = new NodeGraph();
    g.addPod(pod('a', 'n1'));
    g.addPod(pod('b', 'n2'));
    expect(
      g
        .names('pod')
        .map((n) => n.name)
        .sort(),
    ).toEqual(['a', 'b']);
    expect(
      g
        .names('node')
        .map((n) => n.name)
        .sort(),
    ).toEqual(['n1', 'n2']);
  });
});
