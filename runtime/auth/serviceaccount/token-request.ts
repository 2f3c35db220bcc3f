// The TokenRequest rules (POST serviceaccounts/<name>/token) as kube-apiserver
// 1.31 applies them: defaults (expirationSeconds 3600, audiences = the API
// audiences), validation (600 ≤ expirationSeconds ≤ 2^32, upstream's field
// error texts), the object kinds a token may be bound to (Pod, Secret, and
// Node: ServiceAccountTokenNodeBinding is beta and on in 1.31), the
// --service-account-max-token-expiration clamp, the extended expiration of
// kubelet's pod-bound tokens, and the TokenRequest it answers with.
// Objects are read through the port; the token is signed by the issuer.

import { errors } from '../../api/errors.ts';
import { fieldErrors, type FieldError } from '../../api/field-errors.ts';
import type { TokenIssuer } from './issuer.ts';
import { metaOf, type ObjectReader } from './ports.ts';

export const DEFAULT_EXPIRATION_SECONDS = 3600;
export const MIN_EXPIRATION_SECONDS = 600;
export const MAX_EXPIRATION_SECONDS = 2 ** 32;
/** The expiration kubelet asks for when it wants the extended (warn-only) lifetime. */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 60 * 60 + 7;
/** The lifetime such tokens really get (one year). */
export const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;

const KIND = { group: 'authentication.k8s.io', kind: 'TokenRequest' };

export interface BoundObjectRef {
  kind?: string;
  apiVersion?: string;
  name?: string;
  uid?: string;
}

export interface TokenRequestSpec {
  audiences: string[];
  expirationSeconds: number;
  boundObjectRef?: BoundObjectRef;
}

/** The spec with upstream's defaults applied; wrong JSON types are a 400 as decoding would make them. */
export function defaultTokenRequestSpec(spec: unknown, apiAudiences: string[]): TokenRequestSpec {
  const s = spec && typeof spec === 'object' && !Array.isArray(spec) ? (spec as Record<string, unknown>) : {};
  const aud = s.audiences;
  if (aud !== undefined && aud !== null && !(Array.isArray(aud) && aud.every((a) => typeof a === 'string'))) {
    throw errors.badRequest('spec.audiences: expected an array of strings');
  }
  const exp = s.expirationSeconds;
  if (exp !== undefined && exp !== null && !(typeof exp === 'number' && Number.isInteger(exp))) {
    throw errors.badRequest('spec.expirationSeconds: expected an integer');
  }
  const ref = s.boundObjectRef;
  if (ref !== undefined && ref !== null && (typeof ref !== 'object' || Array.isArray(ref))) {
    throw errors.badRequest('spec.boundObjectRef: expected an object');
  }
  const out: TokenRequestSpec = {
    audiences: Array.isArray(aud) && aud.length > 0 ? [...(aud as string[])] : [...apiAudiences],
    expirationSeconds: typeof exp === 'number' ? exp : DEFAULT_EXPIRATION_SECONDS,
  };
  if (ref) {
    const r = ref as Record<string, unknown>;
    const b: BoundObjectRef = {};
    for (const k of ['kind', 'apiVersion', 'name', 'uid'] as const) {
      if (r[k] === undefined || r[k] === null) continue;
      if (typeof r[k] !== 'string') throw errors.badRequest(`spec.boundObjectRef.${k}: expected a string`);
      b[k] = r[k] as string;
    }
    out.boundObjectRef = b;
  }
  return out;
}

/** Upstream's ValidateTokenRequest. */
export function validateTokenRequestSpec(spec: TokenRequestSpec): FieldError[] {
  const errs: FieldError[] = [];
  if (spec.expirationSeconds < MIN_EXPIRATION_SECONDS) {
    errs.push(fieldErrors.invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration less than 10 minutes'));
  }
  if (spec.expirationSeconds > MAX_EXPIRATION_SECONDS) {
    errs.push(fieldErrors.invalid('spec.expirationSeconds', spec.expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  }
  return errs;
}

/** Go's schema.FromAPIVersionAndKind(...).String(): `<group>/<version>, Kind=<kind>`. */
export function gvkString(ref: BoundObjectRef): string {
  const av = ref.apiVersion ?? '';
  const slash = av.indexOf('/');
  const [group, version] = slash < 0 ? ['', av] : [av.slice(0, slash), av.slice(slash + 1)];
  return `${group}/${version}, Kind=${ref.kind ?? ''}`;
}

export type BindableKind = 'Pod' | 'Secret' | 'Node';

/** The kind a token may be bound to, or a 400 with upstream's text. */
export function bindableKind(ref: BoundObjectRef): BindableKind {
  const av = ref.apiVersion ?? '';
  const group = av.includes('/') ? av.slice(0, av.indexOf('/')) : '';
  if (group === '' && (ref.kind === 'Pod' || ref.kind === 'Secret' || ref.kind === 'Node')) return ref.kind;
  throw errors.badRequest(`cannot bind token to object of type ${gvkString(ref)}`);
}

export interface TokenRequestOptions {
  /** From the URL. */
  namespace: string;
  serviceAccountName: string;
  /** The decoded request body (a TokenRequest). */
  body: Record<string, unknown>;
  apiAudiences: string[];
  issuer: TokenIssuer;
  reader: ObjectReader;
  /** --service-account-max-token-expiration in seconds (0 or undefined: none). */
  maxExpirationSeconds?: number;
  /** --service-account-extend-token-expiration (default true upstream). */
  extendExpiration?: boolean;
  /** The lifetime of extended tokens (default one year). */
  maxExtendedExpirationSeconds?: number;
  /** Unix milliseconds. */
  now: () => number;
}

export interface TokenRequestResult {
  /** The TokenRequest to answer with (201). */
  object: Record<string, unknown>;
  /** Warning headers upstream would add. */
  warnings: string[];
}

function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** Upstream's TokenREST.Create for the kinds of 1.31. Throws ApiError (404, 400, 409, 422). */
export async function createTokenRequest(opts: TokenRequestOptions): Promise<TokenRequestResult> {
  const { namespace, serviceAccountName: name, reader } = opts;
  const warnings: string[] = [];
  const md = opts.body.metadata && typeof opts.body.metadata === 'object' ? (opts.body.metadata as Record<string, unknown>) : {};
  const reqName = typeof md.name === 'string' ? md.name : '';
  const reqNamespace = typeof md.namespace === 'string' ? md.namespace : '';
  if (reqName && reqName !== name) {
    throw errors.invalid(KIND, name, [fieldErrors.invalid('metadata.name', reqName, 'must match the service account name if specified')]);
  }
  if (reqNamespace && reqNamespace !== namespace) {
    throw errors.invalid(KIND, name, [fieldErrors.invalid('metadata.namespace', reqNamespace, 'must match the service account namespace if specified')]);
  }

  const sa = await reader.get('serviceaccounts', namespace, name);
  if (!sa) throw errors.notFound({ group: '', resource: 'serviceaccounts' }, name);
  const saUID = metaOf(sa).uid ?? '';

  const spec = defaultTokenRequestSpec(opts.body.spec, opts.apiAudiences);
  const nowMs = opts.now();
  const fieldErrs = validateTokenRequestSpec(spec);
  if (fieldErrs.length > 0) throw errors.invalid(KIND, '', fieldErrs);

  let pod: { name: string; uid: string } | undefined;
  let secret: { name: string; uid: string } | undefined;
  let node: { name: string; uid: string } | undefined;
  const ref = spec.boundObjectRef;
  if (ref) {
    const kind = bindableKind(ref);
    const refName = ref.name ?? '';
    let uid: string;
    if (kind === 'Pod') {
      const obj = await reader.get('pods', namespace, refName);
      if (!obj) throw errors.notFound({ group: '', resource: 'pods' }, refName);
      const podSpec = obj.spec && typeof obj.spec === 'object' ? (obj.spec as Record<string, unknown>) : {};
      if (podSpec.serviceAccountName !== name) {
        throw errors.badRequest(`cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`);
      }
      uid = metaOf(obj).uid ?? '';
      pod = { name: refName, uid };
      const nodeName = typeof podSpec.nodeName === 'string' ? podSpec.nodeName : '';
      if (nodeName) {
        const n = await reader.get('nodes', '', nodeName);
        node = { name: nodeName, uid: n ? (metaOf(n).uid ?? '') : '' };
      }
    } else if (kind === 'Node') {
      const obj = await reader.get('nodes', '', refName);
      if (!obj) throw errors.notFound({ group: '', resource: 'nodes' }, refName);
      uid = metaOf(obj).uid ?? '';
      node = { name: refName, uid };
    } else {
      const obj = await reader.get('secrets', namespace, refName);
      if (!obj) throw errors.notFound({ group: '', resource: 'secrets' }, refName);
      uid = metaOf(obj).uid ?? '';
      secret = { name: refName, uid };
    }
    if (ref.uid && ref.uid !== uid) {
      throw errors.conflict(
        { group: '', resource: kind },
        refName,
        `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
  }

  const max = opts.maxExpirationSeconds ?? 0;
  if (max > 0 && spec.expirationSeconds > max) {
    warnings.push(`requested expiration of ${spec.expirationSeconds} seconds shortened to ${max} seconds`);
    spec.expirationSeconds = max;
  }

  let exp = spec.expirationSeconds;
  let warnAfterSeconds = 0;
  const kubeAudiences = spec.audiences.every((a) => opts.apiAudiences.includes(a));
  if ((opts.extendExpiration ?? true) && pod && spec.expirationSeconds === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS && kubeAudiences) {
    warnAfterSeconds = exp;
    exp = opts.maxExtendedExpirationSeconds ?? EXPIRATION_EXTENSION_SECONDS;
  }

  const { token } = await opts.issuer.issueBound({
    serviceAccount: { namespace, name, uid: saUID },
    pod,
    secret,
    node,
    audiences: spec.audiences,
    expirationSeconds: exp,
    warnAfterSeconds,
  });

  const metadata: Record<string, unknown> = { name, namespace, creationTimestamp: rfc3339(nowMs) };
  const reqUID = typeof md.uid === 'string' && md.uid ? md.uid : saUID;
  if (reqUID) metadata.uid = reqUID;
  const outSpec: Record<string, unknown> = { audiences: spec.audiences, expirationSeconds: spec.expirationSeconds };
  if (spec.boundObjectRef) outSpec.boundObjectRef = spec.boundObjectRef;
  return {
    object: {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata,
      spec: outSpec,
      status: { token, expirationTimestamp: rfc3339(nowMs + spec.expirationSeconds * 1000) },
    },
    warnings,
  };
}
