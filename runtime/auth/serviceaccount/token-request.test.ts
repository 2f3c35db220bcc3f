// TokenRequest rules: defaults, validation texts, the kinds a token may be
// bound to, lookups and their errors, the max-expiration clamp, kubelet's
// extended expiration, the answer object, and a round trip through the
// authenticator (the token is refused once its bound pod is gone).

import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { ServiceAccountTokenAuthenticator } from './authenticator.ts';
import { TokenIssuer } from './issuer.ts';
import { signingKey, type SigningKey } from './keys.ts';
import type { ObjectReader, ReadableResource } from './ports.ts';
import { bindableKind, createTokenRequest, defaultTokenRequestSpec, gvkString, validateTokenRequestSpec, type TokenRequestOptions } from './token-request.ts';

const ISS = 'https://kubernetes.default.svc.cluster.local';
const T0 = Date.parse('2026-01-01T00:00:00Z');
type Objects = Partial<Record<ReadableResource, Record<string, Record<string, unknown>>>>;

let key: SigningKey;
beforeAll(() => {
  key = signingKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
});

function reader(objects: Objects): ObjectReader {
  return { get: async (r, ns, n) => objects[r]?.[`${ns}/${n}`] };
}

const objects: Objects = {
  serviceaccounts: { 'ns/default': { metadata: { name: 'default', namespace: 'ns', uid: 'sa-uid' } } },
  pods: {
    'ns/p': { metadata: { name: 'p', namespace: 'ns', uid: 'p-uid' }, spec: { serviceAccountName: 'default', nodeName: 'n1' } },
    'ns/other': { metadata: { name: 'other', namespace: 'ns', uid: 'o-uid' }, spec: { serviceAccountName: 'builder' } },
    'ns/lost': { metadata: { name: 'lost', namespace: 'ns', uid: 'l-uid' }, spec: { serviceAccountName: 'default', nodeName: 'gone' } },
  },
  secrets: { 'ns/s': { metadata: { name: 's', namespace: 'ns', uid: 's-uid' } } },
  nodes: { '/n1': { metadata: { name: 'n1', uid: 'n1-uid' } } },
};

function opts(body: Record<string, unknown>, extra: Partial<TokenRequestOptions> = {}): TokenRequestOptions {
  return {
    namespace: 'ns',
    serviceAccountName: 'default',
    body,
    apiAudiences: [ISS],
    issuer: new TokenIssuer({ key, issuer: ISS, now: () => T0, newUUID: () => 'jti' }),
    reader: reader(objects),
    now: () => T0,
    ...extra,
  };
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return `${(e as ApiError).code} ${(e as ApiError).message}`;
  }
}

describe('defaults and validation', () => {
  it('defaults expirationSeconds to 3600 and audiences to the API audiences', () => {
    expect(defaultTokenRequestSpec(undefined, [ISS])).toEqual({ audiences: [ISS], expirationSeconds: 3600 });
    expect(defaultTokenRequestSpec({ audiences: [], expirationSeconds: null }, ['a'])).toEqual({ audiences: ['a'], expirationSeconds: 3600 });
    expect(defaultTokenRequestSpec({ audiences: ['x'], expirationSeconds: 700 }, ['a'])).toEqual({ audiences: ['x'], expirationSeconds: 700 });
  });
  it.each<[string, unknown, string]>([
    ['audiences not a list', { audiences: 'x' }, 'spec.audiences: expected an array of strings'],
    ['expirationSeconds a string', { expirationSeconds: '600' }, 'spec.expirationSeconds: expected an integer'],
    ['expirationSeconds fractional', { expirationSeconds: 600.5 }, 'spec.expirationSeconds: expected an integer'],
    ['boundObjectRef a string', { boundObjectRef: 'pod' }, 'spec.boundObjectRef: expected an object'],
    ['boundObjectRef.name a number', { boundObjectRef: { kind: 'Pod', name: 5 } }, 'spec.boundObjectRef.name: expected a string'],
  ])('400 for wrong types: %s', (_n, spec, msg) => {
    expect(() => defaultTokenRequestSpec(spec, [])).toThrow(msg);
  });
  it.each<[number, string[]]>([
    [600, []],
    [2 ** 32, []],
    [599, ['spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes']],
    [-1, ['spec.expirationSeconds: Invalid value: -1: may not specify a duration less than 10 minutes']],
    [2 ** 32 + 1, ['spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds']],
  ])('expirationSeconds %d', (exp, want) => {
    expect(validateTokenRequestSpec({ audiences: [], expirationSeconds: exp }).map(String)).toEqual(want);
  });
  it.each<[Record<string, string>, string]>([
    [{ kind: 'Pod', apiVersion: 'v1' }, 'Pod'],
    [{ kind: 'Pod' }, 'Pod'],
    [{ kind: 'Secret', apiVersion: 'v1' }, 'Secret'],
    [{ kind: 'Node', apiVersion: 'v1' }, 'Node'],
  ])('may bind to %j', (ref, kind) => {
    expect(bindableKind(ref)).toBe(kind);
  });
  it.each<[Record<string, string>, string]>([
    [{ kind: 'ConfigMap', apiVersion: 'v1' }, 'cannot bind token to object of type /v1, Kind=ConfigMap'],
    [{ kind: 'Pod', apiVersion: 'apps/v1' }, 'cannot bind token to object of type apps/v1, Kind=Pod'],
    [{ kind: '', apiVersion: '' }, 'cannot bind token to object of type /, Kind='],
  ])('may not bind to %j', (ref, msg) => {
    expect(gvkString(ref)).toBe(msg.slice('cannot bind token to object of type '.length));
    expect(() => bindableKind(ref)).toThrow(msg);
  });
});

describe('createTokenRequest', () => {
  it('answers with the TokenRequest and a token with the defaults', async () => {
    const { object, warnings } = await createTokenRequest(opts({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest' }));
    expect(warnings).toEqual([]);
    const status = object.status as { token: string; expirationTimestamp: string };
    expect(object).toEqual({
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name: 'default', namespace: 'ns', uid: 'sa-uid', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { audiences: [ISS], expirationSeconds: 3600 },
      status: { token: status.token, expirationTimestamp: '2026-01-01T01:00:00Z' },
    });
    expect(claimsOf(status.token)).toMatchObject({ iss: ISS, aud: [ISS], sub: 'system:serviceaccount:ns:default', exp: T0 / 1000 + 3600 });
  });
  it('binds to a pod and records its node', async () => {
    const { object } = await createTokenRequest(opts({ spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'p-uid' } } }));
    const token = (object.status as { token: string }).token;
    expect(claimsOf(token)['kubernetes.io']).toEqual({
      namespace: 'ns',
      serviceaccount: { name: 'default', uid: 'sa-uid' },
      pod: { name: 'p', uid: 'p-uid' },
      node: { name: 'n1', uid: 'n1-uid' },
    });
    expect((object.spec as Record<string, unknown>).boundObjectRef).toEqual({ kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'p-uid' });
  });
  it("records only the node name when the pod's Node object is missing", async () => {
    const { object } = await createTokenRequest(opts({ spec: { boundObjectRef: { kind: 'Pod', name: 'lost' } } }));
    expect((claimsOf((object.status as { token: string }).token)['kubernetes.io'] as Record<string, unknown>).node).toEqual({ name: 'gone' });
  });
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['secret', { kind: 'Secret', apiVersion: 'v1', name: 's' }, { secret: { name: 's', uid: 's-uid' } }],
    ['node', { kind: 'Node', apiVersion: 'v1', name: 'n1' }, { node: { name: 'n1', uid: 'n1-uid' } }],
  ])('binds to a %s', async (_n, ref, want) => {
    const { object } = await createTokenRequest(opts({ spec: { boundObjectRef: ref } }));
    expect(claimsOf((object.status as { token: string }).token)['kubernetes.io']).toEqual({ namespace: 'ns', serviceaccount: { name: 'default', uid: 'sa-uid' }, ...want });
  });
  it.each<[string, Record<string, unknown>, Partial<TokenRequestOptions>, string]>([
    ['unknown service account', {}, { serviceAccountName: 'nobody' }, '404 serviceaccounts "nobody" not found'],
    [
      'name in the body differs',
      { metadata: { name: 'x' } },
      {},
      '422 TokenRequest.authentication.k8s.io "default" is invalid: metadata.name: Invalid value: "x": must match the service account name if specified',
    ],
    [
      'namespace in the body differs',
      { metadata: { namespace: 'y' } },
      {},
      '422 TokenRequest.authentication.k8s.io "default" is invalid: metadata.namespace: Invalid value: "y": must match the service account namespace if specified',
    ],
    [
      'too short',
      { spec: { expirationSeconds: 60 } },
      {},
      '422 TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    ],
    ['bound to a ConfigMap', { spec: { boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'c' } } }, {}, '400 cannot bind token to object of type /v1, Kind=ConfigMap'],
    ['bound pod missing', { spec: { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'nope' } } }, {}, '404 pods "nope" not found'],
    ['bound secret missing', { spec: { boundObjectRef: { kind: 'Secret', name: 'nope' } } }, {}, '404 secrets "nope" not found'],
    ['bound node missing', { spec: { boundObjectRef: { kind: 'Node', name: 'nope' } } }, {}, '404 nodes "nope" not found'],
    [
      'pod of another service account',
      { spec: { boundObjectRef: { kind: 'Pod', name: 'other' } } },
      {},
      '400 cannot bind token for serviceaccount "default" to pod running with different serviceaccount name.',
    ],
    [
      'bound uid differs',
      { spec: { boundObjectRef: { kind: 'Pod', name: 'p', uid: 'old' } } },
      {},
      '409 Operation cannot be fulfilled on Pod "p": the UID in the bound object reference (old) does not match the UID in record. The object might have been deleted and then recreated',
    ],
  ])('%s', async (_n, body, extra, want) => {
    expect(await failure(createTokenRequest(opts(body, extra)))).toBe(want);
  });
  it('shortens to --service-account-max-token-expiration with a warning', async () => {
    const { object, warnings } = await createTokenRequest(opts({ spec: { expirationSeconds: 86400 } }, { maxExpirationSeconds: 7200 }));
    expect(warnings).toEqual(['requested expiration of 86400 seconds shortened to 7200 seconds']);
    expect((object.spec as Record<string, unknown>).expirationSeconds).toBe(7200);
    expect((object.status as Record<string, unknown>).expirationTimestamp).toBe('2026-01-01T02:00:00Z');
  });
  it("extends kubelet's pod-bound 3607-second tokens to a year with warnafter", async () => {
    const body = { spec: { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', name: 'p' } } };
    const { object } = await createTokenRequest(opts(body));
    const c = claimsOf((object.status as { token: string }).token);
    expect(c.exp).toBe(T0 / 1000 + 365 * 24 * 3600);
    expect((c['kubernetes.io'] as Record<string, unknown>).warnafter).toBe(T0 / 1000 + 3607);
    expect((object.status as Record<string, unknown>).expirationTimestamp).toBe('2026-01-01T01:00:07Z');
    const plain = await createTokenRequest(opts(body, { extendExpiration: false }));
    expect(claimsOf((plain.object.status as { token: string }).token).exp).toBe(T0 / 1000 + 3607);
    const foreign = await createTokenRequest(opts({ spec: { ...body.spec, audiences: ['vault'] } }));
    expect(claimsOf((foreign.object.status as { token: string }).token).exp).toBe(T0 / 1000 + 3607);
  });
  it('round trip: the token authenticates, and no longer once the bound pod is deleted', async () => {
    const { object } = await createTokenRequest(opts({ spec: { boundObjectRef: { kind: 'Pod', name: 'p' } } }));
    const token = (object.status as { token: string }).token;
    const live = { ...objects };
    const authn = new ServiceAccountTokenAuthenticator({ issuers: [ISS], keys: [key], apiAudiences: [ISS], reader: reader(live), now: () => T0 + 1000 });
    expect((await authn.authenticateToken(token, []))?.user.name).toBe('system:serviceaccount:ns:default');
    live.pods = {};
    expect(await failure(authn.authenticateToken(token, []))).toBe('401 service account token has been invalidated');
  });
});
