// The credentials the API server presents to a webhook, from the kubeconfig
// file an admission webhook plugin's configuration names (kubeConfigFile),
// chosen as upstream's AuthenticationInfoResolver chooses them: the
// `users` entry named exactly the webhook's `host:port` (a `url` webhook:
// the host as written in the URL; a `service`:
// `<name>.<namespace>.svc:<port>`), then `*.`-prefixed wildcards of it
// (`*.ns.svc:443`, `*.svc:443`), then the same without the port when it is
// 443, then `*`, then the user of the current context; none: no
// credentials. A user gives a token (or tokenFile, read at each client
// creation and trimmed), a client certificate and key (files or data), or
// username and password (basic auth). Relative paths are relative to the
// kubeconfig's directory.

import { dirname, isAbsolute, resolve } from 'node:path';
import { readConfigFile, parseConfigText } from '../config/admission-config.ts';

export interface WebhookCredentials {
  token?: string;
  cert?: Buffer;
  key?: Buffer;
  basicAuth?: { username: string; password: string };
}

/** The credentials for a webhook at `hostPort`; undefined: none. Throws when a file the user names cannot be read. */
export type CredentialsFor = (hostPort: string) => WebhookCredentials | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The user names looked up for `target`, in upstream's order (before `*` and the current context's user). */
export function candidateNames(target: string): string[] {
  const stars = (s: string) => {
    const steps = s.split('.');
    const out: string[] = [];
    for (let i = 1; i < steps.length; i++) out.push(`*.${steps.slice(i).join('.')}`);
    return out;
  };
  const names = [target, ...stars(target)];
  // the default https port: again without it (an IPv6 host loses its brackets, as Go's SplitHostPort)
  const m = /^(.+):443$/.exec(target);
  if (m) {
    const host = m[1].replace(/^\[(.*)\]$/, '$1');
    names.push(host, ...stars(host));
  }
  return names;
}

/** The host:port of a webhook URL as written (Go's url.URL.Host: no default port added, none removed). */
export function urlHostPort(url: string): string {
  const m = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(url);
  const authority = m ? m[1] : '';
  const at = authority.lastIndexOf('@');
  return at >= 0 ? authority.slice(at + 1) : authority;
}

/** Parses the kubeconfig text; `path` anchors relative paths and names the file in errors. */
export function parseCredentialsKubeconfig(path: string, text: string): CredentialsFor {
  const raw = parseConfigText(text);
  if (!isObject(raw)) throw new Error(`invalid configuration: no configuration has been provided in ${path}`);
  const users = new Map<string, Record<string, unknown>>();
  for (const u of Array.isArray(raw.users) ? raw.users : []) {
    if (!isObject(u) || typeof u.name !== 'string') continue;
    const user = isObject(u.user) ? u.user : {};
    if (user['auth-provider']) throw new Error(`user ${JSON.stringify(u.name)} in ${path}: auth provider not supported`);
    if (user.exec) throw new Error(`user ${JSON.stringify(u.name)} in ${path}: exec credential plugins are not supported by this server`);
    users.set(u.name, user);
  }
  let currentUser: string | undefined;
  if (typeof raw['current-context'] === 'string') {
    const ctx = (Array.isArray(raw.contexts) ? raw.contexts : []).find((c: unknown) => isObject(c) && c.name === raw['current-context']);
    const user = isObject(ctx) && isObject(ctx.context) ? ctx.context.user : undefined;
    if (typeof user === 'string' && user) currentUser = user;
  }
  const base = dirname(path);
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  const str = (o: Record<string, unknown>, k: string): string => (typeof o[k] === 'string' ? (o[k] as string) : '');
  const fileOrData = (o: Record<string, unknown>, k: string): Buffer | undefined => {
    const data = str(o, `${k}-data`);
    if (data) return Buffer.from(data, 'base64');
    const file = str(o, k);
    return file ? Buffer.from(readConfigFile(abs(file))) : undefined;
  };
  const credentials = (user: Record<string, unknown>): WebhookCredentials => {
    const out: WebhookCredentials = {};
    const token = str(user, 'token');
    const tokenFile = str(user, 'tokenFile');
    if (token) out.token = token;
    else if (tokenFile) out.token = readConfigFile(abs(tokenFile)).trim();
    if (str(user, 'client-certificate') || str(user, 'client-certificate-data')) {
      out.cert = fileOrData(user, 'client-certificate');
      out.key = fileOrData(user, 'client-key');
    }
    const username = str(user, 'username');
    const password = str(user, 'password');
    if (username || password) out.basicAuth = { username, password };
    return out;
  };
  return (hostPort) => {
    for (const name of [...candidateNames(hostPort), '*']) {
      const u = users.get(name);
      if (u) return credentials(u);
    }
    const u = currentUser ? users.get(currentUser) : undefined;
    return u ? credentials(u) : undefined;
  };
}

/** Reads the kubeconfig file; throws Error with Go's file error text. */
export function loadCredentialsKubeconfig(path: string): CredentialsFor {
  return parseCredentialsKubeconfig(path, readConfigFile(path));
}
