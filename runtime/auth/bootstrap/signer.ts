// The bootstrap signer's logic (kube-controller-manager's
// `bootstrapsigner`, run in-process here) as pure functions: given the
// kube-public/cluster-info ConfigMap's data and the Secrets in kube-system,
// the data it should have: `kubeconfig` unchanged and one
// `jws-kubeconfig-<id>` per valid signing token (a detached HS256 JWS,
// `header..signature`, header {"alg":"HS256","kid":"<id>"}, keyed by the
// token secret as cluster-bootstrap's ComputeDetachedSignature does);
// expired, malformed and non-signing tokens drop out.

import { jose } from '../jose.ts';
import { NS_PUBLIC, SECRET_TYPE_BOOTSTRAP_TOKEN } from '../../api/k8s-names.ts';
import { expiration, getData, KEY, meta, parseSecretName, TOKEN_SECRET_NAMESPACE, type SecretObject } from './token.ts';

export const CLUSTER_INFO_NAMESPACE = NS_PUBLIC;
export const CLUSTER_INFO_NAME = 'cluster-info';
export const KUBECONFIG_KEY = 'kubeconfig';
export const JWS_KEY_PREFIX = 'jws-kubeconfig-';

/** The detached JWS of `content` for a token. */
export async function computeDetachedSignature(content: string, tokenID: string, tokenSecret: string): Promise<string> {
  const { CompactSign } = await jose();
  const full = await new CompactSign(Buffer.from(content, 'utf8')).setProtectedHeader({ alg: 'HS256', kid: tokenID }).sign(Buffer.from(tokenSecret, 'utf8'));
  const [header, , signature] = full.split('.');
  return `${header}..${signature}`;
}

/** id → secret of the tokens that may sign now (upstream's validateSecretForSigning). */
export function signingTokens(secrets: SecretObject[], nowMs: number): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of secrets) {
    const m = meta(s);
    if (s.type !== SECRET_TYPE_BOOTSTRAP_TOKEN || (m.namespace ?? '') !== TOKEN_SECRET_NAMESPACE) continue;
    const nameID = parseSecretName(m.name ?? '');
    if (!nameID) continue;
    const id = getData(s, KEY.tokenID);
    if (!id || id !== nameID) continue;
    const secret = getData(s, KEY.tokenSecret);
    if (!secret) continue;
    if (expiration(s, nowMs).expired) continue;
    if (getData(s, KEY.usageSigning) !== 'true') continue;
    if (!out.has(id)) out.set(id, secret);
  }
  return out;
}

/**
 * The cluster-info data after signing, and whether it differs from
 * `data`. Without a `kubeconfig` key nothing is done (changed: false).
 */
export async function signClusterInfo(data: Record<string, string>, secrets: SecretObject[], nowMs: number): Promise<{ data: Record<string, string>; changed: boolean }> {
  const content = data[KUBECONFIG_KEY];
  if (content === undefined) return { data, changed: false };
  const next: Record<string, string> = {};
  const old = new Map<string, string>();
  for (const [k, v] of Object.entries(data)) {
    if (k.startsWith(JWS_KEY_PREFIX)) old.set(k.slice(JWS_KEY_PREFIX.length), v);
    else next[k] = v;
  }
  let changed = false;
  for (const [id, secret] of signingTokens(secrets, nowMs)) {
    const sig = await computeDetachedSignature(content, id, secret);
    if (old.get(id) !== sig) changed = true;
    old.delete(id);
    next[JWS_KEY_PREFIX + id] = sig;
  }
  if (old.size > 0) changed = true;
  return { data: changed ? next : data, changed };
}
