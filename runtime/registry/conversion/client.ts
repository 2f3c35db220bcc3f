// Where a CRD's conversion webhook is called and how: its
// spec.conversion.webhook.clientConfig as a POST function for webhook.ts.
// A `url` is called as given; a `service` (namespace, name, port, path) is
// resolved on each call to an address of the Service's Endpoints (what
// kube-apiserver does with --enable-aggregator-routing; its default, the
// Service's ClusterIP, is not routed on a single machine) and its TLS
// certificate is verified for `<name>.<namespace>.svc`, as upstream's
// service client names it. caBundle (base64 PEM) is the trusted CA; the
// system roots without it.

import { WebhookClient } from '../../auth/webhook/client.ts';
import type { WebhookAnswer } from './webhook.ts';

/** An address of a Service port: host (an IP) and port; throws an Error saying why there is none. */
export type ServiceResolver = (namespace: string, name: string, port: number) => Promise<{ host: string; port: number }>;

export interface ClientConfigOptions {
  timeoutMs: number;
  resolveService?: ServiceResolver;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface WebhookPost {
  post: (body: string) => Promise<WebhookAnswer>;
  /** Closes the connections kept open. */
  close: () => void;
}

/** The POST of a webhook clientConfig ({url} or {service}, caBundle). */
export function webhookPost(clientConfig: unknown, opts: ClientConfigOptions): WebhookPost {
  const cc = isObj(clientConfig) ? clientConfig : {};
  const ca = typeof cc.caBundle === 'string' && cc.caBundle !== '' ? Buffer.from(cc.caBundle, 'base64') : undefined;
  const clients = new Map<string, WebhookClient>();
  const clientFor = (server: URL, tlsServerName?: string): WebhookClient => {
    const key = `${server.href}|${tlsServerName ?? ''}`;
    let c = clients.get(key);
    if (!c) {
      // one address at a time is kept: a Service whose endpoints move gets a new client
      for (const old of clients.values()) old.close();
      clients.clear();
      c = new WebhookClient({ server, ca, insecureSkipTLSVerify: false, tlsServerName }, opts.timeoutMs);
      clients.set(key, c);
    }
    return c;
  };
  const close = () => {
    for (const c of clients.values()) c.close();
    clients.clear();
  };
  if (typeof cc.url === 'string') {
    const url = new URL(cc.url);
    return { post: (body) => clientFor(url).post(body), close };
  }
  const svc = isObj(cc.service) ? cc.service : {};
  const namespace = typeof svc.namespace === 'string' ? svc.namespace : '';
  const name = typeof svc.name === 'string' ? svc.name : '';
  const port = typeof svc.port === 'number' ? svc.port : 443;
  const path = typeof svc.path === 'string' ? svc.path : '';
  const post = async (body: string): Promise<WebhookAnswer> => {
    if (!opts.resolveService) throw new Error(`service ${namespace}/${name} cannot be resolved`);
    const at = await opts.resolveService(namespace, name, port);
    const host = at.host.includes(':') ? `[${at.host}]` : at.host;
    const url = new URL(`https://${host}:${at.port}${path.startsWith('/') ? path : `/${path}`}`);
    return clientFor(url, `${name}.${namespace}.svc`).post(body);
  };
  return { post, close };
}
