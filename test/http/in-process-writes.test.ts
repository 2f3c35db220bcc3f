// What the server writes itself goes through the registry's write pipeline
// with its own identity: the `kubernetes` Service, the initial namespaces
// and the local APIServices carry managedFields of kube-apiserver and were
// defaulted and schema-checked; writes of the garbage collector and the
// namespace controller go through field management (manager
// kube-controller-manager) and admission sees their service accounts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import type { AdmissionAttributes } from '../../runtime/admission/chain.ts';

const seen: { user: string; resource: string; subresource: string; name: string; operation: string }[] = [];
let s: RunningServer;
beforeAll(async () => {
  s = await startServer({
    authorizationMode: ['AlwaysAllow'],
    admissionPlugins: [
      {
        name: 'Recorder',
        validate(a: AdmissionAttributes) {
          seen.push({ user: a.user.name, resource: a.resource, subresource: a.subresource, name: a.name, operation: a.operation });
        },
      },
    ],
  });
});
afterAll(async () => {
  await s?.stop();
});

const get = async (path: string) => {
  const r = await s.app.request(path);
  expect(r.status).toBe(200);
  return r.json();
};
type Entry = { manager: string; operation: string; apiVersion: string; subresource?: string; fieldsV1: Record<string, any> };
const entries = (obj: { metadata: { managedFields?: Entry[] } }) => obj.metadata.managedFields ?? [];

async function eventually(check: () => Promise<boolean>, ms = 20000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('writes of the API server itself', () => {
  it('the kubernetes Service carries managedFields of kube-apiserver and its spec defaults', async () => {
    const svc = await get('/api/v1/namespaces/default/services/kubernetes');
    const mine = entries(svc).find((e) => e.manager === 'kube-apiserver');
    expect(mine).toMatchObject({ operation: 'Update', apiVersion: 'v1' });
    expect(mine!.fieldsV1['f:spec']['f:ports']).toBeDefined();
    expect(mine!.fieldsV1['f:metadata']['f:labels']['f:component']).toBeDefined();
    // defaults of the Service schema, applied before the schema check as for a request body
    expect(svc.spec.ports[0]).toMatchObject({ name: 'https', port: 443, protocol: 'TCP' });
    expect(svc.spec.internalTrafficPolicy).toBe('Cluster');
  });

  it('the initial namespaces and a local APIService carry managedFields of kube-apiserver', async () => {
    const ns = await get('/api/v1/namespaces/kube-system');
    const mine = entries(ns).find((e) => e.manager === 'kube-apiserver');
    expect(mine!.fieldsV1['f:metadata']['f:labels']['f:kubernetes.io/metadata.name']).toBeDefined();
    const apisvc = await get('/apis/apiregistration.k8s.io/v1/apiservices/v1.apps');
    const status = entries(apisvc).find((e) => e.subresource === 'status');
    expect(status).toMatchObject({ manager: 'kube-apiserver', operation: 'Update' });
    expect(status!.fieldsV1['f:status']['f:conditions']).toBeDefined();
  });
});

describe('writes of the controllers', () => {
  const CM = '/api/v1/namespaces/default/configmaps';
  const send = async (method: string, path: string, body?: unknown, ct = 'application/json') => {
    const r = await s.app.request(path, { method, headers: { 'content-type': ct }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: r.status, json: await r.json() };
  };

  it("the garbage collector's write goes through field management, and admission sees its service account", async () => {
    const owner = await send('POST', `${CM}?fieldManager=tester`, { metadata: { name: 'ipw-owner' } });
    expect(owner.status).toBe(201);
    const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'ipw-owner', uid: owner.json.metadata.uid };
    const dep = await send('POST', `${CM}?fieldManager=tester`, { metadata: { name: 'ipw-dep', ownerReferences: [ref] } });
    expect(entries(dep.json).find((e) => e.manager === 'tester')!.fieldsV1['f:metadata']['f:ownerReferences']).toBeDefined();
    expect((await send('DELETE', `${CM}/ipw-owner`, { propagationPolicy: 'Orphan' })).status).toBe(200);
    await eventually(async () => (await get(`${CM}/ipw-dep`)).metadata.ownerReferences === undefined);
    // the removed references are no longer owned by their writer
    const after = await get(`${CM}/ipw-dep`);
    expect(entries(after).find((e) => e.manager === 'tester')?.fieldsV1['f:metadata']?.['f:ownerReferences']).toBeUndefined();
    expect(seen).toContainEqual({
      user: 'system:serviceaccount:kube-system:generic-garbage-collector',
      resource: 'configmaps',
      subresource: '',
      name: 'ipw-dep',
      operation: 'UPDATE',
    });
  });

  it("the namespace controller's status write records kube-controller-manager on the status subresource", async () => {
    expect((await send('POST', '/api/v1/namespaces', { metadata: { name: 'ipw-ns' } })).status).toBe(201);
    const blocked = await send('POST', '/api/v1/namespaces/ipw-ns/configmaps', { metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    expect(blocked.status).toBe(201);
    expect((await send('DELETE', '/api/v1/namespaces/ipw-ns')).status).toBe(200);
    await eventually(async () => entries(await get('/api/v1/namespaces/ipw-ns')).some((e) => e.manager === 'kube-controller-manager'));
    const ns = await get('/api/v1/namespaces/ipw-ns');
    expect(entries(ns).find((e) => e.manager === 'kube-controller-manager')).toMatchObject({ operation: 'Update', subresource: 'status' });
    expect(seen.some((v) => v.user === 'system:serviceaccount:kube-system:namespace-controller' && v.name === 'ipw-ns' && v.subresource === 'status')).toBe(true);
    // let the namespace go
    expect((await send('PATCH', '/api/v1/namespaces/ipw-ns/configmaps/held', { metadata: { finalizers: null } }, 'application/merge-patch+json')).status).toBe(200);
    await eventually(async () => (await s.app.request('/api/v1/namespaces/ipw-ns')).status === 404);
  });
});
