// The kubeconfig file that `--authentication-token-webhook-config-file`
// names, read as client-go's clientcmd reads it for a webhook: the current
// context's cluster (`server`, `certificate-authority(-data)`,
// `insecure-skip-tls-verify`, `tls-server-name`) and user
// (`client-certificate(-data)`, `client-key(-data)`, `token`, `tokenFile`).
// Relative file paths are relative to the kubeconfig's directory. Problems
// are FileErrors naming the file; they never quote key or token material.

import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { yaml } from '../../api/yaml.ts';
import { FileError } from '../file-error.ts';

export interface WebhookClientConfig {
  /** The URL the TokenReview is POSTed to (the cluster's `server`, used as is). */
  server: URL;
  /** PEM of the CA bundle to trust; undefined: the system roots. */
  ca?: Buffer;
  insecureSkipTLSVerify: boolean;
  tlsServerName?: string;
  cert?: Buffer;
  key?: Buffer;
  /** A bearer token the server itself presents to the webhook. */
  token?: string;
  /** Basic authentication (an admission webhook kubeconfig user's username and password). */
  basicAuth?: { username: string; password: string };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function named(list: unknown, name: string, what: string, inner: string, fail: (m: string) => never): Record<string, unknown> {
  if (list !== undefined && list !== null && !Array.isArray(list)) fail(`${what}s must be a list`);
  for (const item of (list as unknown[] | null | undefined) ?? []) {
    if (isObject(item) && item.name === name) {
      const v = item[inner] ?? {};
      if (!isObject(v)) fail(`${what} "${name}" must be an object`);
      return v;
    }
  }
  return fail(`${what} "${name}" not found`);
}

/** Parses the kubeconfig text; `path` names the file and anchors relative paths. */
export function parseWebhookKubeconfig(path: string, text: string): WebhookClientConfig {
  const fail = (m: string): never => {
    throw new FileError(path, `invalid webhook configuration file "${path}": ${m}`);
  };
  const doc = yaml().parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length) fail(`not valid YAML: ${doc.errors[0].message.split('\n')[0]}`);
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    fail((err as Error).message);
  }
  if (!isObject(raw)) return fail('no configuration has been provided');
  const current = raw['current-context'];
  if (typeof current !== 'string' || current === '') return fail('no current-context is set');
  const context = named(raw.contexts, current, 'context', 'context', fail);
  const clusterName = typeof context.cluster === 'string' ? context.cluster : '';
  if (!clusterName) fail(`context "${current}" names no cluster`);
  const cluster = named(raw.clusters, clusterName, 'cluster', 'cluster', fail);
  const userName = typeof context.user === 'string' ? context.user : '';
  const user = userName ? named(raw.users, userName, 'user', 'user', fail) : {};

  const base = dirname(path);
  const str = (o: Record<string, unknown>, k: string): string | undefined => {
    const v = o[k];
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') fail(`${k} must be a string`);
    return v as string;
  };
  const file = (o: Record<string, unknown>, k: string): Buffer | undefined => {
    const p = str(o, k);
    if (p === undefined) return undefined;
    const full = isAbsolute(p) ? p : resolve(base, p);
    try {
      return readFileSync(full);
    } catch (err) {
      return fail(`unable to read ${k} ${full}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  };
  const data = (o: Record<string, unknown>, k: string): Buffer | undefined => {
    const v = str(o, k);
    if (v === undefined) return undefined;
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(v)) fail(`${k} is not valid base64`);
    return Buffer.from(v, 'base64');
  };
  const both = (o: Record<string, unknown>, k: string): Buffer | undefined => {
    const fromData = data(o, `${k}-data`);
    const fromFile = file(o, k);
    if (fromData && fromFile) fail(`${k}-data and ${k} are both specified for ${o === cluster ? clusterName : userName}. ${k}-data will override.`);
    return fromData ?? fromFile;
  };

  const serverText = str(cluster, 'server');
  if (!serverText) return fail(`cluster "${clusterName}" has no server defined`);
  let server: URL;
  try {
    server = new URL(serverText);
  } catch {
    return fail(`cluster "${clusterName}" has an invalid server URL`);
  }
  if (server.protocol !== 'https:' && server.protocol !== 'http:') fail(`cluster "${clusterName}" server must be an http or https URL`);
  const insecure = cluster['insecure-skip-tls-verify'] ?? false;
  if (typeof insecure !== 'boolean') fail('insecure-skip-tls-verify must be a boolean');
  const ca = both(cluster, 'certificate-authority');
  if (ca && insecure) fail('specifying a root certificates file with the insecure flag is not allowed');
  const cert = both(user, 'client-certificate');
  const key = both(user, 'client-key');
  if (Boolean(cert) !== Boolean(key)) fail(`client-certificate and client-key must be given together for user "${userName}"`);
  let token = str(user, 'token');
  const tokenFile = str(user, 'tokenFile');
  if (!token && tokenFile) token = file(user, 'tokenFile')!.toString('utf8').trim();

  const out: WebhookClientConfig = { server, insecureSkipTLSVerify: insecure as boolean };
  const serverName = str(cluster, 'tls-server-name');
  if (serverName) out.tlsServerName = serverName;
  if (ca) out.ca = ca;
  if (cert) out.cert = cert;
  if (key) out.key = key;
  if (token) out.token = token;
  return out;
}

/** Reads and parses the webhook kubeconfig; any problem is a FileError. */
export function loadWebhookKubeconfig(path: string): WebhookClientConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new FileError(path, `invalid webhook configuration file "${path}": ${(err as Error).message}`);
  }
  return parseWebhookKubeconfig(path, text);
}
