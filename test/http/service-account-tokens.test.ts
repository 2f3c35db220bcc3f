// Service-account tokens through the HTTP API of an in-process server:
// every namespace gets its `default` ServiceAccount; Pods run as it;
// TokenRequest issues a token the server then accepts as that account
// (SelfSubjectReview, TokenReview), bound tokens die with their Pod;
// the issuer discovery documents describe the signing key; bad requests
// and bad tokens are Statuses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { serverCaller } from '../support/server-call.ts';

let s: RunningServer;
let call: ReturnType<typeof serverCaller>;
beforeAll(async () => {
  s = await startServer();
  call = serverCaller(s);
});
afterAll(async () => {
  await s?.stop();
});

/** Waits for the controller to create the default account (an event, not a time: polls the object). */
async function defaultAccount(ns: string): Promise<any> {
  for (let i = 0; i < 500; i++) {
    const r = await call(`/api/v1/namespaces/${ns}/serviceaccounts/default`);
    if (r.status === 200) return r.json;
    await new Promise((res) => setImmediate(res));
  }
  throw new Error(`no default ServiceAccount in ${ns}`);
}

const tokenRequest = (spec: object = {}) => ({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });
const whoami = (token: string) => call('/apis/authentication.k8s.io/v1/selfsubjectreviews', { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, token });

describe('service accounts and their tokens', () => {
  it('gives every namespace a default ServiceAccount, and again when it is deleted', async () => {
    for (const ns of ['default', 'kube-system']) expect((await defaultAccount(ns)).metadata.name).toBe('default');
    expect((await call('/api/v1/namespaces', { method: 'POST', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } } })).status).toBe(201);
    const sa = await defaultAccount('team-a');
    // deleted, it comes back (with a new uid)
    expect((await call('/api/v1/namespaces/team-a/serviceaccounts/default', { method: 'DELETE' })).status).toBe(200);
    let again;
    for (let i = 0; i < 500 && !(again && again.metadata.uid !== sa.metadata.uid); i++) again = await defaultAccount('team-a').catch(() => undefined);
    expect(again.metadata.uid).not.toBe(sa.metadata.uid);
  });

  it('issues a token the server accepts as the account (SelfSubjectReview, TokenReview with its audiences)', async () => {
    const sa = await defaultAccount('default');
    const r = await call('/api/v1/namespaces/default/serviceaccounts/default/token', { method: 'POST', body: tokenRequest({ expirationSeconds: 600 }) });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audiences: ['https://kubernetes.default.svc.cluster.local'], expirationSeconds: 600 } });
    const token: string = r.json.status.token;
    expect(Date.parse(r.json.status.expirationTimestamp) - Date.now()).toBeGreaterThan(500_000);
    const me = await whoami(token);
    expect(me.json.status.userInfo).toMatchObject({
      username: 'system:serviceaccount:default:default',
      uid: sa.metadata.uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'],
    });
    expect(me.json.status.userInfo.extra['authentication.kubernetes.io/credential-id'][0]).toMatch(/^JTI=/);
    const review = await call('/apis/authentication.k8s.io/v1/tokenreviews', { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } } });
    expect(review.json.status).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:default' }, audiences: ['https://kubernetes.default.svc.cluster.local'] });
    const other = await call('/apis/authentication.k8s.io/v1/tokenreviews', {
      method: 'POST',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, audiences: ['vault'] } },
    });
    expect(other.json.status.authenticated).toBeUndefined();
  });

  it('a token bound to a Pod (which runs as default) dies with it', async () => {
    await defaultAccount('default');
    const pod = await call('/api/v1/namespaces/default/pods', {
      method: 'POST',
      body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bound' }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    });
    expect(pod.status).toBe(201);
    expect(pod.json.spec.serviceAccountName).toBe('default');
    // the projected token volume, mounted where client libraries look for it
    const volume = pod.json.spec.volumes.find((v: { name: string }) => v.name.startsWith('kube-api-access-'));
    expect(volume.projected.sources[0]).toEqual({ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } });
    expect(pod.json.spec.containers[0].volumeMounts).toEqual([{ name: volume.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    const r = await call('/api/v1/namespaces/default/serviceaccounts/default/token', {
      method: 'POST',
      body: tokenRequest({ boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'bound', uid: pod.json.metadata.uid } }),
    });
    expect(r.status).toBe(201);
    const token = r.json.status.token;
    const me = await whoami(token);
    expect(me.json.status.userInfo.extra['authentication.kubernetes.io/pod-name']).toEqual(['bound']);
    expect((await call('/api/v1/namespaces/default/pods/bound', { method: 'DELETE', body: { gracePeriodSeconds: 0 } })).status).toBe(200);
    const after = await whoami(token);
    expect(after.status).toBe(401);
  });

  it('fills a legacy token Secret; its token works until the Secret is deleted', async () => {
    await defaultAccount('default');
    const created = await call('/api/v1/namespaces/default/secrets', {
      method: 'POST',
      body: {
        apiVersion: 'v1',
        kind: 'Secret',
        type: 'kubernetes.io/service-account-token',
        metadata: { name: 'legacy', annotations: { 'kubernetes.io/service-account.name': 'default' } },
      },
    });
    expect(created.status).toBe(201);
    let secret: any;
    for (let i = 0; i < 2000 && !secret?.data?.token; i++) {
      secret = (await call('/api/v1/namespaces/default/secrets/legacy')).json;
      if (!secret?.data?.token) await new Promise((r) => setImmediate(r));
    }
    expect(Buffer.from(secret.data.namespace, 'base64').toString()).toBe('default');
    expect(Buffer.from(secret.data['ca.crt'], 'base64').toString()).toBe(s.caPEM);
    const token = Buffer.from(secret.data.token, 'base64').toString();
    expect((await whoami(token)).json.status.userInfo.username).toBe('system:serviceaccount:default:default');
    expect((await call('/api/v1/namespaces/default/secrets/legacy', { method: 'DELETE' })).status).toBe(200);
    expect((await whoami(token)).status).toBe(401);
  });

  it('answers bad TokenRequests with Statuses', async () => {
    await defaultAccount('default');
    const rows: [string, string, unknown, number][] = [
      ['an unknown account', 'nobody', tokenRequest(), 404],
      ['too short a lifetime', 'default', tokenRequest({ expirationSeconds: 10 }), 422],
      ['a Pod that does not exist', 'default', tokenRequest({ boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'ghost' } }), 404],
      ['a kind that cannot be bound', 'default', tokenRequest({ boundObjectRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' } }), 400],
      ['another kind of body', 'default', { apiVersion: 'v1', kind: 'ConfigMap' }, 400],
    ];
    for (const [name, sa, body, code] of rows) {
      const r = await call(`/api/v1/namespaces/default/serviceaccounts/${sa}/token`, { method: 'POST', body });
      expect([name, r.status, r.json.kind]).toEqual([name, code, 'Status']);
    }
  });

  it('refuses forged and foreign tokens with 401', async () => {
    const r = await call('/api/v1/namespaces/default/serviceaccounts/default/token', { method: 'POST', body: tokenRequest() });
    const [h, p, sig] = String(r.json.status.token).split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, sub: 'system:serviceaccount:kube-system:default' })).toString('base64url')}.${sig}`;
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    for (const t of [forged, none, `${h}.${p}`, 'x'.repeat(20_000)]) expect((await whoami(t)).status).toBe(401);
  });

  it('publishes the issuer discovery documents with the signing key', async () => {
    const cfg = await call('/.well-known/openid-configuration');
    expect(cfg.json).toEqual({
      issuer: 'https://kubernetes.default.svc.cluster.local',
      jwks_uri: `${s.url}/openid/v1/jwks`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
    const jwks = await call('/openid/v1/jwks');
    expect(jwks.json.keys).toHaveLength(1);
    expect(jwks.json.keys[0]).toMatchObject({ use: 'sig', kty: 'EC', alg: 'ES256' });
    const r = await call('/api/v1/namespaces/default/serviceaccounts/default/token', { method: 'POST', body: tokenRequest() });
    expect(JSON.parse(Buffer.from(r.json.status.token.split('.')[0], 'base64url').toString()).kid).toBe(jwks.json.keys[0].kid);
  });
});
