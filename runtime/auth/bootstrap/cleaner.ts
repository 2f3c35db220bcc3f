// The token cleaner's decision (kube-controller-manager's `tokencleaner`,
// run in-process here) as a pure function: of the Secrets in kube-system,
// which bootstrap-token Secrets to delete (expired, or with an unparseable
// expiration) and when the next one expires, so the caller can wake then.
// Deletes should carry the uid as a precondition, as upstream's do.

import { SECRET_TYPE_BOOTSTRAP_TOKEN } from '../../api/k8s-names.ts';
import { expiration, meta, TOKEN_SECRET_NAMESPACE, type SecretObject } from './token.ts';

export interface CleanerPlan {
  delete: { namespace: string; name: string; uid?: string }[];
  /** Milliseconds until the next token expires, when one will. */
  nextCheckInMs?: number;
}

export function planTokenCleanup(secrets: SecretObject[], nowMs: number): CleanerPlan {
  const plan: CleanerPlan = { delete: [] };
  for (const s of secrets) {
    const m = meta(s);
    if (s.type !== SECRET_TYPE_BOOTSTRAP_TOKEN || (m.namespace ?? '') !== TOKEN_SECRET_NAMESPACE || !m.name) continue;
    const e = expiration(s, nowMs);
    if (e.expired) {
      const d: CleanerPlan['delete'][number] = { namespace: m.namespace ?? '', name: m.name };
      if (m.uid) d.uid = m.uid;
      plan.delete.push(d);
    } else if (e.remainingMs > 0 && (plan.nextCheckInMs === undefined || e.remainingMs < plan.nextCheckInMs)) {
      plan.nextCheckInMs = e.remainingMs;
    }
  }
  return plan;
}
