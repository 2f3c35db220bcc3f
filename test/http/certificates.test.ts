// CertificateSigningRequest through app.request(): create (the requester's
// identity recorded, status empty), validation rows, approval and denial
// through the approval subresource only, the in-process signers (a
// certificate for kube-apiserver-client, Failed for a refused request),
// the Table columns, and the system:masters subject restriction.

import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../runtime/index.ts';
import { call, causeMessages, server, until } from '../semantics/helpers.ts';
import { makeCSR } from '../support/csr.ts';

const PATH = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
let s: RunningServer;
beforeAll(async () => {
  s = await server();
});
afterAll(async () => {
  await s?.stop();
});

let n = 0;
const uniq = (p: string) => `${p}-${++n}`;

function csrBody(name: string, spec: Record<string, unknown>) {
  return { apiVersion: 'certificates.k8s.io/v1', kind: 'CertificateSigningRequest', metadata: { name }, spec };
}

const clientSpec = (extra: Record<string, unknown> = {}) => ({
  request: makeCSR({ commonName: 'alice', organizations: ['dev'] }).request,
  signerName: 'kubernetes.io/kube-apiserver-client',
  usages: ['client auth'],
  ...extra,
});

async function approve(name: string, type: 'Approved' | 'Denied') {
  const live = await call(s, 'GET', `${PATH}/${name}`);
  const conditions = [...(live.body.status?.conditions ?? []), { type, status: 'True', reason: 'Test', message: 'by the test' }];
  return call(s, 'PUT', `${PATH}/${name}/approval`, { ...live.body, status: { ...live.body.status, conditions } });
}

describe('create', () => {
  it('records the requester, drops a pre-set status and identity', async () => {
    const name = uniq('csr');
    const r = await call(s, 'POST', PATH, { ...csrBody(name, clientSpec({ username: 'mallory', groups: ['system:masters'] })), status: { conditions: [{ type: 'Approved', status: 'True' }] } });
    expect(r.code, JSON.stringify(r.body)).toBe(201);
    expect(r.body.spec.username).toBe('system:anonymous');
    expect(r.body.spec.groups).toEqual(['system:unauthenticated']);
    expect(r.body.status).toEqual({});
  });

  const bad = makeCSR({ commonName: 'x', tamper: true }).request;
  it.each([
    ['signerName required', { signerName: '' }, 'spec.signerName: Required value'],
    ['signerName qualified', { signerName: 'example' }, 'spec.signerName: Invalid value: "example": must be a fully qualified domain and path of the form \'example.com/signer-name\''],
    ['signerName domain', { signerName: 'example/x' }, 'spec.signerName: Invalid value: "example": should be a domain with at least two segments separated by dots'],
    ['legacy signer', { signerName: 'kubernetes.io/legacy-unknown' }, 'spec.signerName: Invalid value: "kubernetes.io/legacy-unknown": the legacy signerName is not allowed via this API version'],
    ['usages required', { usages: [] }, 'spec.usages: Required value'],
    ['usage value', { usages: ['client auth', 'flying'] }, 'spec.usages[1]: Unsupported value: "flying"'],
    ['usage repeated', { usages: ['client auth', 'client auth'] }, 'spec.usages[1]: Duplicate value: "client auth"'],
    ['expirationSeconds minimum', { expirationSeconds: 599 }, 'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds (10 minutes)'],
    ['request not PEM', { request: Buffer.from('hello').toString('base64') }, 'spec.request: Invalid value: '],
    ['request signature', { request: bad }, 'spec.request: Invalid value: '],
  ])('%s', async (_name, extra, line) => {
    const r = await call(s, 'POST', PATH, csrBody(uniq('bad'), clientSpec(extra)));
    expect(r.code, JSON.stringify(r.body)).toBe(422);
    expect(
      causeMessages(r).some((m) => m.startsWith(line)),
      causeMessages(r).join('\n'),
    ).toBe(true);
  });

  it('says why a request does not verify, as upstream', async () => {
    const notPEM = await call(s, 'POST', PATH, csrBody(uniq('bad'), clientSpec({ request: Buffer.from('hello').toString('base64') })));
    expect(causeMessages(notPEM).join('\n')).toContain('PEM block type must be CERTIFICATE REQUEST');
    const tampered = await call(s, 'POST', PATH, csrBody(uniq('bad'), clientSpec({ request: bad })));
    expect(causeMessages(tampered).join('\n')).toContain('x509: ECDSA verification failure');
  });

  it('refuses a kube-apiserver-client request for system:masters (403)', async () => {
    const r = await call(s, 'POST', PATH, csrBody(uniq('masters'), clientSpec({ request: makeCSR({ commonName: 'eve', organizations: ['system:masters'] }).request })));
    expect(r.code, JSON.stringify(r.body)).toBe(403);
    expect(r.body.message).toContain('use of kubernetes.io/kube-apiserver-client signer with system:masters group is not allowed');
  });
});

describe('approval and signing', () => {
  it('approval issues a client certificate for the subject, for the requested duration', async () => {
    const name = uniq('ok');
    expect((await call(s, 'POST', PATH, csrBody(name, clientSpec({ expirationSeconds: 3600 })))).code).toBe(201);
    const a = await approve(name, 'Approved');
    expect(a.code, JSON.stringify(a.body)).toBe(200);
    expect(a.body.status.conditions[0]).toMatchObject({ type: 'Approved', status: 'True' });
    expect(a.body.status.conditions[0].lastUpdateTime).toBeTruthy();
    let issued: any;
    await until(async () => {
      issued = (await call(s, 'GET', `${PATH}/${name}`)).body;
      return !!issued.status?.certificate;
    });
    const cert = new X509Certificate(Buffer.from(issued.status.certificate, 'base64'));
    expect(cert.subject).toContain('CN=alice');
    expect(cert.subject).toContain('O=dev');
    expect(cert.ca).toBe(false);
    expect(Date.parse(cert.validTo) - Date.parse(cert.validFrom)).toBe(3600_000 + 5 * 60_000);
    const table = await s.app.request(`${PATH}/${name}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    const t = await table.json();
    expect(t.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition']);
    expect(t.rows[0].cells.slice(2)).toEqual(['kubernetes.io/kube-apiserver-client', 'system:anonymous', '60m', 'Approved,Issued']);
  });

  it('the signer refuses usages its rules do not allow: Failed', async () => {
    const name = uniq('usage');
    expect((await call(s, 'POST', PATH, csrBody(name, clientSpec({ usages: ['client auth', 'server auth'] })))).code).toBe(201);
    expect((await approve(name, 'Approved')).code).toBe(200);
    let live: any;
    await until(async () => {
      live = (await call(s, 'GET', `${PATH}/${name}`)).body;
      return (live.status?.conditions ?? []).some((c: any) => c.type === 'Failed');
    });
    expect(live.status.conditions[1]).toMatchObject({ type: 'Failed', status: 'True', reason: 'SignerValidationFailure', message: 'invalid usage for client certificate: server auth' });
    expect(live.status.certificate).toBeUndefined();
  });

  it('denial: Approved and Denied exclusive, conditions not removable, not set through the main resource or status', async () => {
    const name = uniq('deny');
    const created = await call(s, 'POST', PATH, csrBody(name, clientSpec()));
    const viaMain = await call(s, 'PUT', `${PATH}/${name}`, { ...created.body, status: { conditions: [{ type: 'Approved', status: 'True' }] } });
    expect(viaMain.code).toBe(200);
    expect(viaMain.body.status?.conditions).toBeUndefined();
    const viaStatus = await call(s, 'PUT', `${PATH}/${name}/status`, { ...viaMain.body, status: { conditions: [{ type: 'Approved', status: 'True' }] } });
    expect(viaStatus.code, JSON.stringify(viaStatus.body)).toBe(200);
    expect(viaStatus.body.status?.conditions).toBeUndefined();
    expect((await approve(name, 'Denied')).code).toBe(200);
    const both = await approve(name, 'Approved');
    expect(both.code).toBe(422);
    expect(causeMessages(both)).toContain('status.conditions[1].type: Invalid value: "Approved": Approved and Denied conditions are mutually exclusive');
    const live = (await call(s, 'GET', `${PATH}/${name}`)).body;
    const removed = await call(s, 'PUT', `${PATH}/${name}/approval`, { ...live, status: { conditions: [] } });
    expect(removed.code).toBe(422);
    expect(causeMessages(removed)).toContain('status.conditions: Forbidden: updates may not remove a condition of type "Denied"');
    const spec = await call(s, 'PUT', `${PATH}/${name}`, { ...live, spec: { ...live.spec, signerName: 'example.com/other' } });
    expect(spec.code).toBe(200);
    expect(spec.body.spec.signerName).toBe('kubernetes.io/kube-apiserver-client');
  });
});
