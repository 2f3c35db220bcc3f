// The service-account token authenticator, table-driven: good bound and
// legacy tokens and the user they give; what is not ours (undefined) and
// what is ours but bad (401 with upstream's message): garbage, truncated,
// oversized, alg none, wrong alg, wrong key, expired, not yet valid, wrong
// audience, unknown or replaced ServiceAccount, deleted bound objects. No
// message contains the token.

import { generateKeyPairSync } from 'node:crypto';
import { CompactSign } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { ServiceAccountTokenAuthenticator, MAX_TOKEN_BYTES } from './authenticator.ts';
import { TokenIssuer } from './issuer.ts';
import { signingKey, type SigningKey } from './keys.ts';
import type { ObjectReader, ReadableResource } from './ports.ts';

const ISS = 'https://kubernetes.default.svc.cluster.local';
const API_AUDS = [ISS];
const T0 = Date.parse('2026-01-01T00:00:00Z');

type Objects = Partial<Record<ReadableResource, Record<string, Record<string, unknown>>>>;

function reader(objects: Objects): ObjectReader {
  return {
    async get(resource, namespace, name) {
      return objects[resource]?.[`${namespace}/${name}`];
    },
  };
}

function obj(namespace: string, name: string, uid: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const { metadata, ...rest } = extra;
  return { metadata: { namespace, name, uid, ...(metadata as object) }, ...rest };
}

function b64(s: string): string {
  return Buffer.from(s).toString('base64url');
}

let key: SigningKey;
let otherKey: SigningKey;
let rsaKey: SigningKey;

beforeAll(() => {
  key = signingKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  otherKey = signingKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
  rsaKey = signingKey(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
});

const base: Objects = {
  serviceaccounts: { 'ns/sa': obj('ns', 'sa', 'sa-uid') },
  pods: { 'ns/p': obj('ns', 'p', 'p-uid') },
  secrets: { 'ns/s': obj('ns', 's', 's-uid') },
  nodes: { '/n': obj('', 'n', 'n-uid') },
};

function issuerAt(ms: number, k: SigningKey = key, iss = ISS): TokenIssuer {
  return new TokenIssuer({ key: k, issuer: iss, now: () => ms, newUUID: () => 'jti-1' });
}

function authn(opts: { objects?: Objects; now?: number; keys?: SigningKey[]; legacy?: boolean; lookup?: boolean } = {}): ServiceAccountTokenAuthenticator {
  return new ServiceAccountTokenAuthenticator({
    issuers: [ISS, 'https://old.example'],
    keys: opts.keys ?? [key, rsaKey],
    apiAudiences: API_AUDS,
    reader: reader(opts.objects ?? base),
    legacy: opts.legacy,
    lookup: opts.lookup,
    now: () => opts.now ?? T0,
  });
}

async function bound(extra: Partial<Parameters<TokenIssuer['issueBound']>[0]> = {}, at = T0, k: SigningKey = key, iss = ISS): Promise<string> {
  const { token } = await issuerAt(at, k, iss).issueBound({ serviceAccount: { namespace: 'ns', name: 'sa', uid: 'sa-uid' }, audiences: API_AUDS, expirationSeconds: 3600, ...extra });
  return token;
}

async function outcome(a: ServiceAccountTokenAuthenticator, token: string, audiences: string[] = []): Promise<string> {
  try {
    const r = await a.authenticateToken(token, audiences);
    return r ? `user ${r.user.name}` : 'undefined';
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    const err = e as ApiError;
    expect(err.code).toBe(401);
    expect(err.reason).toBe('Unauthorized');
    if (token.length > 20) expect(err.message).not.toContain(token.split('.')[2] || token);
    return `401 ${err.message}`;
  }
}

describe('good tokens', () => {
  it('a pod-bound token gives the service account user with pod, node and credential extra', async () => {
    const token = await bound({ pod: { name: 'p', uid: 'p-uid' }, node: { name: 'n', uid: 'n-uid' } });
    const r = await authn().authenticateToken(token, []);
    expect(r).toEqual({
      user: {
        name: 'system:serviceaccount:ns:sa',
        uid: 'sa-uid',
        groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'],
        extra: {
          'authentication.kubernetes.io/pod-name': ['p'],
          'authentication.kubernetes.io/pod-uid': ['p-uid'],
          'authentication.kubernetes.io/credential-id': ['JTI=jti-1'],
          'authentication.kubernetes.io/node-name': ['n'],
          'authentication.kubernetes.io/node-uid': ['n-uid'],
        },
      },
      audiences: API_AUDS,
    });
  });
  it('a node-bound token reports the node', async () => {
    const r = await authn().authenticateToken(await bound({ node: { name: 'n', uid: 'n-uid' } }), []);
    expect(r?.user.extra).toEqual({
      'authentication.kubernetes.io/credential-id': ['JTI=jti-1'],
      'authentication.kubernetes.io/node-name': ['n'],
      'authentication.kubernetes.io/node-uid': ['n-uid'],
    });
  });
  it("a pod-bound token does not need the pod's node to exist", async () => {
    const objects = { ...base, nodes: {} };
    const r = await authn({ objects }).authenticateToken(await bound({ pod: { name: 'p', uid: 'p-uid' }, node: { name: 'gone', uid: 'x' } }), []);
    expect(r?.user.extra?.['authentication.kubernetes.io/node-name']).toEqual(['gone']);
  });
  it('a secret-bound token, an RSA-signed token and a token of a second accepted issuer', async () => {
    expect(await outcome(authn(), await bound({ secret: { name: 's', uid: 's-uid' } }))).toBe('user system:serviceaccount:ns:sa');
    expect(await outcome(authn(), await bound({}, T0, rsaKey))).toBe('user system:serviceaccount:ns:sa');
    expect(await outcome(authn(), await bound({ audiences: [ISS] }, T0, key, 'https://old.example'))).toBe('user system:serviceaccount:ns:sa');
  });
  it('the audiences returned are the intersection with the requested ones (TokenReview)', async () => {
    const token = await bound({ audiences: ['vault', 'other'] });
    expect((await authn().authenticateToken(token, ['vault', 'x']))?.audiences).toEqual(['vault']);
  });
});

describe('not ours: undefined (the chain goes on)', () => {
  const cases: [string, () => Promise<string>][] = [
    ['empty', async () => ''],
    ['garbage', async () => 'not a token'],
    ['two parts', async () => 'abc.def'],
    ['four parts', async () => 'a.b.c.d'],
    ['payload not base64url', async () => `${b64('{}')}.${'*'.repeat(10)}.sig`],
    ['payload not JSON', async () => `${b64('{}')}.${b64('nope')}.sig`],
    ['payload is an array', async () => `${b64('{}')}.${b64('["iss"]')}.sig`],
    ['JSON serialization', async () => `{"payload":"${b64(JSON.stringify({ iss: ISS }))}"}`],
    ['issuer not accepted', async () => bound({}, T0, key, 'https://evil.example')],
    ['issuer not a string', async () => `${b64('{"alg":"ES256"}')}.${b64(JSON.stringify({ iss: 5 }))}.sig`],
    ['header not JSON', async () => `${b64('garbage')}.${b64(JSON.stringify({ iss: ISS }))}.sig`],
    ['oversized', async () => `${b64('{"alg":"ES256"}')}.${b64(JSON.stringify({ iss: ISS, pad: 'x'.repeat(MAX_TOKEN_BYTES) }))}.sig`],
  ];
  it.each(cases)('%s', async (_n, make) => {
    expect(await outcome(authn(), await make())).toBe('undefined');
  });
  it('legacy tokens when legacy tokens are off', async () => {
    const token = await issuerAt(T0).issueLegacy({ namespace: 'ns', name: 'sa', uid: 'sa-uid' }, 'legacy');
    expect(await outcome(authn({ legacy: false }), token)).toBe('undefined');
  });
});

describe('ours but bad: 401', () => {
  const cases: [string, () => Promise<string>, { objects?: Objects; now?: number; audiences?: string[] }, string][] = [
    ['signed by an unknown key (its kid matches nothing)', () => bound({}, T0, otherKey), {}, 'invalid signature, no keys found'],
    [
      'signed by an unknown key without kid',
      async () => {
        const payload = JSON.stringify({ iss: ISS, sub: 'system:serviceaccount:ns:sa' });
        return new CompactSign(Buffer.from(payload)).setProtectedHeader({ alg: 'ES256' }).sign(otherKey.privateKey);
      },
      {},
      'square/go-jose: error in cryptographic primitive',
    ],
    [
      'kid of our key, signature by another',
      async () => {
        const payload = JSON.stringify({ iss: ISS });
        return new CompactSign(Buffer.from(payload)).setProtectedHeader({ alg: 'ES256', kid: key.keyId }).sign(otherKey.privateKey);
      },
      {},
      'square/go-jose: error in cryptographic primitive',
    ],
    [
      'alg none',
      async () => `${b64(JSON.stringify({ alg: 'none', kid: key.keyId }))}.${b64(JSON.stringify({ iss: ISS, sub: 'system:serviceaccount:ns:sa' }))}.`,
      {},
      'square/go-jose: error in cryptographic primitive',
    ],
    [
      'HS256 keyed with the public key',
      async () => {
        const pub = rsaKey.publicKey.export({ type: 'spki', format: 'pem' });
        const payload = JSON.stringify({ iss: ISS });
        return new CompactSign(Buffer.from(payload)).setProtectedHeader({ alg: 'HS256', kid: rsaKey.keyId }).sign(Buffer.from(pub));
      },
      {},
      'square/go-jose: error in cryptographic primitive',
    ],
    [
      'RS256 header on an ECDSA key id',
      async () => {
        const t = await bound();
        const [, p, s] = t.split('.');
        return `${b64(JSON.stringify({ alg: 'RS256', kid: key.keyId }))}.${p}.${s}`;
      },
      {},
      'square/go-jose: error in cryptographic primitive',
    ],
    ['truncated signature', async () => (await bound()).slice(0, -10), {}, 'square/go-jose: error in cryptographic primitive'],
    [
      'tampered payload',
      async () => {
        const [h, , s] = (await bound()).split('.');
        return `${h}.${b64(JSON.stringify({ iss: ISS, sub: 'system:serviceaccount:kube-system:admin' }))}.${s}`;
      },
      {},
      'square/go-jose: error in cryptographic primitive',
    ],
    ['expired beyond the leeway', () => bound(), { now: T0 + 3600_000 + 61_000 }, 'service account token has expired'],
    ['not yet valid beyond the leeway', () => bound({}, T0 + 120_000), {}, 'service account token is not valid yet'],
    ['audience not accepted', () => bound({ audiences: ['vault'] }), {}, 'token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]'],
    [
      'audience not among the requested ones',
      () => bound(),
      { audiences: ['a', 'b'] },
      'token audiences ["https://kubernetes.default.svc.cluster.local"] is invalid for the target audiences ["a" "b"]',
    ],
    ['unknown service account', () => bound(), { objects: { ...base, serviceaccounts: {} } }, 'serviceaccounts "sa" not found'],
    [
      'service account replaced (uid mismatch)',
      () => bound(),
      { objects: { ...base, serviceaccounts: { 'ns/sa': obj('ns', 'sa', 'new-uid') } } },
      'service account UID (new-uid) does not match claim (sa-uid)',
    ],
    [
      'service account deleted more than a minute ago',
      () => bound(),
      { objects: { ...base, serviceaccounts: { 'ns/sa': obj('ns', 'sa', 'sa-uid', { metadata: { deletionTimestamp: '2025-12-31T23:58:00Z' } }) } } },
      'service account ns/sa has been deleted',
    ],
    ['bound pod deleted', () => bound({ pod: { name: 'p', uid: 'p-uid' } }), { objects: { ...base, pods: {} } }, 'service account token has been invalidated'],
    [
      'bound pod being deleted for more than a minute',
      () => bound({ pod: { name: 'p', uid: 'p-uid' } }),
      { objects: { ...base, pods: { 'ns/p': obj('ns', 'p', 'p-uid', { metadata: { deletionTimestamp: '2025-12-31T23:58:59Z' } }) } } },
      'service account token has been invalidated',
    ],
    [
      'bound pod replaced',
      () => bound({ pod: { name: 'p', uid: 'p-uid' } }),
      { objects: { ...base, pods: { 'ns/p': obj('ns', 'p', 'other') } } },
      'pod UID (other) does not match service account pod ref claim (p-uid)',
    ],
    ['bound secret deleted', () => bound({ secret: { name: 's', uid: 's-uid' } }), { objects: { ...base, secrets: {} } }, 'service account token has been invalidated'],
    [
      'bound secret replaced',
      () => bound({ secret: { name: 's', uid: 's-uid' } }),
      { objects: { ...base, secrets: { 'ns/s': obj('ns', 's', 'x') } } },
      'secret UID (x) does not match service account secret ref claim (s-uid)',
    ],
    ['bound node deleted', () => bound({ node: { name: 'n', uid: 'n-uid' } }), { objects: { ...base, nodes: {} } }, 'service account token has been invalidated'],
    [
      'bound node replaced',
      () => bound({ node: { name: 'n', uid: 'n-uid' } }),
      { objects: { ...base, nodes: { '/n': obj('', 'n', 'y') } } },
      'node UID (y) does not match service account node ref claim (n-uid)',
    ],
    [
      'exp of the wrong type',
      async () => {
        const payload = JSON.stringify({ iss: ISS, aud: API_AUDS, exp: 'never' });
        return new CompactSign(Buffer.from(payload)).setProtectedHeader({ alg: 'ES256', kid: key.keyId }).sign(key.privateKey);
      },
      {},
      'service account token claims could not be validated due to unexpected validation error',
    ],
  ];
  it.each(cases)('%s', async (_n, make, opts, want) => {
    expect(await outcome(authn({ objects: opts.objects, now: opts.now }), await make(), opts.audiences)).toBe(`401 ${want}`);
  });
  it('the leeway: valid up to a minute past exp and a minute before nbf', async () => {
    expect(await outcome(authn({ now: T0 + 3600_000 + 59_000 }), await bound())).toBe('user system:serviceaccount:ns:sa');
    expect(await outcome(authn(), await bound({}, T0 + 59_000))).toBe('user system:serviceaccount:ns:sa');
  });
  it('a bound pod deleted less than a minute ago still authenticates (upstream grace)', async () => {
    const objects = { ...base, pods: { 'ns/p': obj('ns', 'p', 'p-uid', { metadata: { deletionTimestamp: '2025-12-31T23:59:30Z' } }) } };
    expect(await outcome(authn({ objects }), await bound({ pod: { name: 'p', uid: 'p-uid' } }))).toBe('user system:serviceaccount:ns:sa');
  });
});

describe('legacy Secret-based tokens', () => {
  const SA = { namespace: 'ns', name: 'sa', uid: 'sa-uid' };
  async function legacySetup(secretExtra: Record<string, unknown> = {}, saObj?: Record<string, unknown>) {
    const token = await issuerAt(T0).issueLegacy(SA, 'sa-token');
    const secret = obj('ns', 'sa-token', 'sec-uid', {
      type: 'kubernetes.io/service-account-token',
      data: { token: Buffer.from(token).toString('base64') },
      ...secretExtra,
    });
    const objects: Objects = { serviceaccounts: { 'ns/sa': saObj ?? obj('ns', 'sa', 'sa-uid') }, secrets: { 'ns/sa-token': secret } };
    return { token, objects };
  }
  it('authenticates while the Secret holds the token', async () => {
    const { token, objects } = await legacySetup();
    const r = await authn({ objects }).authenticateToken(token, []);
    expect(r).toEqual({ user: { name: 'system:serviceaccount:ns:sa', uid: 'sa-uid', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] }, audiences: API_AUDS });
  });
  it('without lookup, the signature and claims are enough', async () => {
    const { token } = await legacySetup();
    expect(await outcome(authn({ objects: {}, lookup: false }), token)).toBe('user system:serviceaccount:ns:sa');
  });
  it.each<[string, (t: string, o: Objects) => Objects, string]>([
    ['the Secret is gone', (_t, o) => ({ ...o, secrets: {} }), 'Token has been invalidated'],
    [
      'the Secret is being deleted',
      (_t, o) => ({ ...o, secrets: { 'ns/sa-token': { ...o.secrets!['ns/sa-token'], metadata: { name: 'sa-token', namespace: 'ns', deletionTimestamp: '2026-01-01T00:00:00Z' } } } }),
      'Token has been invalidated',
    ],
    [
      'the Secret holds another token',
      (_t, o) => ({ ...o, secrets: { 'ns/sa-token': { ...o.secrets!['ns/sa-token'], data: { token: Buffer.from('other').toString('base64') } } } }),
      "Token does not match server's copy",
    ],
    ['the Secret holds no data', (_t, o) => ({ ...o, secrets: { 'ns/sa-token': obj('ns', 'sa-token', 'x') } }), "Token does not match server's copy"],
    ['the ServiceAccount is gone', (_t, o) => ({ ...o, serviceaccounts: {} }), 'serviceaccounts "sa" not found'],
    ['the ServiceAccount was replaced', (_t, o) => ({ ...o, serviceaccounts: { 'ns/sa': obj('ns', 'sa', 'other') } }), 'ServiceAccount UID (other) does not match claim (sa-uid)'],
    [
      'the ServiceAccount is being deleted',
      (_t, o) => ({ ...o, serviceaccounts: { 'ns/sa': obj('ns', 'sa', 'sa-uid', { metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } }) } }),
      'ServiceAccount ns/sa has been deleted',
    ],
    [
      'the Secret is marked invalid',
      (_t, o) => ({
        ...o,
        secrets: { 'ns/sa-token': { ...o.secrets!['ns/sa-token'], metadata: { name: 'sa-token', namespace: 'ns', labels: { 'kubernetes.io/legacy-token-invalid-since': '2025-01-01' } } } },
      }),
      "the token in secret ns/sa-token for service account ns/sa has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the 'kubernetes.io/legacy-token-invalid-since' label from the secret to temporarily allow use of this token",
    ],
  ])('401 when %s', async (_n, change, want) => {
    const { token, objects } = await legacySetup();
    expect(await outcome(authn({ objects: change(token, objects) }), token)).toBe(`401 ${want}`);
  });
  it.each<[string, Record<string, unknown>, string]>([
    ['no sub', { iss: 'kubernetes/serviceaccount' }, 'sub claim is missing'],
    ['no namespace', { iss: 'kubernetes/serviceaccount', sub: 'system:serviceaccount:ns:sa' }, 'namespace claim is missing'],
    [
      'sub naming another account',
      {
        iss: 'kubernetes/serviceaccount',
        sub: 'system:serviceaccount:ns:other',
        'kubernetes.io/serviceaccount/namespace': 'ns',
        'kubernetes.io/serviceaccount/secret.name': 's',
        'kubernetes.io/serviceaccount/service-account.name': 'sa',
        'kubernetes.io/serviceaccount/service-account.uid': 'u',
      },
      'sub claim is invalid',
    ],
  ])('401 for malformed legacy claims: %s', async (_n, claims, want) => {
    const token = await new CompactSign(Buffer.from(JSON.stringify(claims))).setProtectedHeader({ alg: 'ES256', kid: key.keyId }).sign(key.privateKey);
    expect(await outcome(authn(), token)).toBe(`401 ${want}`);
  });
});
