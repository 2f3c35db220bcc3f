// Bootstrap tokens through the HTTP API: a bootstrap-token Secret makes its
// token a credential (system:bootstrap:<id> in system:bootstrappers and the
// token's extra groups); an expired one is 401 and the token cleaner
// deletes its Secret; the bootstrap signer signs kube-public/cluster-info
// with a detached HS256 JWS per signing token and drops it when the token
// goes away.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { serverCaller } from '../support/server-call.ts';
import { verifyDetachedHS256 } from '../support/jws.ts';

let s: RunningServer;
let call: ReturnType<typeof serverCaller>;
beforeAll(async () => {
  s = await startServer({ enableBootstrapTokenAuth: true, controllers: ['*', 'tokencleaner', 'bootstrapsigner'] });
  call = serverCaller(s);
});
afterAll(async () => {
  await s?.stop();
});

/** Polls until f() is true (the controllers act on watch events, not on a clock). */
async function until(what: string, f: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (await f()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never: ${what}`);
}

const tokenSecret = (id: string, secret: string, data: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  type: 'bootstrap.kubernetes.io/token',
  metadata: { name: `bootstrap-token-${id}`, namespace: 'kube-system' },
  stringData: { 'token-id': id, 'token-secret': secret, ...data },
});
const SECRETS = '/api/v1/namespaces/kube-system/secrets';
const whoami = (token: string) => call('/apis/authentication.k8s.io/v1/selfsubjectreviews', { method: 'POST', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, token });
const future = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
const past = new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');

describe('bootstrap tokens', () => {
  it('authenticate as system:bootstrap:<id>, with the extra groups', async () => {
    expect(
      (
        await call(SECRETS, {
          method: 'POST',
          body: tokenSecret('abcdef', '0123456789abcdef', {
            'usage-bootstrap-authentication': 'true',
            expiration: future,
            'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token',
          }),
        })
      ).status,
    ).toBe(201);
    const me = await whoami('abcdef.0123456789abcdef');
    expect(me.json.status.userInfo).toEqual({
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:bootstrappers:kubeadm:default-node-token', 'system:authenticated'],
    });
    // the wrong secret, a token without the authentication usage, and a malformed token are 401
    expect((await whoami('abcdef.0123456789abcdeX')).status).toBe(401);
    expect((await call(SECRETS, { method: 'POST', body: tokenSecret('signon', '0123456789abcdef', { 'usage-bootstrap-signing': 'true' }) })).status).toBe(201);
    expect((await whoami('signon.0123456789abcdef')).status).toBe(401);
    expect((await whoami('ABCDEF.0123456789abcdef')).status).toBe(401);
  });

  it('an expired token is 401, and the cleaner deletes its Secret', async () => {
    expect((await call(SECRETS, { method: 'POST', body: tokenSecret('oldold', '0123456789abcdef', { 'usage-bootstrap-authentication': 'true', expiration: past }) })).status).toBe(201);
    expect((await whoami('oldold.0123456789abcdef')).status).toBe(401);
    await until('the expired Secret is deleted', async () => (await call(`${SECRETS}/bootstrap-token-oldold`)).status === 404);
    // a live token's Secret stays
    expect((await call(`${SECRETS}/bootstrap-token-abcdef`)).status).toBe(200);
  });

  it('the signer signs cluster-info per signing token, verifiable with the token', async () => {
    const kubeconfig = 'apiVersion: v1\nkind: Config\nclusters: []\n';
    expect(
      (await call('/api/v1/namespaces/kube-public/configmaps', { method: 'POST', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cluster-info' }, data: { kubeconfig } } })).status,
    ).toBe(201);
    expect((await call(SECRETS, { method: 'POST', body: tokenSecret('signer', 'fedcba9876543210', { 'usage-bootstrap-signing': 'true', expiration: future }) })).status).toBe(201);
    let data: Record<string, string> = {};
    await until('cluster-info is signed for both signing tokens', async () => {
      data = (await call('/api/v1/namespaces/kube-public/configmaps/cluster-info')).json.data;
      return 'jws-kubeconfig-signer' in data && 'jws-kubeconfig-signon' in data;
    });
    expect(data['jws-kubeconfig-abcdef']).toBeUndefined();
    expect(await verifyDetachedHS256(data['jws-kubeconfig-signer'], kubeconfig, 'fedcba9876543210')).toBe(true);
    expect(await verifyDetachedHS256(data['jws-kubeconfig-signer'], kubeconfig, 'fedcba987654321X')).toBe(false);
    expect((await call(`${SECRETS}/bootstrap-token-signer`, { method: 'DELETE' })).status).toBe(200);
    await until('the signature of a deleted token is dropped', async () => !('jws-kubeconfig-signer' in (await call('/api/v1/namespaces/kube-public/configmaps/cluster-info')).json.data));
  });
});
