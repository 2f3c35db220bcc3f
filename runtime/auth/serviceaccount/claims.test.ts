// Claims and signing: the bound and legacy claim sets, the payload's key
// order and header as kube-apiserver writes them, the user a token stands
// for (groups and extra keys), and service-account user name parsing.

import { decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { boundClaims, credentialIDForJTI, serviceAccountUser, splitUsername } from './claims.ts';
import { TokenIssuer } from './issuer.ts';
import { parsePrivateKeyPem } from './keys.ts';
import { EC_PRIVATE } from './test-keys.ts';

const key = parsePrivateKeyPem(EC_PRIVATE);
const SA = { namespace: 'ns', name: 'sa', uid: 'sa-uid' };

function payloadText(token: string): string {
  return Buffer.from(token.split('.')[1], 'base64url').toString('utf8');
}

describe('bound claims', () => {
  const base = { serviceAccount: SA, audiences: ['api'], expirationSeconds: 3600, now: 1000, jti: 'j-1' };
  it.each<[string, Partial<Parameters<typeof boundClaims>[0]>, Record<string, unknown>]>([
    ['unbound', {}, { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'sa-uid' } }],
    [
      'pod with its node',
      { pod: { name: 'p', uid: 'p-uid' }, node: { name: 'n', uid: 'n-uid' } },
      { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'sa-uid' }, pod: { name: 'p', uid: 'p-uid' }, node: { name: 'n', uid: 'n-uid' } },
    ],
    [
      'pod whose Node object is missing (name only)',
      { pod: { name: 'p', uid: 'p-uid' }, node: { name: 'n', uid: '' } },
      { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'sa-uid' }, pod: { name: 'p', uid: 'p-uid' }, node: { name: 'n' } },
    ],
    ['secret', { secret: { name: 's', uid: 's-uid' } }, { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'sa-uid' }, secret: { name: 's', uid: 's-uid' } }],
    ['node', { node: { name: 'n', uid: 'n-uid' } }, { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'sa-uid' }, node: { name: 'n', uid: 'n-uid' } }],
    ['warnafter', { warnAfterSeconds: 3607 }, { namespace: 'ns', serviceaccount: { name: 'sa', uid: 'sa-uid' }, warnafter: 4607 }],
  ])('%s', (_n, extra, want) => {
    const c = boundClaims({ ...base, ...extra });
    expect(c).toMatchObject({ sub: 'system:serviceaccount:ns:sa', aud: ['api'], iat: 1000, nbf: 1000, exp: 4600, jti: 'j-1' });
    expect(c['kubernetes.io']).toEqual(want);
  });
  it('refuses a secret binding together with a pod or node', () => {
    expect(() => boundClaims({ ...base, secret: { name: 's', uid: 'u' }, node: { name: 'n', uid: 'u' } })).toThrow('token can only be bound to one object type');
  });
});

describe('signing', () => {
  const issuer = new TokenIssuer({ key, issuer: 'https://kubernetes.default.svc.cluster.local', now: () => 1_700_000_000_500, newUUID: () => 'uuid-1' });
  it('writes the header and payload as kube-apiserver does (sorted keys at every level, array aud)', async () => {
    const { token } = await issuer.issueBound({
      serviceAccount: SA,
      pod: { name: 'p', uid: 'p-uid' },
      node: { name: 'n', uid: 'n-uid' },
      audiences: ['https://kubernetes.default.svc.cluster.local'],
      expirationSeconds: 3600,
    });
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: key.keyId });
    expect(Buffer.from(token.split('.')[0], 'base64url').toString()).toBe(`{"alg":"ES256","kid":"${key.keyId}"}`);
    expect(payloadText(token)).toBe(
      '{"aud":["https://kubernetes.default.svc.cluster.local"],"exp":1700003600,"iat":1700000000,' +
        '"iss":"https://kubernetes.default.svc.cluster.local","jti":"uuid-1",' +
        '"kubernetes.io":{"namespace":"ns","node":{"name":"n","uid":"n-uid"},"pod":{"name":"p","uid":"p-uid"},' +
        '"serviceaccount":{"name":"sa","uid":"sa-uid"}},"nbf":1700000000,"sub":"system:serviceaccount:ns:sa"}',
    );
  });
  it('writes legacy tokens with the legacy issuer and flat claims', async () => {
    const token = await issuer.issueLegacy(SA, 'sa-token-x');
    expect(JSON.parse(payloadText(token))).toEqual({
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': 'ns',
      'kubernetes.io/serviceaccount/secret.name': 'sa-token-x',
      'kubernetes.io/serviceaccount/service-account.name': 'sa',
      'kubernetes.io/serviceaccount/service-account.uid': 'sa-uid',
      sub: 'system:serviceaccount:ns:sa',
    });
  });
});

describe('the user of a token', () => {
  it.each<[string, Parameters<typeof serviceAccountUser>[0], Record<string, string[]> | undefined]>([
    ['plain', { namespace: 'ns', name: 'sa', uid: 'u' }, undefined],
    [
      'pod, node and jti',
      { namespace: 'ns', name: 'sa', uid: 'u', podName: 'p', podUID: 'pu', nodeName: 'n', nodeUID: 'nu', credentialID: 'JTI=j' },
      {
        'authentication.kubernetes.io/pod-name': ['p'],
        'authentication.kubernetes.io/pod-uid': ['pu'],
        'authentication.kubernetes.io/credential-id': ['JTI=j'],
        'authentication.kubernetes.io/node-name': ['n'],
        'authentication.kubernetes.io/node-uid': ['nu'],
      },
    ],
    ['node without uid', { namespace: 'ns', name: 'sa', uid: 'u', nodeName: 'n' }, { 'authentication.kubernetes.io/node-name': ['n'] }],
    ['pod name without uid is not reported', { namespace: 'ns', name: 'sa', uid: 'u', podName: 'p' }, undefined],
  ])('%s', (_n, info, extra) => {
    const u = serviceAccountUser(info);
    expect(u.name).toBe('system:serviceaccount:ns:sa');
    expect(u.uid).toBe('u');
    expect(u.groups).toEqual(['system:serviceaccounts', 'system:serviceaccounts:ns']);
    expect(u.extra).toEqual(extra);
  });
  it('credential id from jti', () => {
    expect(credentialIDForJTI('abc')).toBe('JTI=abc');
    expect(credentialIDForJTI('')).toBeUndefined();
  });
  it.each<[string, { namespace: string; name: string } | undefined]>([
    ['system:serviceaccount:ns:sa', { namespace: 'ns', name: 'sa' }],
    ['system:serviceaccount:ns:sa.dotted', { namespace: 'ns', name: 'sa.dotted' }],
    ['system:serviceaccount:ns', undefined],
    ['system:serviceaccount:ns:a:b', undefined],
    ['system:serviceaccount:NS:sa', undefined],
    ['system:serviceaccounts:ns:sa', undefined],
    ['user', undefined],
  ])('splitUsername(%j)', (u, want) => {
    expect(splitUsername(u)).toEqual(want);
  });
});
