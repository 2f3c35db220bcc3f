// metadata.generation of every stored kind, as kube-apiserver 1.31's
// strategies keep it: a table of the upstream facts (which kinds set it on
// create, what moves it), driven through app.request() with one valid
// object per kind: create, change the content the kind counts, change the
// labels, change the annotations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { storedKinds, collectionPath, type FuzzKind } from '../fuzz/kinds.ts';
import { validObject } from '../fuzz/objects.ts';

let s: RunningServer;
const NS = 'gen';
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
});
afterAll(async () => {
  await s?.stop();
});

type Json = Record<string, any>;

async function call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; json: Json }> {
  const init: RequestInit = { method, headers: { 'content-type': contentType } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await s.app.request(path, init);
  return { status: res.status, json: (await res.json()) as Json };
}

const webhook = { name: 'a.example.com', clientConfig: { url: 'https://example.com/hook' }, admissionReviewVersions: ['v1'], sideEffects: 'None' };

/**
 * A merge patch changing what each kind's strategy compares (its spec for
 * most kinds), or the content a kind without a generation may change;
 * null where nothing of the content may change after create.
 */
const CONTENT: Record<string, Json | null> = {
  '/ConfigMap': { data: { key: 'changed' } },
  '/Secret': { data: { password: 'b3RoZXI=' } },
  '/Endpoints': { subsets: [{ addresses: [{ ip: '10.1.2.4' }], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] }] },
  '/Event': { message: 'changed' },
  '/LimitRange': { spec: { limits: [{ type: 'Container', max: { cpu: '3' } }] } },
  '/Namespace': null,
  '/Node': { spec: { unschedulable: true } },
  '/PersistentVolumeClaim': null,
  '/PersistentVolume': { spec: { persistentVolumeReclaimPolicy: 'Recycle' } },
  '/Pod': { spec: { activeDeadlineSeconds: 30 } },
  '/PodTemplate': { template: { spec: { activeDeadlineSeconds: 30 } } },
  '/ReplicationController': { spec: { minReadySeconds: 5 } },
  '/ResourceQuota': { spec: { hard: { pods: '11' } } },
  '/ServiceAccount': { automountServiceAccountToken: true },
  '/Service': { spec: { ports: [{ name: 'http', port: 81, targetPort: 8080, protocol: 'TCP' }] } },
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': { webhooks: [webhook] },
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': { webhooks: [webhook] },
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': { spec: { failurePolicy: 'Ignore' } },
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': { spec: { validationActions: ['Warn'] } },
  'apiextensions.k8s.io/CustomResourceDefinition': { spec: { names: { shortNames: ['gz'] } } },
  'apiregistration.k8s.io/APIService': { spec: { versionPriority: 11 } },
  'apps/ControllerRevision': { revision: 2 },
  'apps/DaemonSet': { spec: { minReadySeconds: 5 } },
  'apps/Deployment': { spec: { replicas: 3 } },
  'apps/ReplicaSet': { spec: { replicas: 2 } },
  'apps/StatefulSet': { spec: { replicas: 2 } },
  'autoscaling/HorizontalPodAutoscaler': { spec: { maxReplicas: 4 } },
  'batch/CronJob': { spec: { suspend: true } },
  'batch/Job': { spec: { parallelism: 2 } },
  'coordination.k8s.io/Lease': { spec: { holderIdentity: 'other' } },
  'discovery.k8s.io/EndpointSlice': { endpoints: [{ addresses: ['10.1.2.4'], conditions: { ready: true } }] },
  'events.k8s.io/Event': { series: { count: 2, lastObservedTime: '2024-01-01T00:00:01.000000Z' } },
  'flowcontrol.apiserver.k8s.io/FlowSchema': { spec: { matchingPrecedence: 5001 } },
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration': { spec: { limited: { nominalConcurrencyShares: 6 } } },
  'networking.k8s.io/IngressClass': { spec: { parameters: { apiGroup: 'example.com', kind: 'Params', name: 'p', scope: 'Cluster' } } },
  'networking.k8s.io/Ingress': { spec: { ingressClassName: 'other' } },
  'networking.k8s.io/NetworkPolicy': { spec: { policyTypes: ['Ingress', 'Egress'] } },
  'node.k8s.io/RuntimeClass': { scheduling: { nodeSelector: { pool: 'a' } } },
  'policy/PodDisruptionBudget': { spec: { minAvailable: 2 } },
  'rbac.authorization.k8s.io/ClusterRole': { rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] },
  'rbac.authorization.k8s.io/Role': { rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }] },
  'rbac.authorization.k8s.io/ClusterRoleBinding': { subjects: [{ kind: 'User', name: 'other', apiGroup: 'rbac.authorization.k8s.io' }] },
  'rbac.authorization.k8s.io/RoleBinding': { subjects: [{ kind: 'User', name: 'other', apiGroup: 'rbac.authorization.k8s.io' }] },
  'scheduling.k8s.io/PriorityClass': { description: 'changed' },
  'storage.k8s.io/CSIDriver': { spec: { requiresRepublish: true } },
  'storage.k8s.io/CSINode': null,
  'storage.k8s.io/CSIStorageCapacity': { capacity: '20Gi' },
  'storage.k8s.io/StorageClass': { allowVolumeExpansion: true },
  'storage.k8s.io/VolumeAttachment': null,
  // spec fixed after create; status only through its subresources
  'certificates.k8s.io/CertificateSigningRequest': null,
};

/** Upstream's facts: generation after create, content change, labels change, annotations change. */
type Steps = [number | undefined, number | undefined, number | undefined, number | undefined];
const NONE: Steps = [undefined, undefined, undefined, undefined];
const SPEC: Steps = [1, 2, 2, 2];
const EXPECTED: Record<string, Steps> = {
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': SPEC,
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': SPEC,
  'admissionregistration.k8s.io/ValidatingAdmissionPolicy': SPEC,
  'admissionregistration.k8s.io/ValidatingAdmissionPolicyBinding': SPEC,
  'apiextensions.k8s.io/CustomResourceDefinition': SPEC,
  'apps/DaemonSet': SPEC,
  // annotations count too: they are copied to the ReplicaSets
  'apps/Deployment': [1, 2, 2, 3],
  'apps/ReplicaSet': SPEC,
  'apps/StatefulSet': SPEC,
  '/ReplicationController': SPEC,
  // no spec: the template counts
  '/PodTemplate': SPEC,
  'batch/CronJob': SPEC,
  'batch/Job': SPEC,
  // everything but metadata counts, and the labels
  'discovery.k8s.io/EndpointSlice': [1, 2, 3, 3],
  'flowcontrol.apiserver.k8s.io/FlowSchema': SPEC,
  'flowcontrol.apiserver.k8s.io/PriorityLevelConfiguration': SPEC,
  'networking.k8s.io/IngressClass': SPEC,
  'networking.k8s.io/Ingress': SPEC,
  'networking.k8s.io/NetworkPolicy': SPEC,
  'policy/PodDisruptionBudget': SPEC,
  // not set on create; a spec change moves it from 0
  'storage.k8s.io/CSIDriver': [undefined, 1, 1, 1],
};

const kinds = storedKinds.filter((k) => k.def.verbs.includes('create'));

function key(k: FuzzKind): string {
  return `${k.def.group}/${k.def.kind}`;
}

describe('metadata.generation per kind', () => {
  it('covers every stored kind', () => {
    for (const k of kinds) expect(CONTENT, key(k)).toHaveProperty([key(k)]);
  });

  it.each(kinds.map((k, i) => [`${k.apiVersion} ${k.def.kind}`, k, i] as const))('%s', async (_label, k, i) => {
    const expected = EXPECTED[key(k)] ?? NONE;
    const obj = validObject(k, `gen-${i}`, NS);
    const created = await call('POST', collectionPath(k, NS), obj);
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const path = `${collectionPath(k, NS)}/${created.json.metadata.name}`;
    expect(created.json.metadata.generation).toBe(expected[0]);
    const content = CONTENT[key(k)];
    // a kind with nothing to change after create has no generation to move
    if (content === null) expect(expected).toEqual(NONE);
    if (content) {
      const r = await call('PATCH', path, content, 'application/merge-patch+json');
      expect(r.status, JSON.stringify(r.json)).toBe(200);
      expect(r.json.metadata.generation).toBe(expected[1]);
    }
    const labelled = await call('PATCH', path, { metadata: { labels: { step: 'labels' } } }, 'application/merge-patch+json');
    expect(labelled.status, JSON.stringify(labelled.json)).toBe(200);
    expect(labelled.json.metadata.generation).toBe(expected[2]);
    const annotated = await call('PATCH', path, { metadata: { annotations: { 'example.com/step': 'annotations' } } }, 'application/merge-patch+json');
    expect(annotated.status, JSON.stringify(annotated.json)).toBe(200);
    expect(annotated.json.metadata.generation).toBe(expected[3]);
  });
});

describe('what the client sends', () => {
  const CM = `/api/v1/namespaces/${NS}/configmaps`;
  const D = `/apis/apps/v1/namespaces/${NS}/deployments`;

  it('a kind without a generation keeps the one sent on create; an update cannot change it', async () => {
    const c = await call('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sent', generation: 7 } });
    expect(c.json.metadata.generation).toBe(7);
    const u = await call('PUT', `${CM}/sent`, { ...c.json, metadata: { ...c.json.metadata, generation: 9 }, data: { a: 'b' } });
    expect(u.status).toBe(200);
    expect(u.json.metadata.generation).toBe(7);
  });

  it('an update of a kind without one cannot add one', async () => {
    const c = await call('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unsent' } });
    expect(c.json.metadata.generation).toBeUndefined();
    const u = await call('PATCH', `${CM}/unsent`, { metadata: { generation: 3 } }, 'application/merge-patch+json');
    expect(u.status).toBe(200);
    expect(u.json.metadata.generation).toBeUndefined();
  });

  it('a kind with a generation starts at 1 whatever is sent', async () => {
    const obj = validObject(
      storedKinds.find((k) => k.def.kind === 'Deployment')!,
      'sent',
      NS,
    );
    obj.metadata.generation = 5;
    const c = await call('POST', D, obj);
    expect(c.json.metadata.generation).toBe(1);
  });

  it('a negative generation is refused (422)', async () => {
    const c = await call('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'negative', generation: -1 } });
    expect(c.status).toBe(422);
    expect(c.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'metadata.generation' }]);
  });

  it('a spec member sent as [] or {} where it was absent does not move the generation (Go decodes both the same)', async () => {
    const obj = validObject(
      storedKinds.find((k) => k.def.kind === 'Deployment')!,
      'empties',
      NS,
    );
    const c = await call('POST', D, obj);
    expect(c.json.metadata.generation).toBe(1);
    const empties = await call('PATCH', `${D}/empties`, { spec: { template: { spec: { imagePullSecrets: [], nodeSelector: {} } } } }, 'application/merge-patch+json');
    expect(empties.status, JSON.stringify(empties.json)).toBe(200);
    expect(empties.json.metadata.generation).toBe(1);
    const real = await call('PATCH', `${D}/empties`, { spec: { template: { spec: { nodeSelector: { disk: 'ssd' } } } } }, 'application/merge-patch+json');
    expect(real.json.metadata.generation).toBe(2);
  });

  it("a scale write moves a Deployment's generation; a status write does not", async () => {
    const obj = validObject(
      storedKinds.find((k) => k.def.kind === 'Deployment')!,
      'scaled',
      NS,
    );
    await call('POST', D, obj);
    const scale = await call('GET', `${D}/scaled/scale`);
    const scaled = await call('PUT', `${D}/scaled/scale`, { ...scale.json, spec: { replicas: 5 } });
    expect(scaled.status).toBe(200);
    const afterScale = await call('GET', `${D}/scaled`);
    expect(afterScale.json.metadata.generation).toBe(2);
    const st = await call('PATCH', `${D}/scaled/status`, { status: { observedGeneration: 2 } }, 'application/merge-patch+json');
    expect(st.status).toBe(200);
    expect(st.json.metadata.generation).toBe(2);
  });
});
