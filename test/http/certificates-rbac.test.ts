// CertificateSigningRequest approval and signing under --authorization-mode=RBAC
// through app.request(): being allowed to update the approval or status
// subresource is not enough; approving needs `approve` and setting the
// certificate through status needs `sign` on the signer (its exact name or
// `<domain>/*`), with upstream's 403 text, while a condition alone needs
// no more than the update; a user bound to the bootstrap
// kube-apiserver-client-approver role approves, and the in-process signer
// (as the certificate-controller service account) then issues the certificate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCA } from '../../runtime/auth/pki/certs.ts';
import type { RequestAuthenticator } from '../../runtime/auth/authenticator.ts';
import type { UserInfo } from '../../runtime/auth/user.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { until } from '../semantics/helpers.ts';
import { makeCSR } from '../support/csr.ts';

const USERS: Record<string, UserInfo> = {
  admin: { name: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] },
  clerk: { name: 'clerk', groups: ['system:authenticated'] },
  wild: { name: 'wild', groups: ['system:authenticated'] },
};
const tokens: RequestAuthenticator = {
  authenticate: async (req) => {
    const m = /^Bearer (\w+)$/.exec(req.header('authorization') ?? '');
    const u = m && USERS[m[1]];
    return u ? { user: u } : undefined;
  },
};

const PATH = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
let s: RunningServer;

async function as(who: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${who}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await s.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

const clusterRole = (name: string, rules: object[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules });
const bind = (name: string, role: string, userName: string) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRoleBinding',
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
  subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: userName }],
});

async function createCSR(name: string, signerName: string): Promise<void> {
  const spec = { request: makeCSR({ commonName: 'alice', organizations: ['dev'] }).request, signerName, usages: ['client auth'] };
  const r = await as('admin', 'POST', PATH, { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name }, spec });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
}

/** PUT of the live object with one more condition, through a subresource. */
async function addCondition(who: string, name: string, subresource: 'approval' | 'status', type: string) {
  const live = (await as('admin', 'GET', `${PATH}/${name}`)).json;
  const conditions = [...(live.status?.conditions ?? []), { type, status: 'True', reason: 'Test', message: 'by the test' }];
  return as(who, 'PUT', `${PATH}/${name}/${subresource}`, { ...live, status: { ...live.status, conditions } });
}

/** PUT of the live object with status.certificate set, through status. */
async function setCertificate(who: string, name: string, certPEM: string) {
  const live = (await as('admin', 'GET', `${PATH}/${name}`)).json;
  return as(who, 'PUT', `${PATH}/${name}/status`, { ...live, status: { ...live.status, certificate: Buffer.from(certPEM).toString('base64') } });
}

const forbidden = (name: string, verb: string, signer: string) =>
  `certificatesigningrequests.certificates.k8s.io "${name}" is forbidden: user not permitted to ${verb} requests with signerName "${signer}"`;

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['RBAC'], port: 0, authenticators: [tokens] });
  // updating the subresources is allowed to both; approve and sign are not (yet)
  const updater = clusterRole('csr-updater', [
    { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests'], verbs: ['get'] },
    { apiGroups: ['certificates.k8s.io'], resources: ['certificatesigningrequests/approval', 'certificatesigningrequests/status'], verbs: ['update'] },
  ]);
  expect((await as('admin', 'POST', `${RBAC}/clusterroles`, updater)).status).toBe(201);
  for (const u of ['clerk', 'wild']) expect((await as('admin', 'POST', `${RBAC}/clusterrolebindings`, bind(`${u}-updater`, 'csr-updater', u))).status).toBe(201);
  await until(async () => (await as('clerk', 'GET', `${PATH}/none`)).status === 404, 30_000);
  await until(async () => (await as('wild', 'GET', `${PATH}/none`)).status === 404, 30_000);
});
afterAll(async () => {
  await s?.stop();
});

describe('approval needs approve on the signer', () => {
  it('403 without it; with the bootstrap approver role 200, and the in-process signer issues', async () => {
    await createCSR('alice-1', 'kubernetes.io/kube-apiserver-client');
    const denied = await addCondition('clerk', 'alice-1', 'approval', 'Approved');
    expect(denied.status).toBe(403);
    expect(denied.json).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403, message: forbidden('alice-1', 'approve', 'kubernetes.io/kube-apiserver-client') });
    expect(denied.json.details).toMatchObject({ name: 'alice-1', group: 'certificates.k8s.io', kind: 'certificatesigningrequests' });

    const b = await as('admin', 'POST', `${RBAC}/clusterrolebindings`, bind('clerk-approver', 'system:certificates.k8s.io:kube-apiserver-client-approver', 'clerk'));
    expect(b.status).toBe(201);
    let approved: { status: number; json: any } | undefined;
    await until(async () => {
      approved = await addCondition('clerk', 'alice-1', 'approval', 'Approved');
      return approved.status !== 403;
    }, 30_000);
    expect(approved!.status, JSON.stringify(approved!.json)).toBe(200);
    let live: any;
    await until(async () => {
      live = (await as('admin', 'GET', `${PATH}/alice-1`)).json;
      return !!live.status?.certificate || (live.status?.conditions ?? []).some((c: any) => c.type === 'Failed');
    }, 30_000);
    expect(live.status.certificate).toBeTruthy();
  });

  it('the role names one signer: another signer of the domain stays refused', async () => {
    await createCSR('alice-2', 'kubernetes.io/kube-apiserver-client-kubelet');
    const r = await addCondition('clerk', 'alice-2', 'approval', 'Denied');
    expect(r.status).toBe(403);
    expect(r.json.message).toBe(forbidden('alice-2', 'approve', 'kubernetes.io/kube-apiserver-client-kubelet'));
  });

  it('a grant on <domain>/* covers every signer of the domain, and no other domain', async () => {
    const role = clusterRole('example-signers', [{ apiGroups: ['certificates.k8s.io'], resources: ['signers'], resourceNames: ['example.com/*'], verbs: ['approve', 'sign'] }]);
    expect((await as('admin', 'POST', `${RBAC}/clusterroles`, role)).status).toBe(201);
    await createCSR('ex-1', 'example.com/one');
    await createCSR('other-1', 'other.io/one');
    const { certPEM } = await createCA('issued-by-test');
    const before = await setCertificate('wild', 'ex-1', certPEM);
    expect(before.status).toBe(403);
    expect(before.json.message).toBe(forbidden('ex-1', 'sign', 'example.com/one'));

    expect((await as('admin', 'POST', `${RBAC}/clusterrolebindings`, bind('wild-example', 'example-signers', 'wild'))).status).toBe(201);
    let r: { status: number; json: any } | undefined;
    await until(async () => {
      r = await addCondition('wild', 'ex-1', 'approval', 'Approved');
      return r.status !== 403;
    }, 30_000);
    expect(r!.status, JSON.stringify(r!.json)).toBe(200);
    const signed = await setCertificate('wild', 'ex-1', certPEM);
    expect(signed.status, JSON.stringify(signed.json)).toBe(200);
    expect(Buffer.from(signed.json.status.certificate, 'base64').toString()).toBe(certPEM);

    const other = await addCondition('wild', 'other-1', 'approval', 'Approved');
    expect(other.status).toBe(403);
    expect(other.json.message).toBe(forbidden('other-1', 'approve', 'other.io/one'));
  });

  it('a status write that leaves the certificate alone needs no sign (a Failed condition)', async () => {
    await createCSR('plain-1', 'other.io/one');
    const r = await addCondition('clerk', 'plain-1', 'status', 'Failed');
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.status.conditions.map((c: any) => c.type)).toEqual(['Failed']);
  });
});
