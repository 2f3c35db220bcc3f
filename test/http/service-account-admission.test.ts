// ServiceAccount admission through the HTTP API: a Pod whose account does
// not exist is refused with upstream's 403; the first Pod of a namespace
// created a moment ago is admitted (admission waits for the controller's
// `default`, driven by its watch); without the controller nothing is
// waited for; a Pod in a missing namespace is NamespaceLifecycle's 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

const JSON_CT = { 'content-type': 'application/json' };
const pod = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx' }], ...spec },
});
const send = async (s: RunningServer, method: string, path: string, body: unknown) => {
  const r = await s.app.request(path, { method, headers: JSON_CT, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
};
const namespace = (name: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });

describe('with the service-account controller', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('admits the first Pods of namespaces just created (the default account is waited for)', async () => {
    const names = ['sa-adm-a', 'sa-adm-b', 'sa-adm-c'];
    const results = await Promise.all(
      names.map(async (ns) => {
        expect((await send(s, 'POST', '/api/v1/namespaces', namespace(ns))).status).toBe(201);
        return send(s, 'POST', `/api/v1/namespaces/${ns}/pods`, pod('first'));
      }),
    );
    for (const r of results) {
      expect(r.status).toBe(201);
      expect(r.json.spec.serviceAccountName).toBe('default');
      expect(r.json.spec.volumes[0].name).toMatch(/^kube-api-access-/);
    }
  });

  it("refuses a Pod whose account does not exist, with upstream's message; admits it once the account exists", async () => {
    const r = await send(s, 'POST', '/api/v1/namespaces/default/pods', pod('needs-builder', { serviceAccountName: 'builder' }));
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: 'pods "needs-builder" is forbidden: error looking up service account default/builder: serviceaccount "builder" not found',
      details: { name: 'needs-builder', kind: 'pods' },
    });
    expect((await s.app.request('/api/v1/namespaces/default/pods/needs-builder')).status).toBe(404);
    expect((await send(s, 'POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'builder' } })).status).toBe(201);
    expect((await send(s, 'POST', '/api/v1/namespaces/default/pods', pod('needs-builder', { serviceAccountName: 'builder' }))).status).toBe(201);
  });

  it('names the generated name prefix in the refusal of a Pod with generateName', async () => {
    const r = await send(s, 'POST', '/api/v1/namespaces/default/pods', {
      ...pod(''),
      metadata: { generateName: 'gen-' },
      spec: { serviceAccountName: 'nobody', containers: [{ name: 'c', image: 'x' }] },
    });
    expect(r.status).toBe(403);
    expect(r.json.message).toBe('pods "gen-" is forbidden: error looking up service account default/nobody: serviceaccount "nobody" not found');
  });

  it('a Pod in a missing namespace is 404 for the namespace (NamespaceLifecycle runs first)', async () => {
    const r = await send(s, 'POST', '/api/v1/namespaces/sa-adm-nowhere/pods', pod('p'));
    expect(r.status).toBe(404);
    expect(r.json.message).toBe('namespaces "sa-adm-nowhere" not found');
  });

  it('a dry run is refused the same way', async () => {
    const r = await send(s, 'POST', '/api/v1/namespaces/default/pods?dryRun=All', pod('dry', { serviceAccountName: 'ghost' }));
    expect(r.status).toBe(403);
  });
});

describe('without the service-account controller', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['AlwaysAllow'], controllers: ['*', '-serviceaccount'] });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('nothing will create `default`: a Pod that needs it is refused at once; with the account it is admitted', async () => {
    expect((await send(s, 'POST', '/api/v1/namespaces', namespace('bare'))).status).toBe(201);
    const r = await send(s, 'POST', '/api/v1/namespaces/bare/pods', pod('p'));
    expect(r.status).toBe(403);
    expect(r.json.message).toBe('pods "p" is forbidden: error looking up service account bare/default: serviceaccount "default" not found');
    expect((await send(s, 'POST', '/api/v1/namespaces/bare/serviceaccounts', { metadata: { name: 'default' } })).status).toBe(201);
    expect((await send(s, 'POST', '/api/v1/namespaces/bare/pods', pod('p'))).status).toBe(201);
  });
});
