// The service-account token authenticator (a TokenAuthenticator): checks
// a JWT's signature against the configured public keys, its issuer against
// the accepted --service-account-issuer values (or the legacy
// `kubernetes/serviceaccount`), its audiences against the requested ones,
// its times with upstream's one-minute leeway, and then, through the object
// port, that the ServiceAccount and the object the token is bound to still
// exist with the same uid. Messages are upstream's (they reach TokenReview
// status and logs, never the token).
//
// Like upstream, a credential that is not a JWT of ours (not three parts,
// unreadable payload, an issuer we do not accept, an unreadable header, or
// longer than MAX_TOKEN_BYTES) is not recognised: undefined, the chain goes
// on. A JWT with our issuer that fails any check is a bad credential: 401.

import { timingSafeEqual } from 'node:crypto';
import { jose } from '../jose.ts';
import { ApiError, errors } from '../../api/errors.ts';
import type { AuthResult, TokenAuthenticator } from '../authenticator.ts';
import { credentialIDForJTI, LEGACY_CLAIMS, LEGACY_ISSUER, serviceAccountUser, splitUsername, type KubernetesClaim, type ServiceAccountInfo } from './claims.ts';
import type { VerificationKey } from './keys.ts';
import { metaOf, type ObjectReader, type ReadableResource } from './ports.ts';

/** go-jose's jwt.DefaultLeeway, used for nbf/exp/iat and for deletion grace. */
export const LEEWAY_SECONDS = 60;
/** Tokens longer than this are not looked at (ours are a few KiB at most). */
export const MAX_TOKEN_BYTES = 16 * 1024;
/** A label that marks a legacy token Secret as no longer usable. */
export const INVALID_SINCE_LABEL = 'kubernetes.io/legacy-token-invalid-since';

export interface ServiceAccountAuthenticatorOptions {
  /** The accepted --service-account-issuer values (bound tokens). */
  issuers: string[];
  /** The verification keys (--service-account-key-file, or the server's own). */
  keys: VerificationKey[];
  /** --api-audiences (defaults to the issuers upstream-side; the server passes them). */
  apiAudiences: string[];
  reader: ObjectReader;
  /** Accept legacy Secret-based tokens (issuer `kubernetes/serviceaccount`). Default true. */
  legacy?: boolean;
  /** --service-account-lookup for legacy tokens: check the Secret and ServiceAccount. Default true. */
  lookup?: boolean;
  /** Unix milliseconds. */
  now?: () => number;
}

type Claims = Record<string, unknown>;

const B64URL = /^[A-Za-z0-9_-]*$/;

/** Go's %q of a string slice: `["a" "b"]`. */
function goQuotedList(xs: string[]): string {
  return `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;
}

function fail(message: string): ApiError {
  return errors.unauthorized(message);
}

export class ServiceAccountTokenAuthenticator implements TokenAuthenticator {
  private readonly issuers: Set<string>;
  private readonly keys: VerificationKey[];
  private readonly apiAudiences: string[];
  private readonly reader: ObjectReader;
  private readonly legacy: boolean;
  private readonly lookup: boolean;
  private readonly now: () => number;

  constructor(opts: ServiceAccountAuthenticatorOptions) {
    this.issuers = new Set(opts.issuers);
    this.keys = opts.keys;
    this.apiAudiences = opts.apiAudiences;
    this.reader = opts.reader;
    this.legacy = opts.legacy ?? true;
    this.lookup = opts.lookup ?? true;
    this.now = opts.now ?? Date.now;
  }

  async authenticateToken(token: string, audiences: string[]): Promise<AuthResult | undefined> {
    const iss = this.unverifiedIssuer(token);
    if (iss === undefined) return undefined;
    const { decodeProtectedHeader } = await jose();
    let kid: string | undefined;
    try {
      const header = decodeProtectedHeader(token);
      kid = typeof header.kid === 'string' && header.kid ? header.kid : undefined;
    } catch {
      return undefined;
    }
    const claims = await this.verify(token, kid);
    if (claims.iss !== iss || !this.accepts(iss)) throw fail(`token issuer ${JSON.stringify(String(claims.iss))} is invalid`);

    let tokenAuds = audienceList(claims.aud);
    if (tokenAuds.length === 0) tokenAuds = this.apiAudiences;
    const requested = audiences.length > 0 ? audiences : this.apiAudiences;
    const auds = tokenAuds.filter((a) => requested.includes(a));
    if (auds.length === 0 && this.apiAudiences.length > 0) {
      throw fail(`token audiences ${goQuotedList(tokenAuds)} is invalid for the target audiences ${goQuotedList(requested)}`);
    }

    const info = this.issuers.has(iss) ? await this.validateBound(claims) : await this.validateLegacy(token, claims);
    return { user: serviceAccountUser(info), audiences: auds };
  }

  private accepts(iss: string): boolean {
    return this.issuers.has(iss) || (this.legacy && iss === LEGACY_ISSUER);
  }

  /** The `iss` of an unverified compact JWT when it is one we accept (upstream's hasCorrectIssuer). */
  private unverifiedIssuer(token: string): string | undefined {
    if (token.length > MAX_TOKEN_BYTES || token.trimStart().startsWith('{')) return undefined;
    const parts = token.split('.');
    if (parts.length !== 3 || !B64URL.test(parts[1])) return undefined;
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
    const iss = (payload as Claims).iss;
    return typeof iss === 'string' && this.accepts(iss) ? iss : undefined;
  }

  private async verify(token: string, kid: string | undefined): Promise<Claims> {
    const keys = kid ? this.keys.filter((k) => k.keyId === kid) : this.keys;
    if (keys.length === 0) throw fail('invalid signature, no keys found');
    const { compactVerify } = await jose();
    for (const key of keys) {
      try {
        const { payload } = await compactVerify(token, key.publicKey, { algorithms: [key.alg] });
        const claims: unknown = JSON.parse(Buffer.from(payload).toString('utf8'));
        if (claims && typeof claims === 'object' && !Array.isArray(claims)) return claims as Claims;
        throw fail('service account token claims could not be validated due to unexpected validation error');
      } catch (e) {
        if (e instanceof ApiError) throw e;
      }
    }
    throw fail('square/go-jose: error in cryptographic primitive');
  }

  private async validateBound(claims: Claims): Promise<ServiceAccountInfo> {
    const nowMs = this.now();
    const now = nowMs / 1000;
    const k = claims['kubernetes.io'];
    if (!isTime(claims.nbf) || !isTime(claims.exp) || !isTime(claims.iat) || (k !== undefined && !isObject(k)) || !isOptionalString(claims.jti)) {
      throw fail('service account token claims could not be validated due to unexpected validation error');
    }
    if (typeof claims.nbf === 'number' && now + LEEWAY_SECONDS < claims.nbf) throw fail('service account token is not valid yet');
    if (typeof claims.exp === 'number' && now - LEEWAY_SECONDS > claims.exp) throw fail('service account token has expired');
    if (typeof claims.iat === 'number' && now + LEEWAY_SECONDS < claims.iat) throw fail('service account token is issued in the future');

    const priv = (k ?? {}) as KubernetesClaim;
    const namespace = str(priv.namespace);
    const saRef = refOf(priv.serviceaccount);
    const podRef = priv.pod === undefined ? undefined : refOf(priv.pod);
    const secretRef = priv.secret === undefined ? undefined : refOf(priv.secret);
    const nodeRef = priv.node === undefined ? undefined : refOf(priv.node);
    const deletedBefore = nowMs - LEEWAY_SECONDS * 1000;

    const sa = await this.reader.get('serviceaccounts', namespace, saRef.name);
    if (!sa) throw fail(notFoundMessage('serviceaccounts', saRef.name));
    const saMeta = metaOf(sa);
    if ((saMeta.uid ?? '') !== saRef.uid) throw fail(`service account UID (${saMeta.uid ?? ''}) does not match claim (${saRef.uid})`);
    if (deletedLongAgo(saMeta.deletionTimestamp, deletedBefore)) throw fail(`service account ${namespace}/${saRef.name} has been deleted`);

    if (secretRef) await this.checkBound('secrets', namespace, secretRef, deletedBefore, 'secret');

    const info: ServiceAccountInfo = { namespace, name: saRef.name, uid: saRef.uid };
    if (podRef) {
      await this.checkBound('pods', namespace, podRef, deletedBefore, 'pod');
      info.podName = podRef.name;
      info.podUID = podRef.uid;
    }
    if (nodeRef) {
      if (!podRef) await this.checkBound('nodes', '', nodeRef, deletedBefore, 'node');
      info.nodeName = nodeRef.name;
      info.nodeUID = nodeRef.uid;
    }
    info.credentialID = credentialIDForJTI(typeof claims.jti === 'string' ? claims.jti : undefined);
    return info;
  }

  private async checkBound(resource: ReadableResource, namespace: string, ref: { name: string; uid: string }, deletedBefore: number, what: string): Promise<void> {
    const obj = await this.reader.get(resource, namespace, ref.name);
    if (!obj) throw fail('service account token has been invalidated');
    const meta = metaOf(obj);
    if (ref.uid !== (meta.uid ?? '')) throw fail(`${what} UID (${meta.uid ?? ''}) does not match service account ${what} ref claim (${ref.uid})`);
    if (deletedLongAgo(meta.deletionTimestamp, deletedBefore)) throw fail('service account token has been invalidated');
  }

  private async validateLegacy(token: string, claims: Claims): Promise<ServiceAccountInfo> {
    const sub = str(claims.sub);
    if (!sub) throw fail('sub claim is missing');
    const namespace = str(claims[LEGACY_CLAIMS.namespace]);
    if (!namespace) throw fail('namespace claim is missing');
    const secretName = str(claims[LEGACY_CLAIMS.secretName]);
    if (!secretName) throw fail('secretName claim is missing');
    const saName = str(claims[LEGACY_CLAIMS.serviceAccountName]);
    if (!saName) throw fail('serviceAccountName claim is missing');
    const saUID = str(claims[LEGACY_CLAIMS.serviceAccountUID]);
    if (!saUID) throw fail('serviceAccountUID claim is missing');
    const split = splitUsername(sub);
    if (!split || split.namespace !== namespace || split.name !== saName) throw fail('sub claim is invalid');

    if (this.lookup) {
      const secret = await this.reader.get('secrets', namespace, secretName);
      if (!secret) throw fail('Token has been invalidated');
      const secretMeta = metaOf(secret);
      if (secretMeta.deletionTimestamp) throw fail('Token has been invalidated');
      if (!sameBytes(secretToken(secret), Buffer.from(token, 'utf8'))) throw fail("Token does not match server's copy");
      const sa = await this.reader.get('serviceaccounts', namespace, saName);
      if (!sa) throw fail(notFoundMessage('serviceaccounts', saName));
      const saMeta = metaOf(sa);
      if (saMeta.deletionTimestamp) throw fail(`ServiceAccount ${namespace}/${saName} has been deleted`);
      if ((saMeta.uid ?? '') !== saUID) throw fail(`ServiceAccount UID (${saMeta.uid ?? ''}) does not match claim (${saUID})`);
      if (secretMeta.labels?.[INVALID_SINCE_LABEL]) {
        throw fail(
          `the token in secret ${namespace}/${secretName} for service account ${namespace}/${saName} has been marked invalid. ` +
            `Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the '${INVALID_SINCE_LABEL}' label from the secret to temporarily allow use of this token`,
        );
      }
    }
    return { namespace, name: saName, uid: saUID };
  }
}

function notFoundMessage(resource: string, name: string): string {
  return `${resource} "${name}" not found`;
}

function isObject(v: unknown): boolean {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function isTime(v: unknown): boolean {
  return v === undefined || (typeof v === 'number' && Number.isFinite(v));
}

function isOptionalString(v: unknown): boolean {
  return v === undefined || typeof v === 'string';
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function refOf(v: unknown): { name: string; uid: string } {
  const r = isObject(v) ? (v as Record<string, unknown>) : {};
  return { name: str(r.name), uid: str(r.uid) };
}

function audienceList(aud: unknown): string[] {
  if (typeof aud === 'string') return aud ? [aud] : [];
  if (Array.isArray(aud)) return aud.filter((a): a is string => typeof a === 'string');
  return [];
}

function deletedLongAgo(deletionTimestamp: string | undefined, beforeMs: number): boolean {
  if (!deletionTimestamp) return false;
  const t = Date.parse(deletionTimestamp);
  return Number.isFinite(t) && t < beforeMs;
}

/** The `token` key of a Secret's data (base64 in API JSON). */
function secretToken(secret: Record<string, unknown>): Buffer {
  const data = secret.data;
  if (!isObject(data)) return Buffer.alloc(0);
  const v = (data as Record<string, unknown>).token;
  return typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0);
}

/** Constant-time for equal lengths (lengths are not secret: the token is the caller's). */
function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
