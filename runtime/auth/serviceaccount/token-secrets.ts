// The tokens controller's decision for one `kubernetes.io/service-account-token`
// Secret (kube-controller-manager's serviceaccount-token controller, run
// in-process), as a pure function: delete it when its ServiceAccount is gone
// or was replaced (uid annotation differs), otherwise fill in what is
// missing — `token` (a legacy token naming the Secret), `namespace`, and
// `ca.crt` when it differs from the root CA — and the name and uid
// annotations. This is how a user-created token Secret gets its token.

import type { TokenIssuer } from './issuer.ts';
import { metaOf } from './ports.ts';

export const SERVICE_ACCOUNT_TOKEN_TYPE = 'kubernetes.io/service-account-token';
export const SA_NAME_ANNOTATION = 'kubernetes.io/service-account.name';
export const SA_UID_ANNOTATION = 'kubernetes.io/service-account.uid';
export const DATA_KEYS = { token: 'token', namespace: 'namespace', caCrt: 'ca.crt' } as const;

export type TokenSecretPlan = { action: 'none' } | { action: 'delete'; namespace: string; name: string; uid?: string } | { action: 'update'; secret: Record<string, unknown> };

function annotations(obj: Record<string, unknown>): Record<string, string> {
  const md = obj.metadata as { annotations?: Record<string, string> } | undefined;
  return md?.annotations ?? {};
}

function dataValue(data: Record<string, string>, key: string): string {
  return data[key] ? Buffer.from(data[key], 'base64').toString('utf8') : '';
}

/**
 * `serviceAccount` is the object named by the Secret's name annotation in
 * its namespace (undefined when there is none); `rootCA` is the PEM the
 * controller puts in `ca.crt` ('' for none).
 */
export async function planTokenSecret(secret: Record<string, unknown>, serviceAccount: Record<string, unknown> | undefined, issuer: TokenIssuer, rootCA: string): Promise<TokenSecretPlan> {
  if (secret.type !== SERVICE_ACCOUNT_TOKEN_TYPE) return { action: 'none' };
  const md = metaOf(secret);
  const ann = annotations(secret);
  const saMeta = serviceAccount ? metaOf(serviceAccount) : undefined;
  const wantUID = ann[SA_UID_ANNOTATION] ?? '';
  if (!saMeta || saMeta.name !== ann[SA_NAME_ANNOTATION] || (wantUID && wantUID !== saMeta.uid)) {
    const del: TokenSecretPlan = { action: 'delete', namespace: md.namespace ?? '', name: md.name ?? '' };
    if (md.uid) del.uid = md.uid;
    return del;
  }
  const data = { ...((secret.data as Record<string, string> | undefined) ?? {}) };
  const needsCA = rootCA !== '' && dataValue(data, DATA_KEYS.caCrt) !== rootCA;
  const needsNamespace = dataValue(data, DATA_KEYS.namespace) === '';
  const needsToken = dataValue(data, DATA_KEYS.token) === '';
  if (!needsCA && !needsNamespace && !needsToken) return { action: 'none' };
  const namespace = md.namespace ?? '';
  if (needsCA) data[DATA_KEYS.caCrt] = Buffer.from(rootCA).toString('base64');
  if (needsNamespace) data[DATA_KEYS.namespace] = Buffer.from(namespace).toString('base64');
  if (needsToken) {
    const token = await issuer.issueLegacy({ namespace, name: saMeta.name ?? '', uid: saMeta.uid ?? '' }, md.name ?? '');
    data[DATA_KEYS.token] = Buffer.from(token).toString('base64');
  }
  const metadata = {
    ...(secret.metadata as Record<string, unknown>),
    annotations: { ...ann, [SA_NAME_ANNOTATION]: saMeta.name ?? '', [SA_UID_ANNOTATION]: saMeta.uid ?? '' },
  };
  return { action: 'update', secret: { ...secret, metadata, data } };
}
