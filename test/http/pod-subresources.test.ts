// The pod subresources beyond status and scale, through app.request():
// eviction (with and without a PodDisruptionBudget), binding (pods/binding
// and the bindings collection), ephemeralcontainers, and the answers of the
// kubelet-facing subresources when no kubelet is reachable.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { call, server } from '../semantics/helpers.ts';
import { loadKubeProtobuf } from '../../runtime/codec/protobuf/index.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

const NS = 'default';
const PODS = `/api/v1/namespaces/${NS}/pods`;
const PDBS = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`;
let n = 0;
const uniq = (p: string) => `${p}-${++n}`;

async function pod(name: string, extra: Record<string, any> = {}, labels: Record<string, string> = { app: 'web' }): Promise<any> {
  const r = await call(s, 'POST', PODS, { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...extra } });
  expect(r.code, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

async function running(name: string, ready: boolean): Promise<void> {
  const status = { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] };
  const r = await call(s, 'PATCH', `${PODS}/${name}/status`, { status }, 'application/merge-patch+json');
  expect(r.code, JSON.stringify(r.body)).toBe(200);
}

async function budget(name: string, status: Record<string, any>, app = 'web'): Promise<any> {
  const r = await call(s, 'POST', PDBS, { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { minAvailable: 1, selector: { matchLabels: { app } } } });
  expect(r.code, JSON.stringify(r.body)).toBe(201);
  const st = await call(s, 'PUT', `${PDBS}/${name}/status`, { ...r.body, status: { observedGeneration: 1, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1, disruptionsAllowed: 0, ...status } });
  expect(st.code, JSON.stringify(st.body)).toBe(200);
  return st.body;
}

const evict = (name: string, extra: Record<string, any> = {}) =>
  call(s, 'POST', `${PODS}/${name}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: NS }, ...extra });

describe('pods/eviction', () => {
  it('a Pending pod is deleted at once (201 Success Status)', async () => {
    const name = uniq('pending');
    await pod(name);
    const r = await evict(name);
    expect(r.code).toBe(201);
    expect(r.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    expect((await call(s, 'GET', `${PODS}/${name}`)).code).toBe(404);
  });

  it('a policy/v1beta1 Eviction is accepted too; another kind is 400', async () => {
    const name = uniq('pending');
    await pod(name);
    const wrong = await call(s, 'POST', `${PODS}/${name}/eviction`, { apiVersion: 'v1', kind: 'Pod', metadata: { name } });
    expect(wrong.code).toBe(400);
    const r = await call(s, 'POST', `${PODS}/${name}/eviction`, { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name } });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect((await call(s, 'GET', `${PODS}/${name}`)).code).toBe(404);
  });

  it('a running pod under a budget allowing a disruption: decremented, recorded, pod gone', async () => {
    const app = uniq('app');
    const name = uniq('run');
    await pod(name, {}, { app });
    await running(name, true);
    await budget(`pdb-${app}`, { disruptionsAllowed: 1 }, app);
    const r = await evict(name);
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    const pdb = (await call(s, 'GET', `${PDBS}/pdb-${app}`)).body;
    expect(pdb.status.disruptionsAllowed).toBe(0);
    expect(Object.keys(pdb.status.disruptedPods)).toEqual([name]);
    expect(pdb.status.conditions).toEqual([expect.objectContaining({ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods' })]);
    expect((await call(s, 'GET', `${PODS}/${name}`)).code).toBe(404);
  });

  it('a budget allowing no disruption: 429 with a DisruptionBudget cause, pod kept', async () => {
    const app = uniq('app');
    const name = uniq('run');
    await pod(name, {}, { app });
    await running(name, true);
    await budget(`pdb-${app}`, { disruptionsAllowed: 0, desiredHealthy: 2, currentHealthy: 1 }, app);
    const r = await evict(name);
    expect(r.code).toBe(429);
    expect(r.body).toMatchObject({
      reason: 'TooManyRequests',
      message: "Cannot evict pod as it would violate the pod's disruption budget.",
      details: { causes: [{ reason: 'DisruptionBudget', message: `The disruption budget pdb-${app} needs 2 healthy pods and has 1 currently` }] },
    });
    expect(r.body.details.retryAfterSeconds).toBeUndefined();
    expect((await call(s, 'GET', `${PODS}/${name}`)).code).toBe(200);
  });

  it('a budget whose status has not observed its generation: 429 "still being processed", Retry-After 10', async () => {
    const app = uniq('app');
    const name = uniq('run');
    await pod(name, {}, { app });
    await running(name, true);
    await budget(`pdb-${app}`, { disruptionsAllowed: 1, observedGeneration: 0 }, app);
    const res = await s.app.request(`${PODS}/${name}/eviction`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('10');
    const body = await res.json();
    expect(body.details).toEqual({ retryAfterSeconds: 10, causes: [{ reason: 'DisruptionBudget', message: `The disruption budget pdb-${app} is still being processed by the server.` }] });
  });

  it('an unready pod under a healthy budget is deleted without using the budget', async () => {
    const app = uniq('app');
    const name = uniq('run');
    await pod(name, {}, { app });
    await running(name, false);
    await budget(`pdb-${app}`, { disruptionsAllowed: 0, desiredHealthy: 1, currentHealthy: 1 }, app);
    expect((await evict(name)).code).toBe(201);
    expect((await call(s, 'GET', `${PDBS}/pdb-${app}`)).body.status.disruptionsAllowed).toBe(0);
  });

  it('two matching budgets: a 500 Status', async () => {
    const app = uniq('app');
    const name = uniq('run');
    await pod(name, {}, { app });
    await running(name, true);
    await budget(`pdb-a-${app}`, { disruptionsAllowed: 1 }, app);
    await budget(`pdb-b-${app}`, { disruptionsAllowed: 1 }, app);
    const r = await evict(name);
    expect(r.code).toBe(500);
    expect(r.body).toMatchObject({ status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.' });
  });

  it('dry run leaves pod and budget as they are', async () => {
    const app = uniq('app');
    const name = uniq('run');
    await pod(name, {}, { app });
    await running(name, true);
    await budget(`pdb-${app}`, { disruptionsAllowed: 1 }, app);
    expect((await call(s, 'POST', `${PODS}/${name}/eviction?dryRun=All`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } })).code).toBe(201);
    expect((await call(s, 'GET', `${PODS}/${name}`)).code).toBe(200);
    expect((await call(s, 'GET', `${PDBS}/pdb-${app}`)).body.status.disruptionsAllowed).toBe(1);
  });

  it.each([
    ['a name other than the URL', { metadata: { name: 'other' } }, 400, 'name in URL does not match name in Eviction object'],
    ['a missing pod', { metadata: { name: 'missing' } }, 404, 'pods "missing" not found'],
  ])('%s', async (_n, body, code, message) => {
    const target = body.metadata.name === 'other' ? 'someone' : 'missing';
    const r = await call(s, 'POST', `${PODS}/${target}/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', ...body });
    expect(r.code).toBe(code);
    expect(r.body.message).toBe(message);
  });
});

describe('binding', () => {
  it('pods/binding sets the node and PodScheduled; a second binding is 409', async () => {
    const name = uniq('bind');
    await pod(name);
    const r = await call(s, 'POST', `${PODS}/${name}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name, annotations: { a: 'b' } }, target: { kind: 'Node', name: 'n1' } });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ kind: 'Status', status: 'Success' });
    const got = (await call(s, 'GET', `${PODS}/${name}`)).body;
    expect(got.spec.nodeName).toBe('n1');
    expect(got.metadata.annotations).toEqual({ a: 'b' });
    expect(got.status.conditions).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'True' })]);
    const again = await call(s, 'POST', `${PODS}/${name}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { name: 'n2' } });
    expect(again.code).toBe(409);
    expect(again.body.message).toBe(`Operation cannot be fulfilled on pods/binding "${name}": pod ${name} is already assigned to node "n1"`);
  });

  it('the bindings collection binds the pod the Binding names', async () => {
    const name = uniq('bind');
    await pod(name);
    const r = await call(s, 'POST', `/api/v1/namespaces/${NS}/bindings`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { name: 'n3' } });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect((await call(s, 'GET', `${PODS}/${name}`)).body.spec.nodeName).toBe('n3');
  });

  it('a target without a name is 422 (upstream: 500, its validation error is not a Status there)', async () => {
    const name = uniq('bind');
    await pod(name);
    const r = await call(s, 'POST', `${PODS}/${name}/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { kind: 'Pod' } });
    expect(r.code).toBe(422);
    expect(r.body.message).toBe(`Binding "${name}" is invalid: [target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>", target.name: Required value]`);
  });
});

describe('the Status of eviction and binding is negotiated like any create answer', () => {
  const post = (path: string, body: unknown, accept: string) => s.app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', accept }, body: JSON.stringify(body) });
  const eviction = (name: string) => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name } });
  const binding = (name: string, node: string) => ({ apiVersion: 'v1', kind: 'Binding', metadata: { name }, target: { name: node } });
  const cases: [string, (name: string) => string, (name: string) => unknown][] = [
    ['pods/eviction', (name) => `${PODS}/${name}/eviction`, eviction],
    ['pods/binding', (name) => `${PODS}/${name}/binding`, (name) => binding(name, 'pb1')],
    ['bindings', () => `/api/v1/namespaces/${NS}/bindings`, (name) => binding(name, 'pb2')],
  ];

  it.each(cases)('%s: protobuf (a v1 Status, 201)', async (_, path, body) => {
    const name = uniq('neg');
    await pod(name);
    const res = await post(path(name), body(name), 'application/vnd.kubernetes.protobuf');
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    const decoded = (await loadKubeProtobuf()).decode(new Uint8Array(await res.arrayBuffer()));
    expect(decoded).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Success', code: 201 });
  });

  it.each(cases)('%s: YAML', async (_, path, body) => {
    const name = uniq('neg');
    await pod(name);
    const res = await post(path(name), body(name), 'application/yaml');
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/yaml');
    expect(await res.text()).toBe('kind: Status\napiVersion: v1\nmetadata: {}\nstatus: Success\ncode: 201\n');
  });

  it.each(cases)('%s: a Table Accept gets the Status itself', async (_, path, body) => {
    const name = uniq('neg');
    await pod(name);
    const res = await post(path(name), body(name), 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json');
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toMatchObject({ kind: 'Status', status: 'Success' });
  });

  it.each(cases)('%s: an Accept it cannot answer is 406 and changes nothing', async (_, path, body) => {
    const name = uniq('neg');
    await pod(name);
    const res = await post(path(name), body(name), 'text/html');
    expect(res.status).toBe(406);
    const got = await call(s, 'GET', `${PODS}/${name}`);
    expect(got.code).toBe(200);
    expect(got.body.spec.nodeName).toBeUndefined();
  });
});

describe('pods/ephemeralcontainers', () => {
  it('adds an ephemeral container; may not change or remove one; keeps the rest of the spec', async () => {
    const name = uniq('eph');
    await pod(name);
    const path = `${PODS}/${name}/ephemeralcontainers`;
    const debug = { name: 'debugger', image: 'busybox', targetContainerName: 'c', stdin: true, tty: true };
    const r = await call(s, 'PATCH', path, { spec: { ephemeralContainers: [debug], activeDeadlineSeconds: 5 } }, 'application/strategic-merge-patch+json');
    expect(r.code, JSON.stringify(r.body)).toBe(200);
    expect(r.body.spec.ephemeralContainers).toEqual([{ ...debug, imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }]);
    expect(r.body.spec.activeDeadlineSeconds).toBeUndefined();
    const changed = await call(s, 'PATCH', path, { spec: { ephemeralContainers: [{ ...debug, image: 'alpine' }] } }, 'application/strategic-merge-patch+json');
    expect(changed.code).toBe(422);
    expect(changed.body.details.causes[0]).toMatchObject({ field: 'spec.ephemeralContainers', message: 'Forbidden: existing ephemeral containers "debugger" may not be changed\n' });
    const ports = await call(s, 'PATCH', path, { spec: { ephemeralContainers: [{ name: 'p', image: 'x', ports: [{ containerPort: 80 }] }] } }, 'application/strategic-merge-patch+json');
    expect(ports.code).toBe(422);
    expect(ports.body.details.causes).toEqual([
      { reason: 'FieldValueForbidden', field: expect.stringMatching(/^spec\.ephemeralContainers\[\d\]\.ports$/), message: 'Forbidden: cannot be set for an Ephemeral Container' },
    ]);
    expect((await call(s, 'GET', path)).body.spec.ephemeralContainers).toHaveLength(1);
  });
});

describe('the kubelet-facing subresources without a kubelet', () => {
  it.each([
    ['exec of an unscheduled pod', 'exec?command=ls', 'POST', 400, 'pod %s does not have a host assigned'],
    ['attach of an unscheduled pod', 'attach', 'POST', 400, 'pod %s does not have a host assigned'],
    ['portforward of an unscheduled pod', 'portforward', 'POST', 400, 'pod %s does not have a host assigned'],
    ['exec of an unknown container', 'exec?container=nope&command=ls', 'POST', 400, 'container nope is not valid for pod %s'],
    ['proxy to a pod without an IP', 'proxy', 'GET', 400, 'address not allowed'],
  ])('%s: %d', async (_n, sub, method, code, message) => {
    const name = uniq('kl');
    await pod(name);
    const r = await call(s, method, `${PODS}/${name}/${sub}`);
    expect(r.code).toBe(code);
    expect(r.body.message).toBe(message.replace('%s', name));
  });

  it('the log of an unscheduled pod is empty (204); of a pod on a missing node 404', async () => {
    const name = uniq('kl');
    await pod(name);
    const res = await s.app.request(`${PODS}/${name}/log`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    const bound = uniq('kl');
    await pod(bound, { nodeName: 'ghost' });
    const r = await call(s, 'GET', `${PODS}/${bound}/log`);
    expect(r.code).toBe(404);
    expect(r.body.message).toBe('nodes "ghost" not found');
  });

  it('a node without addresses: 500 no preferred addresses; with one: the kubelet address in the failed connection', async () => {
    expect((await call(s, 'POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'bare' } })).code).toBe(201);
    const onBare = uniq('kl');
    await pod(onBare, { nodeName: 'bare' });
    const bare = await call(s, 'POST', `${PODS}/${onBare}/exec?command=ls`);
    expect(bare.code).toBe(500);
    expect(bare.body.message).toBe('no preferred addresses found; known addresses: []');
    expect((await call(s, 'POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'addr' } })).code).toBe(201);
    const st = await call(s, 'PATCH', '/api/v1/nodes/addr/status', { status: { addresses: [{ type: 'InternalIP', address: '10.9.9.9' }] } }, 'application/merge-patch+json');
    expect(st.code, JSON.stringify(st.body)).toBe(200);
    const onAddr = uniq('kl');
    await pod(onAddr, { nodeName: 'addr' });
    const exec = await call(s, 'POST', `${PODS}/${onAddr}/exec?command=ls`);
    expect(exec.code).toBe(500);
    expect(exec.body.message).toBe('error dialing backend: dial tcp 10.9.9.9:10250: this API server does not connect to kubelets');
    const proxy = await call(s, 'GET', '/api/v1/nodes/addr/proxy/stats');
    expect(proxy.code).toBe(503);
    expect(proxy.body.message).toBe('error trying to reach service: dial tcp 10.9.9.9:10250: this API server does not connect to proxied backends');
    const log = await call(s, 'GET', `${PODS}/${onAddr}/log`);
    expect(log.code).toBe(500);
    expect(log.body.message).toBe(`Get "https://10.9.9.9:10250/containerLogs/${NS}/${onAddr}/c": this API server does not connect to kubelets`);
  });

  it('the first address of the first preferred type is taken, even an empty one (GetPreferredNodeAddress)', async () => {
    expect((await call(s, 'POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'empty-internal' } })).code).toBe(201);
    const addresses = [
      { type: 'ExternalIP', address: '10.8.8.8' },
      { type: 'InternalIP', address: '' },
    ];
    const st = await call(s, 'PATCH', '/api/v1/nodes/empty-internal/status', { status: { addresses } }, 'application/merge-patch+json');
    expect(st.code, JSON.stringify(st.body)).toBe(200);
    const p = uniq('kl');
    await pod(p, { nodeName: 'empty-internal' });
    const exec = await call(s, 'POST', `${PODS}/${p}/exec?command=ls`);
    expect(exec.code).toBe(500);
    expect(exec.body.message).toBe('error dialing backend: dial tcp :10250: this API server does not connect to kubelets');
  });
});
