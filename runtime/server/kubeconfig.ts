// The admin kubeconfig the server writes on start: one cluster, one user,
// one context (namespace default), in the format kubectl and client-node read.

import { stringify } from 'yaml';

export interface KubeconfigOptions {
  server: string;
  token?: string;
  caData?: string;
  name?: string;
}

export function kubeconfigYAML(o: KubeconfigOptions): string {
  const name = o.name ?? 'specserver';
  const cluster: Record<string, string | boolean> = { server: o.server };
  if (o.caData) cluster['certificate-authority-data'] = o.caData;
  // client-node refuses plain http unless TLS verification is explicitly off (there is no TLS to verify)
  if (o.server.startsWith('http:')) cluster['insecure-skip-tls-verify'] = true;
  const user: Record<string, string> = {};
  if (o.token) user.token = o.token;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    users: [{ name: `${name}-admin`, user }],
    contexts: [{ name, context: { cluster: name, user: `${name}-admin`, namespace: 'default' } }],
    'current-context': name,
    preferences: {},
  });
}
