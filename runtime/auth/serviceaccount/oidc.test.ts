// The OIDC discovery documents: exact JSON for RSA and ECDSA keys (field
// order as kube-apiserver's), jwks_uri from the external address or the
// flag, and the refusals upstream makes (non-https issuer, query,
// fragment, no address, no keys).

import { describe, expect, it } from 'vitest';
import { exportJWK } from 'jose';
import { buildOpenIDMetadata, jwkOf } from './oidc.ts';
import { parsePrivateKeyPem, parsePublicKeysPem } from './keys.ts';
import { EC_PRIVATE, RSA_PUBLIC } from './test-keys.ts';

const rsa = parsePublicKeysPem(RSA_PUBLIC)[0];
const ec = parsePrivateKeyPem(EC_PRIVATE);

describe('discovery documents', () => {
  it('renders the configuration with the default jwks_uri and sorted algorithms', async () => {
    const m = await buildOpenIDMetadata({ issuer: 'https://kubernetes.default.svc.cluster.local', externalAddress: '10.0.0.1:6443', keys: [rsa, ec] });
    expect(m.configJSON).toBe(
      '{"issuer":"https://kubernetes.default.svc.cluster.local","jwks_uri":"https://10.0.0.1:6443/openid/v1/jwks",' +
        '"response_types_supported":["id_token"],"subject_types_supported":["public"],"id_token_signing_alg_values_supported":["ES256","RS256"]}',
    );
  });
  it("renders the keys as JWKs in go-jose's field order", async () => {
    const m = await buildOpenIDMetadata({ issuer: 'https://issuer.example', jwksURI: 'https://issuer.example/keys', keys: [rsa, ec] });
    const rsaJWK = await exportJWK(rsa.publicKey);
    const ecJWK = await exportJWK(ec.publicKey);
    expect(m.keysetJSON).toBe(
      JSON.stringify({
        keys: [
          { use: 'sig', kty: 'RSA', kid: 'JHJehTTTZlsspKHT-GaJxK7Kd1NQgZJu3fyK6K_QDYU', alg: 'RS256', n: rsaJWK.n, e: 'AQAB' },
          { use: 'sig', kty: 'EC', kid: 'SoABiieYuNx4UdqYvZRVeuC6SihxgLrhLy9peHMHpTc', crv: 'P-256', alg: 'ES256', x: ecJWK.x, y: ecJWK.y },
        ],
      }),
    );
    expect(JSON.parse(m.configJSON).jwks_uri).toBe('https://issuer.example/keys');
  });
  it('never puts private material in a JWK', async () => {
    expect(Object.keys(await jwkOf(ec))).not.toContain('d');
  });
  it.each<[string, Parameters<typeof buildOpenIDMetadata>[0], string]>([
    ['empty issuer', { issuer: '', externalAddress: 'h', keys: [rsa] }, 'empty issuer URL'],
    ['no address', { issuer: 'https://i', keys: [rsa] }, 'either the JWKS URI or the default external address, or both, must be set'],
    ['http issuer', { issuer: 'http://i', externalAddress: 'h', keys: [rsa] }, 'issuer URL must use https scheme, got: http://i'],
    ['issuer not an absolute URL', { issuer: 'kubernetes/serviceaccount', externalAddress: 'h', keys: [rsa] }, 'issuer URL must use https scheme, got: kubernetes/serviceaccount'],
    ['issuer with a query', { issuer: 'https://i/?a=b', externalAddress: 'h', keys: [rsa] }, 'issuer URL may not include a query, got: https://i/?a=b'],
    ['issuer with a fragment', { issuer: 'https://i/#x', externalAddress: 'h', keys: [rsa] }, 'issuer URL may not include a fragment, got: https://i/#x'],
    ['http jwks uri', { issuer: 'https://i', jwksURI: 'http://i/keys', keys: [rsa] }, 'jwksURI requires https scheme, parsed as: http://i/keys'],
    ['bad external address', { issuer: 'https://i', externalAddress: 'a/b?c', keys: [rsa] }, 'attempted to build jwks_uri from external address a/b?c'],
    ['no keys', { issuer: 'https://i', externalAddress: 'h', keys: [] }, 'no keys provided for validating keyset'],
  ])('refuses: %s', async (_n, o, msg) => {
    await expect(buildOpenIDMetadata(o)).rejects.toThrow(msg);
  });
});
