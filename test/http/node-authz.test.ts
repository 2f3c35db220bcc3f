// --authorization-mode=Node through app.request(): a node (a token-file user
// system:node:<name> in system:nodes) reads the Secrets of Pods bound to it
// and nothing else, loses the access when the Pod goes, gets tokens only for
// its pods' accounts bound to its pods; NodeRestriction keeps it to its own
// Node object. The admin (system:masters) sets the scene. Over TLS, a
// client certificate (CN system:node:n1, O system:nodes) is such a node too.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCA, issueCertificate } from '../../runtime/auth/pki/certs.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';

let dir: string;
let s: RunningServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'node-authz-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(
    tokens,
    ['tok-admin,admin,uid-admin,"system:masters"', 'tok-n1,system:node:n1,uid-n1,"system:nodes"', 'tok-n2,system:node:n2,uid-n2,"system:nodes"', 'tok-alice,alice,uid-alice,""'].join('\n') + '\n',
  );
  s = await startServer({ authorizationMode: ['Node'], tokenAuthFile: tokens });
});
afterAll(async () => {
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function call(token: string, method: string, path: string, body?: unknown, contentType = 'application/json') {
  const r = await s.app.request(path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, json: (await r.json()) as any };
}
const admin = (method: string, path: string, body?: unknown) => call('tok-admin', method, path, body);

/** Waits for the graph's watch to catch up (no time limit is asserted; the bound only ends a hung run). */
async function eventually(check: () => Promise<boolean>, ms = 20000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 25));
  }
}

const NS = '/api/v1/namespaces/default';
const secret = (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { k: 'v' } });
const pod = (name: string, nodeName: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { nodeName, containers: [{ name: 'c', image: 'busybox' }], ...spec },
});

describe('the Node authorizer', () => {
  it('lets a node read the Secret of a Pod bound to it, not of another node, and not after the Pod is deleted', async () => {
    for (const n of ['s1', 's2']) expect((await admin('POST', `${NS}/secrets`, secret(n))).status).toBe(201);
    expect((await admin('POST', `${NS}/pods`, pod('p1', 'n1', { volumes: [{ name: 'v', secret: { secretName: 's1' } }] }))).status).toBe(201);
    expect((await admin('POST', `${NS}/pods`, pod('p2', 'n2', { containers: [{ name: 'c', image: 'i', envFrom: [{ secretRef: { name: 's2' } }] }] }))).status).toBe(201);

    await eventually(async () => (await call('tok-n1', 'GET', `${NS}/secrets/s1`)).status === 200);
    const other = await call('tok-n1', 'GET', `${NS}/secrets/s2`);
    expect(other.status).toBe(403);
    expect(other.json).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: `secrets "s2" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node 'n1' and this object`,
    });
    await eventually(async () => (await call('tok-n2', 'GET', `${NS}/secrets/s2`)).status === 200);
    // nodes cannot list secrets, and other users get nothing from this mode
    expect((await call('tok-n1', 'GET', `${NS}/secrets`)).status).toBe(403);
    expect((await call('tok-alice', 'GET', `${NS}/secrets/s1`)).status).toBe(403);

    expect((await admin('DELETE', `${NS}/pods/p1?gracePeriodSeconds=0`)).status).toBe(200);
    await eventually(async () => (await call('tok-n1', 'GET', `${NS}/secrets/s1`)).status === 403);
    expect((await call('tok-n2', 'GET', `${NS}/secrets/s2`)).status).toBe(200);
  });

  it('lets a node create tokens only for the accounts of its pods, bound to its pods', async () => {
    await eventually(async () => (await admin('GET', `${NS}/serviceaccounts/default`)).status === 200);
    const p3 = await admin('POST', `${NS}/pods`, pod('p3', 'n1'));
    expect(p3.status).toBe(201);
    const p4 = await admin('POST', `${NS}/pods`, pod('p4', 'n2'));
    expect(p4.status).toBe(201);
    const tr = (p: any) => ({
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { audiences: [], boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: p.metadata.name, uid: p.metadata.uid } },
    });
    const TOKEN = `${NS}/serviceaccounts/default/token`;
    await eventually(async () => (await call('tok-n1', 'POST', TOKEN, tr(p3.json))).status === 201);
    const elsewhere = await call('tok-n1', 'POST', TOKEN, tr(p4.json));
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.json.message).toBe('serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node');
    const unbound = await call('tok-n1', 'POST', TOKEN, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
    expect(unbound.status).toBe(403);
    expect(unbound.json.message).toBe('serviceaccounts "default" is forbidden: node requested token not bound to a pod');
  });
});

describe('NodeRestriction', () => {
  const node = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels } });

  it('lets a node register and change its own Node only, without restricted labels', async () => {
    expect((await call('tok-n1', 'POST', '/api/v1/nodes', node('n1', { 'kubernetes.io/hostname': 'n1' }))).status).toBe(201);
    expect((await call('tok-n2', 'POST', '/api/v1/nodes', node('n2'))).status).toBe(201);

    const other = await call('tok-n1', 'PATCH', '/api/v1/nodes/n2', { metadata: { labels: { x: 'y' } } }, 'application/merge-patch+json');
    expect(other.status).toBe(403);
    expect(other.json).toMatchObject({ reason: 'Forbidden', message: 'nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"' });

    const own = await call('tok-n1', 'PATCH', '/api/v1/nodes/n1', { metadata: { labels: { 'example.com/x': 'y' } } }, 'application/merge-patch+json');
    expect(own.status).toBe(200);
    const restricted = await call('tok-n1', 'PATCH', '/api/v1/nodes/n1', { metadata: { labels: { 'node-role.kubernetes.io/control-plane': '' } } }, 'application/merge-patch+json');
    expect(restricted.status).toBe(403);
    expect(restricted.json.message).toBe('nodes "n1" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/control-plane');
    expect((await admin('GET', '/api/v1/nodes/n1')).json.metadata.labels).toEqual({ 'kubernetes.io/hostname': 'n1', 'example.com/x': 'y' });

    const create = await call('tok-n1', 'POST', '/api/v1/nodes', node('n3'));
    expect(create.status).toBe(403);
    expect(create.json.message).toBe('nodes "n3" is forbidden: node "n1" is not allowed to modify node "n3"');
  });

  it('lets a node create only mirror pods bound to itself', async () => {
    const plain = await call('tok-n1', 'POST', `${NS}/pods`, pod('plain', 'n1'));
    expect(plain.status).toBe(403);
    expect(plain.json.message).toBe('pods "plain" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods');
    const uid = (await admin('GET', '/api/v1/nodes/n1')).json.metadata.uid;
    const mirror = (nodeName: string) => ({
      ...pod('static-n1', nodeName),
      metadata: { name: 'static-n1', annotations: { 'kubernetes.io/config.mirror': 'h' }, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'n1', uid, controller: true }] },
    });
    expect((await call('tok-n1', 'POST', `${NS}/pods`, mirror('n2'))).json.message).toBe('pods "static-n1" is forbidden: node "n1" can only create pods with spec.nodeName set to itself');
    expect((await call('tok-n1', 'POST', `${NS}/pods`, mirror('n1'))).status).toBe(201);
    const del = await call('tok-n2', 'DELETE', `${NS}/pods/static-n1`);
    expect(del.status).toBe(403);
    expect(del.json.message).toBe('pods "static-n1" is forbidden: node "n2" can only delete pods with spec.nodeName set to itself');
  });
});

describe('a node identified by its client certificate', () => {
  it('reads the Secret of its Pod over TLS, and not the Secret of another', async () => {
    const ca = await createCA('node-authz-test-ca');
    const caFile = join(dir, 'client-ca.crt');
    writeFileSync(caFile, ca.certPEM);
    // the admin uses a token here: its certificate is of the server's own CA, not this one
    const tls = await startServer({ authorizationMode: ['Node'], clientCAFile: caFile, tokenAuthFile: join(dir, 'tokens.csv'), log: () => {} });
    try {
      const cert = await issueCertificate(ca, { commonName: 'system:node:n1', organizations: ['system:nodes'], usage: 'client', validityDays: 1 });
      const asNode = new Agent({ connect: { ca: tls.caPEM, cert: cert.certPEM, key: cert.keyPEM } });
      const asAdmin = new Agent({ connect: { ca: tls.caPEM } });
      const send = async (agent: Agent, method: string, path: string, body?: unknown) => {
        const headers: Record<string, string> = agent === asAdmin ? { authorization: 'Bearer tok-admin' } : {};
        if (body !== undefined) headers['content-type'] = 'application/json';
        const r = await undiciFetch(`${tls.url}${path}`, { method, dispatcher: agent, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: r.status, json: (await r.json()) as any };
      };
      for (const n of ['tls-mine', 'tls-other']) expect((await send(asAdmin, 'POST', `${NS}/secrets`, secret(n))).status).toBe(201);
      expect((await send(asAdmin, 'POST', `${NS}/pods`, pod('tls-p1', 'n1', { volumes: [{ name: 'v', secret: { secretName: 'tls-mine' } }] }))).status).toBe(201);
      expect((await send(asAdmin, 'POST', `${NS}/pods`, pod('tls-p2', 'n2', { volumes: [{ name: 'v', secret: { secretName: 'tls-other' } }] }))).status).toBe(201);
      await eventually(async () => (await send(asNode, 'GET', `${NS}/secrets/tls-mine`)).status === 200);
      const other = await send(asNode, 'GET', `${NS}/secrets/tls-other`);
      expect(other.status).toBe(403);
      expect(other.json.message).toMatch(/User "system:node:n1" cannot get resource "secrets" .*: no relationship found between node 'n1' and this object$/);
      await asNode.close();
      await asAdmin.close();
    } finally {
      await tls.stop();
    }
  });
});

describe('the graph at start-up', () => {
  it('is loaded from the stored Pods before the server answers', async () => {
    const dataDir = join(dir, 'data');
    const tokenAuthFile = join(dir, 'tokens.csv');
    const first = await startServer({ dataDir, port: 0, authorizationMode: ['Node'], tokenAuthFile, log: () => {} });
    try {
      const req = (token: string, method: string, path: string, body?: unknown) =>
        first.app.request(path, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      expect((await req('tok-admin', 'POST', `${NS}/secrets`, secret('kept'))).status).toBe(201);
      expect((await req('tok-admin', 'POST', `${NS}/pods`, pod('kept-pod', 'n1', { volumes: [{ name: 'v', secret: { secretName: 'kept' } }] }))).status).toBe(201);
    } finally {
      await first.stop();
    }
    const second = await startServer({ dataDir, port: 0, authorizationMode: ['Node'], tokenAuthFile, log: () => {} });
    try {
      // the first request after start: no waiting for a watch
      const r = await second.app.request(`${NS}/secrets/kept`, { headers: { authorization: 'Bearer tok-n1' } });
      expect(r.status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});
