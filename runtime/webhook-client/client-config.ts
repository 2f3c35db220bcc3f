// Where a webhook of the API server's configuration is called and how: a
// clientConfig (`url` or `service`, `caBundle`, as CRD conversion webhooks
// and admission webhooks both spell it) as a POST function. A `url` is
// called as given; a `service` (namespace, name, port, path) is resolved on
// each call to a ready address of the Service's endpoints
// (service-resolver.ts: what kube-apiserver does with
// --enable-aggregator-routing; its default, the Service's ClusterIP, is not
// routed on a single machine) and its TLS certificate is verified for
// `<name>.<namespace>.svc`, as upstream's service client names it. caBundle
// (base64 PEM) is the trusted CA; the system roots without it. The
// credentials the server presents (a token, a client certificate, basic
// auth) come from the plugin's kubeconfig by the webhook's host:port
// (auth-info.ts), looked up when a client is made.

import { WebhookClient, type WebhookAnswer } from '../auth/webhook/client.ts';
import { type CredentialsFor, urlHostPort } from './auth-info.ts';

export type { WebhookAnswer };

/** An address of a Service port: host (an IP) and port; throws an Error saying why there is none. */
export type ServiceResolver = (namespace: string, name: string, port: number) => Promise<{ host: string; port: number }>;

export interface ClientConfigOptions {
  timeoutMs: number;
  resolveService?: ServiceResolver;
  /** A query string (without '?') added to every call's URL (admission's `timeout=10s`). */
  query?: string;
  /** The credentials to present, by the webhook's host:port (absent: none). */
  credentials?: CredentialsFor;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One call's limits: a shorter time limit, and the query string it sends instead of the default one. */
export interface CallOptions {
  timeoutMs?: number;
  query?: string;
}

export interface WebhookPost {
  post: (body: string, call?: CallOptions) => Promise<WebhookAnswer>;
  /** Closes the connections kept open. */
  close: () => void;
  /** The URL as upstream's client names it in errors (a service as https://<name>.<namespace>.svc:<port><path>, the port always written). */
  readonly url: string;
  /** That URL with another query string (a call with its own limits). */
  urlWith(query: string): string;
}

const withQuery = (url: URL, query: string | undefined): URL => {
  if (!query) return url;
  const u = new URL(url.href);
  u.search = u.search ? `${u.search}&${query}` : `?${query}`;
  return u;
};

/** The POST of a webhook clientConfig ({url} or {service}, caBundle). */
export function webhookPost(clientConfig: unknown, opts: ClientConfigOptions): WebhookPost {
  const cc = isObj(clientConfig) ? clientConfig : {};
  const ca = typeof cc.caBundle === 'string' && cc.caBundle !== '' ? Buffer.from(cc.caBundle, 'base64') : undefined;
  const clients = new Map<string, WebhookClient>();
  const clientFor = (server: URL, hostPort: string, tlsServerName?: string): WebhookClient => {
    const key = `${server.href}|${tlsServerName ?? ''}`;
    let c = clients.get(key);
    if (!c) {
      // one address at a time is kept: a Service whose endpoints move gets a new client
      for (const old of clients.values()) old.close();
      clients.clear();
      const creds = opts.credentials?.(hostPort);
      c = new WebhookClient({ server, ca, insecureSkipTLSVerify: false, tlsServerName, ...creds }, opts.timeoutMs);
      clients.set(key, c);
    }
    return c;
  };
  const close = () => {
    for (const c of clients.values()) c.close();
    clients.clear();
  };
  if (typeof cc.url === 'string') {
    const base = new URL(cc.url);
    const url = withQuery(base, opts.query);
    const hostPort = urlHostPort(cc.url);
    return {
      post: async (body, call = {}) => clientFor(url, hostPort).post(body, { timeoutMs: call.timeoutMs, url: call.query ? withQuery(base, call.query) : undefined }),
      close,
      url: url.href,
      urlWith: (query) => withQuery(base, query).href,
    };
  }
  const svc = isObj(cc.service) ? cc.service : {};
  const namespace = typeof svc.namespace === 'string' ? svc.namespace : '';
  const name = typeof svc.name === 'string' ? svc.name : '';
  const port = typeof svc.port === 'number' ? svc.port : 443;
  const rawPath = typeof svc.path === 'string' ? svc.path : '';
  const path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
  const post = async (body: string, call: CallOptions = {}): Promise<WebhookAnswer> => {
    if (!opts.resolveService) throw new Error(`service ${namespace}/${name} cannot be resolved`);
    const at = await opts.resolveService(namespace, name, port);
    const host = at.host.includes(':') ? `[${at.host}]` : at.host;
    const base = new URL(`https://${host}:${at.port}${path}`);
    const client = clientFor(withQuery(base, opts.query), `${name}.${namespace}.svc:${port}`, `${name}.${namespace}.svc`);
    return client.post(body, { timeoutMs: call.timeoutMs, url: call.query ? withQuery(base, call.query) : undefined });
  };
  const named = (query: string | undefined) => `https://${name}.${namespace}.svc:${port}${path}${query ? `?${query}` : ''}`;
  return { post, close, url: named(opts.query), urlWith: named };
}
