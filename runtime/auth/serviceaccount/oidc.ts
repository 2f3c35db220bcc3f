// The service-account issuer's OpenID Connect discovery documents, as
// kube-apiserver renders them: /.well-known/openid-configuration (issuer,
// jwks_uri, response/subject types, signing algorithms) and /openid/v1/jwks
// (the verification keys as JWKs with kid, use and alg). Built once from
// the keys; the server serves the strings with the content types and the
// Cache-Control max-age given here, or skips the endpoints when building
// fails (as upstream logs and skips them).

import type { VerificationKey } from './keys.ts';

export const OPENID_CONFIG_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';
export const OPENID_CONFIG_CONTENT_TYPE = 'application/json';
export const JWKS_CONTENT_TYPE = 'application/jwk-set+json';
/** Seconds for `Cache-Control: public, max-age=<n>` (upstream's static key getter). */
export const METADATA_MAX_AGE_SECONDS = 3600;

export interface OpenIDMetadataOptions {
  /** The first --service-account-issuer; must be an https URL without query or fragment. */
  issuer: string;
  /** --service-account-jwks-uri, when given. */
  jwksURI?: string;
  /** host[:port] clients reach the server at, for the default jwks_uri. */
  externalAddress?: string;
  keys: VerificationKey[];
}

export interface OpenIDMetadata {
  configJSON: string;
  keysetJSON: string;
}

/** The JWK of a public key, in go-jose's field order. */
export async function jwkOf(key: VerificationKey): Promise<Record<string, unknown>> {
  const raw = key.publicKey.export({ format: 'jwk' });
  if (raw.kty === 'EC') return { use: 'sig', kty: 'EC', kid: key.keyId, crv: raw.crv, alg: key.alg, x: raw.x, y: raw.y };
  return { use: 'sig', kty: 'RSA', kid: key.keyId, alg: key.alg, n: raw.n, e: raw.e };
}

function parseURL(s: string): URL | undefined {
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}

/** Throws with upstream's message when the inputs do not make valid discovery documents. */
export async function buildOpenIDMetadata(opts: OpenIDMetadataOptions): Promise<OpenIDMetadata> {
  if (!opts.issuer) throw new Error('empty issuer URL');
  if (!opts.jwksURI && !opts.externalAddress) throw new Error('either the JWKS URI or the default external address, or both, must be set');
  const iss = parseURL(opts.issuer);
  if (!iss || iss.protocol !== 'https:') throw new Error(`issuer URL must use https scheme, got: ${opts.issuer}`);
  if (iss.search) throw new Error(`issuer URL may not include a query, got: ${opts.issuer}`);
  if (iss.hash || opts.issuer.includes('#')) throw new Error(`issuer URL may not include a fragment, got: ${opts.issuer}`);

  let jwksURI = opts.jwksURI ?? '';
  if (jwksURI) {
    const u = parseURL(jwksURI);
    if (!u) throw new Error(`parse "${jwksURI}": invalid URL`);
    if (u.protocol !== 'https:') throw new Error(`jwksURI requires https scheme, parsed as: ${jwksURI}`);
  } else {
    const u = parseURL(`https://${opts.externalAddress}${JWKS_PATH}`);
    if (!u || u.pathname !== JWKS_PATH || u.host === '' || u.username || u.search) {
      throw new Error(`attempted to build jwks_uri from external address ${opts.externalAddress}, but could not construct a valid URL.`);
    }
    jwksURI = `https://${opts.externalAddress}${JWKS_PATH}`;
  }
  if (opts.keys.length === 0) throw new Error('no keys provided for validating keyset');

  const jwks = await Promise.all(opts.keys.map(jwkOf));
  const algs = [...new Set(opts.keys.map((k) => k.alg))].sort();
  const config = {
    issuer: opts.issuer,
    jwks_uri: jwksURI,
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: algs,
  };
  return { configJSON: JSON.stringify(config), keysetJSON: JSON.stringify({ keys: jwks }) };
}
