// The tokens controller's plan for service-account-token Secrets, and the
// round trip: a filled-in Secret's token authenticates as a legacy token,
// and stops once the Secret is deleted.

import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { ServiceAccountTokenAuthenticator } from './authenticator.ts';
import { TokenIssuer } from './issuer.ts';
import { signingKey } from './keys.ts';
import { planTokenSecret } from './token-secrets.ts';

const key = signingKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
const issuer = new TokenIssuer({ key, issuer: 'https://kubernetes.default.svc.cluster.local' });
const CA = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const sa = { metadata: { name: 'build', namespace: 'ns', uid: 'sa-uid' } };

function secret(annotations: Record<string, string>, data?: Record<string, string>, type = 'kubernetes.io/service-account-token'): Record<string, unknown> {
  return { metadata: { name: 'build-token', namespace: 'ns', uid: 'sec-uid', annotations }, type, ...(data ? { data } : {}) };
}

function b64(s: string): string {
  return Buffer.from(s).toString('base64');
}

describe('planTokenSecret', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown> | undefined, string]>([
    ['other secret types', secret({ 'kubernetes.io/service-account.name': 'build' }, undefined, 'Opaque'), sa, 'none'],
    ['no service account', secret({ 'kubernetes.io/service-account.name': 'build' }), undefined, 'delete'],
    ['service account replaced', secret({ 'kubernetes.io/service-account.name': 'build', 'kubernetes.io/service-account.uid': 'old' }), sa, 'delete'],
    ['complete already', secret({ 'kubernetes.io/service-account.name': 'build' }, { token: b64('t'), namespace: b64('ns'), 'ca.crt': b64(CA) }), sa, 'none'],
    ['stale CA', secret({ 'kubernetes.io/service-account.name': 'build' }, { token: b64('t'), namespace: b64('ns'), 'ca.crt': b64('old') }), sa, 'update'],
    ['empty', secret({ 'kubernetes.io/service-account.name': 'build' }), sa, 'update'],
  ])('%s: %s', async (_n, s, account, action) => {
    expect((await planTokenSecret(s, account, issuer, CA)).action).toBe(action);
  });
  it('deletes with the uid as precondition', async () => {
    expect(await planTokenSecret(secret({ 'kubernetes.io/service-account.name': 'build' }), undefined, issuer, CA)).toEqual({ action: 'delete', namespace: 'ns', name: 'build-token', uid: 'sec-uid' });
  });
  it('fills token, namespace, ca.crt and the annotations; the token authenticates until the Secret goes', async () => {
    const plan = await planTokenSecret(secret({ 'kubernetes.io/service-account.name': 'build' }), sa, issuer, CA);
    if (plan.action !== 'update') throw new Error('expected an update');
    const filled = plan.secret as { metadata: { annotations: Record<string, string> }; data: Record<string, string> };
    expect(filled.metadata.annotations).toEqual({ 'kubernetes.io/service-account.name': 'build', 'kubernetes.io/service-account.uid': 'sa-uid' });
    expect(Buffer.from(filled.data.namespace, 'base64').toString()).toBe('ns');
    expect(Buffer.from(filled.data['ca.crt'], 'base64').toString()).toBe(CA);
    const token = Buffer.from(filled.data.token, 'base64').toString();
    const store: Record<string, Record<string, unknown> | undefined> = { 'serviceaccounts/ns/build': sa, 'secrets/ns/build-token': plan.secret };
    const authn = new ServiceAccountTokenAuthenticator({
      issuers: ['https://kubernetes.default.svc.cluster.local'],
      keys: [key],
      apiAudiences: ['https://kubernetes.default.svc.cluster.local'],
      reader: { get: async (r, ns, n) => store[`${r}/${ns}/${n}`] },
    });
    expect((await authn.authenticateToken(token, []))?.user).toEqual({
      name: 'system:serviceaccount:ns:build',
      uid: 'sa-uid',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
    });
    delete store['secrets/ns/build-token'];
    await expect(authn.authenticateToken(token, [])).rejects.toThrow(ApiError);
  });
});
