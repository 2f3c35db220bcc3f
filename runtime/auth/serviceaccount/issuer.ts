// Signs service-account tokens: a compact JWS (RS256 or ES256/384/512 by
// key) with the `kid` header upstream derives from the public key, and the
// payload's keys in the sorted order kube-apiserver's JSON has. The issuer
// (`iss`) is the first --service-account-issuer for bound tokens and
// `kubernetes/serviceaccount` for legacy Secret-based ones.

import { randomUUID } from 'node:crypto';
import { jose } from '../jose.ts';
import { boundClaims, legacyClaims, LEGACY_ISSUER, type BoundClaimsInput } from './claims.ts';
import type { SigningKey } from './keys.ts';

/** Objects with their keys sorted at every level (arrays keep their order). */
export function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

export interface TokenIssuerOptions {
  key: SigningKey;
  /** The issuer of bound tokens (the first --service-account-issuer). */
  issuer: string;
  /** Unix milliseconds. */
  now?: () => number;
  newUUID?: () => string;
}

export class TokenIssuer {
  readonly issuer: string;
  private readonly key: SigningKey;
  private readonly now: () => number;
  private readonly newUUID: () => string;

  constructor(opts: TokenIssuerOptions) {
    this.key = opts.key;
    this.issuer = opts.issuer;
    this.now = opts.now ?? Date.now;
    this.newUUID = opts.newUUID ?? randomUUID;
  }

  /** Signs arbitrary claims with `iss` set (claims given win over nothing; `iss` is always ours). */
  async sign(claims: Record<string, unknown>, iss: string): Promise<string> {
    const payload = Buffer.from(JSON.stringify(sortKeys({ ...claims, iss })));
    const { CompactSign } = await jose();
    return new CompactSign(payload).setProtectedHeader({ alg: this.key.alg, kid: this.key.keyId }).sign(this.key.privateKey);
  }

  /** A bound token (TokenRequest); `now` and `jti` are filled in here. Returns the token and its claims. */
  async issueBound(input: Omit<BoundClaimsInput, 'now' | 'jti'>): Promise<{ token: string; claims: Record<string, unknown> }> {
    const claims = { ...boundClaims({ ...input, now: Math.floor(this.now() / 1000), jti: this.newUUID() }), iss: this.issuer };
    return { token: await this.sign(claims, this.issuer), claims };
  }

  /** A legacy token for a `kubernetes.io/service-account-token` Secret (what the tokens controller writes into it). */
  async issueLegacy(serviceAccount: { namespace: string; name: string; uid: string }, secretName: string): Promise<string> {
    return this.sign(legacyClaims(serviceAccount, secretName), LEGACY_ISSUER);
  }
}
