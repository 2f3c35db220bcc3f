// The root CA publisher through the HTTP API of an in-process server: every
// namespace (the initial ones and new ones) has kube-root-ca.crt with the
// server's CA as ca.crt and upstream's description; it comes back when
// deleted and is put back when edited; its writes are the controller's
// (admission sees its service account, managedFields name
// kube-controller-manager). Not run over plain HTTP (no CA) nor when
// --controllers turns it off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import type { AdmissionAttributes } from '../../runtime/admission/chain.ts';

const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across distributions of Kubernetes clusters.';
const cmPath = (ns: string) => `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`;

async function get(s: RunningServer, path: string): Promise<{ status: number; json: any }> {
  const r = await s.app.request(path);
  return { status: r.status, json: await r.json() };
}
const send = async (s: RunningServer, method: string, path: string, body: unknown, ct = 'application/json') => {
  const r = await s.app.request(path, { method, headers: { 'content-type': ct }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
};

/** Polls until the check holds (the controllers act on watch events; no assertion on how long it takes). */
async function eventually<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 4000; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never: ${what}`);
}
const published = (s: RunningServer, ns: string, ok: (cm: any) => boolean = () => true) =>
  eventually(async () => {
    const r = await get(s, cmPath(ns));
    return r.status === 200 && ok(r.json) ? r.json : undefined;
  }, `kube-root-ca.crt in ${ns}`);

describe('root CA publisher', () => {
  let s: RunningServer;
  const seen: { user: string; operation: string; namespace: string; name: string }[] = [];
  beforeAll(async () => {
    s = await startServer({
      authorizationMode: ['AlwaysAllow'],
      admissionPlugins: [
        {
          name: 'Recorder',
          validate(a: AdmissionAttributes) {
            if (a.resource === 'configmaps') seen.push({ user: a.user.name, operation: a.operation, namespace: a.namespace, name: a.name });
          },
        },
      ],
    });
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('publishes the server CA in every initial namespace, as upstream writes it', async () => {
    expect(s.caPEM).toBeTruthy();
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      const cm = await published(s, ns);
      expect(cm.data).toEqual({ 'ca.crt': s.caPEM });
      expect(cm.metadata.annotations).toEqual({ 'kubernetes.io/description': DESCRIPTION });
      expect(cm.metadata.managedFields.map((m: any) => m.manager)).toEqual(['kube-controller-manager']);
    }
  });

  it('publishes it in a new namespace, written as the controller', async () => {
    expect((await send(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'rca-new' } })).status).toBe(201);
    const cm = await published(s, 'rca-new');
    expect(cm.data['ca.crt']).toBe(s.caPEM);
    expect(seen).toContainEqual({ user: 'system:serviceaccount:kube-system:root-ca-cert-publisher', operation: 'CREATE', namespace: 'rca-new', name: 'kube-root-ca.crt' });
  });

  it('creates it again when it is deleted', async () => {
    expect((await send(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'rca-del' } })).status).toBe(201);
    const first = await published(s, 'rca-del');
    const del = await s.app.request(cmPath('rca-del'), { method: 'DELETE' });
    expect(del.status).toBe(200);
    const again = await published(s, 'rca-del', (cm) => cm.metadata.uid !== first.metadata.uid);
    expect(again.data).toEqual({ 'ca.crt': s.caPEM });
  });

  it('puts back data and description when edited; other annotations stay', async () => {
    expect((await send(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'rca-edit' } })).status).toBe(201);
    await published(s, 'rca-edit');
    const patch = { metadata: { annotations: { 'kubernetes.io/description': null, 'example.com/mine': 'yes' } }, data: { 'ca.crt': 'forged', extra: 'x' } };
    expect((await send(s, 'PATCH', cmPath('rca-edit'), patch, 'application/merge-patch+json')).status).toBe(200);
    const fixed = await published(s, 'rca-edit', (cm) => cm.data?.['ca.crt'] === s.caPEM);
    expect(fixed.data).toEqual({ 'ca.crt': s.caPEM });
    expect(fixed.metadata.annotations).toEqual({ 'kubernetes.io/description': DESCRIPTION, 'example.com/mine': 'yes' });
    expect(seen).toContainEqual({ user: 'system:serviceaccount:kube-system:root-ca-cert-publisher', operation: 'UPDATE', namespace: 'rca-edit', name: 'kube-root-ca.crt' });
  });

  it('lets a namespace being deleted go (nothing is created in it again)', async () => {
    expect((await send(s, 'POST', '/api/v1/namespaces', { metadata: { name: 'rca-gone' } })).status).toBe(201);
    await published(s, 'rca-gone');
    expect((await s.app.request('/api/v1/namespaces/rca-gone', { method: 'DELETE' })).status).toBe(200);
    await eventually(async () => ((await get(s, '/api/v1/namespaces/rca-gone')).status === 404 ? true : undefined), 'rca-gone deleted');
  });
});

describe('when it does not run', () => {
  /** A new namespace, once another controller acting on the same namespace event (its default ServiceAccount) is done. */
  async function newNamespaceSettled(s: RunningServer, ns: string): Promise<void> {
    expect((await send(s, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
    await eventually(async () => ((await get(s, `/api/v1/namespaces/${ns}/serviceaccounts/default`)).status === 200 ? true : undefined), `default account in ${ns}`);
  }

  it('over plain HTTP (no CA) there is no kube-root-ca.crt', async () => {
    const s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
    try {
      await newNamespaceSettled(s, 'plain');
      expect((await get(s, cmPath('plain'))).status).toBe(404);
      expect((await get(s, cmPath('default'))).status).toBe(404);
    } finally {
      await s.stop();
    }
  });

  it('--controllers=*,-root-ca-cert-publisher turns it off', async () => {
    const s = await startServer({ authorizationMode: ['AlwaysAllow'], controllers: ['*', '-root-ca-cert-publisher'] });
    try {
      await newNamespaceSettled(s, 'off');
      expect((await get(s, cmPath('off'))).status).toBe(404);
    } finally {
      await s.stop();
    }
  });
});
