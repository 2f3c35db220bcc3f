// The claims of service-account tokens as kube-apiserver 1.31 writes them:
// bound tokens (TokenRequest; `iss`, `sub`, `aud`, `exp`, `iat`, `nbf`,
// `jti` and the private `kubernetes.io` claim) and legacy Secret-based
// tokens (issuer `kubernetes/serviceaccount` and the flat
// `kubernetes.io/serviceaccount/*` claims), and the user a verified token
// stands for (name, uid, groups, extra).

import { GROUP_SERVICE_ACCOUNTS, SERVICE_ACCOUNT_GROUP_PREFIX, SERVICE_ACCOUNT_USER_PREFIX } from '../../api/k8s-names.ts';
import type { UserInfo } from '../user.ts';

export const LEGACY_ISSUER = 'kubernetes/serviceaccount';

/** Keys of the user's extra that a token carries. */
export const EXTRA = {
  podName: 'authentication.kubernetes.io/pod-name',
  podUID: 'authentication.kubernetes.io/pod-uid',
  nodeName: 'authentication.kubernetes.io/node-name',
  nodeUID: 'authentication.kubernetes.io/node-uid',
  credentialID: 'authentication.kubernetes.io/credential-id',
} as const;

/** Name and uid of an object a token names. */
export interface Ref {
  name: string;
  uid: string;
}

/** The private claim of bound tokens. */
export interface KubernetesClaim {
  namespace?: string;
  serviceaccount?: Partial<Ref>;
  pod?: Partial<Ref>;
  secret?: Partial<Ref>;
  node?: Partial<Ref>;
  warnafter?: number;
}

export interface BoundClaims {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  iat?: number;
  nbf?: number;
  jti?: string;
  'kubernetes.io'?: KubernetesClaim;
}

export const LEGACY_CLAIMS = {
  serviceAccountName: 'kubernetes.io/serviceaccount/service-account.name',
  serviceAccountUID: 'kubernetes.io/serviceaccount/service-account.uid',
  secretName: 'kubernetes.io/serviceaccount/secret.name',
  namespace: 'kubernetes.io/serviceaccount/namespace',
} as const;

export function makeUsername(namespace: string, name: string): string {
  return `${SERVICE_ACCOUNT_USER_PREFIX}${namespace}:${name}`;
}

export interface BoundClaimsInput {
  serviceAccount: { namespace: string; name: string; uid: string };
  /** Exactly one binding at most, except that a pod binding may carry the pod's node. */
  pod?: { name: string; uid: string };
  secret?: { name: string; uid: string };
  /** The node of a pod binding (uid may be empty when the Node object is missing), or the bound node. */
  node?: { name: string; uid: string };
  audiences: string[];
  expirationSeconds: number;
  /** Seconds after issue when use is reported as stale (0: none). */
  warnAfterSeconds?: number;
  /** Unix seconds. */
  now: number;
  jti: string;
}

/** The claims upstream's serviceaccount.Claims builds (the issuer adds `iss`). */
export function boundClaims(input: BoundClaimsInput): BoundClaims {
  const { serviceAccount: sa, now } = input;
  if (input.secret && (input.pod || input.node)) throw new Error('internal error, token can only be bound to one object type');
  const k: KubernetesClaim = { namespace: sa.namespace, serviceaccount: ref(sa) };
  if (input.pod) {
    k.pod = ref(input.pod);
    if (input.node) k.node = ref(input.node);
  } else if (input.secret) {
    k.secret = ref(input.secret);
  } else if (input.node) {
    k.node = ref(input.node);
  }
  if (input.warnAfterSeconds) k.warnafter = now + input.warnAfterSeconds;
  return {
    aud: input.audiences,
    exp: now + input.expirationSeconds,
    iat: now,
    jti: input.jti,
    'kubernetes.io': k,
    nbf: now,
    sub: makeUsername(sa.namespace, sa.name),
  };
}

/** Go's omitempty on name and uid. */
function ref(r: { name: string; uid: string }): Partial<Ref> {
  const out: Partial<Ref> = {};
  if (r.name) out.name = r.name;
  if (r.uid) out.uid = r.uid;
  return out;
}

/** The claims of a legacy token for a service-account-token Secret (the issuer adds `iss`). */
export function legacyClaims(serviceAccount: { namespace: string; name: string; uid: string }, secretName: string): Record<string, string> {
  return {
    [LEGACY_CLAIMS.namespace]: serviceAccount.namespace,
    [LEGACY_CLAIMS.secretName]: secretName,
    [LEGACY_CLAIMS.serviceAccountName]: serviceAccount.name,
    [LEGACY_CLAIMS.serviceAccountUID]: serviceAccount.uid,
    sub: makeUsername(serviceAccount.namespace, serviceAccount.name),
  };
}

/** What a verified token says about its holder (upstream's ServiceAccountInfo). */
export interface ServiceAccountInfo {
  namespace: string;
  name: string;
  uid: string;
  podName?: string;
  podUID?: string;
  nodeName?: string;
  nodeUID?: string;
  credentialID?: string;
}

/** The user of a service-account token, with upstream's groups and extra. */
export function serviceAccountUser(sa: ServiceAccountInfo): UserInfo {
  const user: UserInfo = {
    name: makeUsername(sa.namespace, sa.name),
    uid: sa.uid,
    groups: [GROUP_SERVICE_ACCOUNTS, SERVICE_ACCOUNT_GROUP_PREFIX + sa.namespace],
  };
  const extra: Record<string, string[]> = {};
  if (sa.podName && sa.podUID) {
    extra[EXTRA.podName] = [sa.podName];
    extra[EXTRA.podUID] = [sa.podUID];
  }
  if (sa.credentialID) extra[EXTRA.credentialID] = [sa.credentialID];
  if (sa.nodeName) {
    extra[EXTRA.nodeName] = [sa.nodeName];
    if (sa.nodeUID) extra[EXTRA.nodeUID] = [sa.nodeUID];
  }
  if (Object.keys(extra).length > 0) user.extra = extra;
  return user;
}

/** `JTI=<jti>`, or undefined without a jti. */
export function credentialIDForJTI(jti: string | undefined): string | undefined {
  return jti ? `JTI=${jti}` : undefined;
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Namespace and name of `system:serviceaccount:<ns>:<name>`, or undefined (upstream's SplitUsername). */
export function splitUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_USER_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_USER_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts;
  if (namespace.length > 63 || !DNS1123_LABEL.test(namespace)) return undefined;
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name)) return undefined;
  return { namespace, name };
}
