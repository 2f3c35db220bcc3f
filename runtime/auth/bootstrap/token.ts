// Bootstrap tokens and their Secrets, as cluster-bootstrap defines them:
// the token format `<id>.<secret>` ([a-z0-9]{6}.[a-z0-9]{16}), the Secret
// `bootstrap-token-<id>` of type `bootstrap.kubernetes.io/token` in
// kube-system with its data keys, the RFC 3339 `expiration` (unparseable
// counts as expired), and the extra groups (each must match
// system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]).

import { GROUP_BOOTSTRAPPERS, NS_SYSTEM } from '../../api/k8s-names.ts';

export const TOKEN_SECRET_NAMESPACE = NS_SYSTEM;
export const SECRET_PREFIX = 'bootstrap-token-';
export const KEY = {
  tokenID: 'token-id',
  tokenSecret: 'token-secret',
  expiration: 'expiration',
  description: 'description',
  extraGroups: 'auth-extra-groups',
  usageAuthentication: 'usage-bootstrap-authentication',
  usageSigning: 'usage-bootstrap-signing',
} as const;
export const GROUP_PATTERN = '\\Asystem:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]\\z';

const TOKEN_RE = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const SECRET_NAME_RE = /^bootstrap-token-([a-z0-9]{6})$/;
const GROUP_RE = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The id and secret of a well-formed token, or undefined. */
export function parseToken(token: string): { id: string; secret: string } | undefined {
  const m = TOKEN_RE.exec(token);
  return m ? { id: m[1], secret: m[2] } : undefined;
}

/** The token id in a Secret name `bootstrap-token-<id>`, or undefined. */
export function parseSecretName(name: string): string | undefined {
  return SECRET_NAME_RE.exec(name)?.[1];
}

export function secretName(tokenID: string): string {
  return SECRET_PREFIX + tokenID;
}

export type SecretObject = Record<string, unknown>;

export function meta(secret: SecretObject): { name?: string; namespace?: string; uid?: string; deletionTimestamp?: string } {
  const m = secret.metadata;
  return m && typeof m === 'object' ? (m as Record<string, string>) : {};
}

/** A data value of a Secret (base64 in API JSON), '' when absent. */
export function getData(secret: SecretObject, key: string): string {
  const data = secret.data;
  if (!data || typeof data !== 'object') return '';
  const v = (data as Record<string, unknown>)[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

/** Go's time.Parse(time.RFC3339, s) in milliseconds, or undefined. */
export function parseRFC3339(s: string): number | undefined {
  if (!RFC3339.test(s)) return undefined;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : undefined;
}

/**
 * Upstream's GetExpiration: no `expiration` never expires; an unparseable
 * one counts as expired; otherwise expired once the time is reached.
 * `remainingMs` is how long until it expires (0 when it does not or has).
 */
export function expiration(secret: SecretObject, nowMs: number): { expired: boolean; remainingMs: number } {
  const v = getData(secret, KEY.expiration);
  if (!v) return { expired: false, remainingMs: 0 };
  const t = parseRFC3339(v);
  if (t === undefined) return { expired: true, remainingMs: 0 };
  const remaining = t - nowMs;
  return remaining <= 0 ? { expired: true, remainingMs: 0 } : { expired: false, remainingMs: remaining };
}

/** The upstream error for a bad extra group, or undefined. */
export function validateGroupName(name: string): string | undefined {
  return GROUP_RE.test(name) ? undefined : `bootstrap group ${JSON.stringify(name)} is invalid (must match ${GROUP_PATTERN})`;
}

/** system:bootstrappers plus the extra groups, sorted and deduplicated; throws on a bad group. */
export function groupsOf(secret: SecretObject): string[] {
  const groups = new Set([GROUP_BOOTSTRAPPERS]);
  const extra = getData(secret, KEY.extraGroups);
  if (extra) {
    for (const g of extra.split(',')) {
      const err = validateGroupName(g);
      if (err) throw new Error(err);
      groups.add(g);
    }
  }
  return [...groups].sort();
}
