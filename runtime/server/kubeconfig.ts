// The admin kubeconfig the server writes on start: one cluster, one user,
// one context (namespace default), in the format kubectl and client-node
// read. Over TLS it carries the CA that signed the serving certificate and
// the admin's client certificate; over plain HTTP, nothing to verify.

import { stringify } from 'yaml';

export interface KubeconfigOptions {
  server: string;
  token?: string;
  /** PEM of the CA that signed the serving certificate. */
  caPEM?: string;
  clientCertPEM?: string;
  clientKeyPEM?: string;
  name?: string;
}

const b64 = (pem: string) => Buffer.from(pem).toString('base64');

export function kubeconfigYAML(o: KubeconfigOptions): string {
  const name = o.name ?? 'specserver';
  const cluster: Record<string, string | boolean> = { server: o.server };
  if (o.caPEM) cluster['certificate-authority-data'] = b64(o.caPEM);
  // client-node refuses plain http unless TLS verification is explicitly off (there is no TLS to verify)
  if (o.server.startsWith('http:')) cluster['insecure-skip-tls-verify'] = true;
  const user: Record<string, string> = {};
  if (o.clientCertPEM && o.clientKeyPEM) {
    user['client-certificate-data'] = b64(o.clientCertPEM);
    user['client-key-data'] = b64(o.clientKeyPEM);
  }
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
