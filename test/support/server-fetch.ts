// fetch for tests, against servers that serve TLS with their own CA: the
// servers a test starts register their origin with the CA and the admin's
// client certificate (from their kubeconfig), and serverFetch uses those
// for requests to that origin; other URLs go to the global fetch. So a test
// says serverFetch(`${url}/path`) whether the server is TLS or plain HTTP.
import { readFileSync } from 'node:fs';
import { Agent, fetch as undiciFetch } from 'undici';
import { parse } from 'yaml';

export interface ClientTLS {
  caPEM?: string;
  certPEM?: string;
  keyPEM?: string;
}

const byOrigin = new Map<string, { tls: ClientTLS; agent: Agent }>();

/** Registers the credentials for a server's origin (https URLs only; plain HTTP needs none). */
export function registerServer(url: string, tls: ClientTLS): void {
  const u = new URL(url);
  if (u.protocol !== 'https:') return;
  const agent = new Agent({ connect: { ca: tls.caPEM, cert: tls.certPEM, key: tls.keyPEM } });
  byOrigin.set(u.origin, { tls, agent });
}

/** The CA and admin certificate in a kubeconfig file (as the server writes it). */
export function tlsFromKubeconfig(path: string): ClientTLS {
  const cfg = parse(readFileSync(path, 'utf8'));
  const cluster = cfg.clusters?.[0]?.cluster ?? {};
  const user = cfg.users?.[0]?.user ?? {};
  const dec = (b?: string) => (b ? Buffer.from(b, 'base64').toString() : undefined);
  return { caPEM: dec(cluster['certificate-authority-data']), certPEM: dec(user['client-certificate-data']), keyPEM: dec(user['client-key-data']) };
}

/** The TLS options registered for a URL's origin. */
export function tlsFor(url: string): ClientTLS | undefined {
  return byOrigin.get(new URL(url).origin)?.tls;
}

export function serverFetch(input: string | URL, init?: RequestInit): Promise<Response> {
  const hit = byOrigin.get(new URL(String(input)).origin);
  if (!hit) return fetch(input, init);
  return undiciFetch(String(input), { ...(init as object), dispatcher: hit.agent } as never) as unknown as Promise<Response>;
}
