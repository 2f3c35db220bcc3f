// The small default-on admission plugins through the HTTP API:
// DefaultTolerationSeconds (and its flags, and turning it off),
// TaintNodesByCondition, DefaultStorageClass, StorageObjectInUseProtection,
// PersistentVolumeClaimResize, RuntimeClass and DefaultIngressClass, each
// with its effect on the stored object and its refusals (upstream's texts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

const JSON_CT = { 'content-type': 'application/json' };
const MERGE = { 'content-type': 'application/merge-patch+json' };
const send = async (s: RunningServer, method: string, path: string, body?: unknown, headers: Record<string, string> = JSON_CT) => {
  const r = await s.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
};
const pod = (name: string, spec: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec } });
const pvc = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolumeClaim',
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const storageClass = (name: string, extra: Record<string, unknown> = {}, isDefault = false) => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name, ...(isDefault ? { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } } : {}) },
  provisioner: 'example.com/disk',
  ...extra,
});
const PODS = '/api/v1/namespaces/default/pods';
const PVCS = '/api/v1/namespaces/default/persistentvolumeclaims';
const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

describe('the default plugins', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('DefaultTolerationSeconds: a Pod gets the not-ready and unreachable tolerations', async () => {
    const r = await send(s, 'POST', PODS, pod('tolerated'));
    expect(r.status).toBe(201);
    expect(r.json.spec.tolerations).toEqual(DEFAULT_TOLERATIONS);
    const own = await send(s, 'POST', PODS, pod('own', { tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] }));
    expect(own.json.spec.tolerations).toEqual([{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }, DEFAULT_TOLERATIONS[1]]);
  });

  it('TaintNodesByCondition: a Node is created with the not-ready NoSchedule taint', async () => {
    const r = await send(s, 'POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'worker-1' } });
    expect(r.status).toBe(201);
    expect(r.json.spec.taints).toEqual([{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }]);
  });

  it('StorageObjectInUseProtection: PVCs and PVs get their protection finalizers', async () => {
    const claim = await send(s, 'POST', PVCS, pvc('protected', { storageClassName: '' }));
    expect(claim.status).toBe(201);
    expect(claim.json.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
    const pv = await send(s, 'POST', '/api/v1/persistentvolumes', {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-1' },
      spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/data' } },
    });
    expect(pv.status).toBe(201);
    expect(pv.json.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);
  });

  it('DefaultStorageClass: no default leaves a claim alone; then the default, the newest of several', async () => {
    expect((await send(s, 'POST', PVCS, pvc('before-default'))).json.spec.storageClassName).toBeUndefined();
    expect((await send(s, 'POST', '/apis/storage.k8s.io/v1/storageclasses', storageClass('standard', {}, true))).status).toBe(201);
    const r = await send(s, 'POST', PVCS, pvc('defaulted'));
    expect(r.status).toBe(201);
    expect(r.json.spec.storageClassName).toBe('standard');
    expect((await send(s, 'POST', PVCS, pvc('named', { storageClassName: 'fast' }))).json.spec.storageClassName).toBe('fast');
  });

  it('PersistentVolumeClaimResize: growing a bound claim needs a class that allows expansion', async () => {
    expect((await send(s, 'POST', '/apis/storage.k8s.io/v1/storageclasses', storageClass('fixed'))).status).toBe(201);
    expect((await send(s, 'POST', '/apis/storage.k8s.io/v1/storageclasses', storageClass('growable', { allowVolumeExpansion: true }))).status).toBe(201);
    for (const [name, cls] of [
      ['fixed-claim', 'fixed'],
      ['growable-claim', 'growable'],
    ]) {
      expect((await send(s, 'POST', PVCS, pvc(name, { storageClassName: cls }))).status).toBe(201);
      const bound = await send(s, 'PATCH', `${PVCS}/${name}/status`, { status: { phase: 'Bound', capacity: { storage: '1Gi' } } }, MERGE);
      expect(bound.status).toBe(200);
    }
    const grow = { spec: { resources: { requests: { storage: '2Gi' } } } };
    const refused = await send(s, 'PATCH', `${PVCS}/fixed-claim`, grow, MERGE);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: 'persistentvolumeclaims "fixed-claim" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize',
      details: { name: 'fixed-claim', kind: 'persistentvolumeclaims' },
    });
    const grown = await send(s, 'PATCH', `${PVCS}/growable-claim`, grow, MERGE);
    expect(grown.status).toBe(200);
    expect(grown.json.spec.resources.requests.storage).toBe('2Gi');
  });

  it('RuntimeClass: overhead and scheduling from the class; a missing class and conflicts refused', async () => {
    const rc = await send(s, 'POST', '/apis/node.k8s.io/v1/runtimeclasses', {
      apiVersion: 'node.k8s.io/v1',
      kind: 'RuntimeClass',
      metadata: { name: 'sandboxed' },
      handler: 'runsc',
      overhead: { podFixed: { cpu: '250m', memory: '64Mi' } },
      scheduling: { nodeSelector: { sandbox: 'gvisor' }, tolerations: [{ key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }] },
    });
    expect(rc.status).toBe(201);
    const r = await send(s, 'POST', PODS, pod('sandboxed', { runtimeClassName: 'sandboxed', nodeSelector: { zone: 'a' } }));
    expect(r.status).toBe(201);
    expect(r.json.spec.overhead).toEqual({ cpu: '250m', memory: '64Mi' });
    expect(r.json.spec.nodeSelector).toEqual({ zone: 'a', sandbox: 'gvisor' });
    expect(r.json.spec.tolerations).toEqual([...DEFAULT_TOLERATIONS, { key: 'sandbox', operator: 'Exists', effect: 'NoSchedule' }]);
    for (const [name, spec, message] of [
      ['missing', { runtimeClassName: 'nope' }, 'pods "missing" is forbidden: pod rejected: RuntimeClass "nope" not found'],
      ['overhead', { runtimeClassName: 'sandboxed', overhead: { cpu: '1' } }, "pods \"overhead\" is forbidden: pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"],
      [
        'conflict',
        { runtimeClassName: 'sandboxed', nodeSelector: { sandbox: 'kata' } },
        'pods "conflict" is forbidden: conflict: runtimeClass.scheduling.nodeSelector[sandbox] = gvisor; pod.spec.nodeSelector[sandbox] = kata',
      ],
      ['no-class', { overhead: { cpu: '1' } }, 'pods "no-class" is forbidden: pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead'],
    ] as const) {
      const refused = await send(s, 'POST', PODS, pod(name, spec));
      expect({ status: refused.status, reason: refused.json.reason, message: refused.json.message }).toEqual({ status: 403, reason: 'Forbidden', message });
    }
  });

  it('DefaultIngressClass: an Ingress without a class gets the default one', async () => {
    const ingress = (name: string, spec: Record<string, unknown> = {}) => ({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name },
      spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...spec },
    });
    const INGRESSES = '/apis/networking.k8s.io/v1/namespaces/default/ingresses';
    expect((await send(s, 'POST', INGRESSES, ingress('before'))).json.spec.ingressClassName).toBeUndefined();
    const ic = await send(s, 'POST', '/apis/networking.k8s.io/v1/ingressclasses', {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'IngressClass',
      metadata: { name: 'nginx', annotations: { 'ingressclass.kubernetes.io/is-default-class': 'true' } },
      spec: { controller: 'k8s.io/ingress-nginx' },
    });
    expect(ic.status).toBe(201);
    const r = await send(s, 'POST', INGRESSES, ingress('after'));
    expect(r.status).toBe(201);
    expect(r.json.spec.ingressClassName).toBe('nginx');
    expect((await send(s, 'POST', INGRESSES, ingress('own', { ingressClassName: 'traefik' }))).json.spec.ingressClassName).toBe('traefik');
  });
});

describe('DefaultTolerationSeconds configured and turned off', () => {
  let tuned: RunningServer;
  let off: RunningServer;
  beforeAll(async () => {
    [tuned, off] = await Promise.all([
      startServer({ authorizationMode: ['AlwaysAllow'], defaultNotReadyTolerationSeconds: 30, defaultUnreachableTolerationSeconds: 60 }),
      startServer({ authorizationMode: ['AlwaysAllow'], disableAdmissionPlugins: ['DefaultTolerationSeconds'] }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([tuned?.stop(), off?.stop()]);
  });

  it('--default-*-toleration-seconds set the seconds', async () => {
    const r = await send(tuned, 'POST', PODS, pod('p'));
    expect(r.json.spec.tolerations.map((t: { tolerationSeconds: number }) => t.tolerationSeconds)).toEqual([30, 60]);
  });

  it('--disable-admission-plugins=DefaultTolerationSeconds: no tolerations added', async () => {
    const r = await send(off, 'POST', PODS, pod('p'));
    expect(r.status).toBe(201);
    expect(r.json.spec.tolerations).toBeUndefined();
  });
});
