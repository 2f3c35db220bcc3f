// Garbage collection of dependents through app.request(): background,
// orphan and foreground propagation, several owners, dangling owners.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

const CM = '/api/v1/namespaces/default/configmaps';
async function req(method: string, path: string, body?: unknown) {
  const r = await s.app.request(path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}
const ownerRef = (o: any) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o.metadata.name, uid: o.metadata.uid });
async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 25));
  }
}
const exists = async (name: string) => (await req('GET', `${CM}/${name}`)).status === 200;

describe('garbage collection', () => {
  it('background: dependents go with their owner', async () => {
    const owner = (await req('POST', CM, { metadata: { name: 'bg-owner' } })).json;
    await req('POST', CM, { metadata: { name: 'bg-dep', ownerReferences: [ownerRef(owner)] } });
    expect((await req('DELETE', `${CM}/bg-owner`)).status).toBe(200);
    await eventually(async () => !(await exists('bg-dep')));
  });

  it('a dependent with another live owner keeps living without the dangling reference', async () => {
    const a = (await req('POST', CM, { metadata: { name: 'two-a' } })).json;
    const b = (await req('POST', CM, { metadata: { name: 'two-b' } })).json;
    await req('POST', CM, { metadata: { name: 'two-dep', ownerReferences: [ownerRef(a), ownerRef(b)] } });
    await req('DELETE', `${CM}/two-a`);
    await eventually(async () => (await req('GET', `${CM}/two-dep`)).json.metadata.ownerReferences?.length === 1);
    expect((await req('GET', `${CM}/two-dep`)).json.metadata.ownerReferences[0].uid).toBe(b.metadata.uid);
  });

  it('orphan: dependents stay and lose the reference', async () => {
    const owner = (await req('POST', CM, { metadata: { name: 'or-owner' } })).json;
    await req('POST', CM, { metadata: { name: 'or-dep', ownerReferences: [ownerRef(owner)] } });
    const d = await req('DELETE', `${CM}/or-owner`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' });
    expect(d.status).toBe(200);
    expect(d.json.metadata.finalizers).toEqual(['orphan']);
    await eventually(async () => !(await exists('or-owner')));
    const dep = (await req('GET', `${CM}/or-dep`)).json;
    expect(dep.metadata.ownerReferences).toBeUndefined();
  });

  it('foreground: the owner waits for its dependents', async () => {
    const owner = (await req('POST', CM, { metadata: { name: 'fg-owner' } })).json;
    await req('POST', CM, { metadata: { name: 'fg-dep', ownerReferences: [ownerRef(owner)] } });
    const d = await req('DELETE', `${CM}/fg-owner`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Foreground' });
    expect(d.status).toBe(200);
    expect(d.json.metadata.finalizers).toEqual(['foregroundDeletion']);
    await eventually(async () => !(await exists('fg-dep')) && !(await exists('fg-owner')));
  });

  it('a dependent whose owner never existed is deleted; one whose owner is live is kept', async () => {
    await req('POST', CM, { metadata: { name: 'dangling', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '00000000-0000-0000-0000-000000000000' }] } });
    const owner = (await req('POST', CM, { metadata: { name: 'fresh-owner' } })).json;
    await req('POST', CM, { metadata: { name: 'fresh-dep', ownerReferences: [ownerRef(owner)] } });
    await eventually(async () => !(await exists('dangling')));
    expect(await exists('fresh-dep')).toBe(true);
  });
});
