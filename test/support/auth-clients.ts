// Credentials and raw TLS requests for end-to-end authentication tests:
// kubeconfigs that reuse a server's cluster entry (its URL and CA) with
// another user (a token, a client certificate, an exec plugin), the
// server's CA read from <data-dir>/pki, an HTTPS request with any client
// certificate and headers (node:https, so a test controls exactly what is
// sent), and curl.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { KeyPairPEM } from '../../runtime/auth/pki/certs.ts';
import { run, type RunResult } from './kubectl.ts';
import type { ServerProcess } from './server-process.ts';

/** The server's CA certificate and key (what it wrote under <data-dir>/pki). */
export function serverCA(server: ServerProcess): KeyPairPEM {
  return {
    certPEM: readFileSync(join(server.dataDir, 'pki', 'ca.crt'), 'utf8'),
    keyPEM: readFileSync(join(server.dataDir, 'pki', 'ca.key'), 'utf8'),
  };
}

/** The admin's client certificate and key (<data-dir>/pki/admin.{crt,key}). */
export function adminCredentials(server: ServerProcess): KeyPairPEM {
  return {
    certPEM: readFileSync(join(server.dataDir, 'pki', 'admin.crt'), 'utf8'),
    keyPEM: readFileSync(join(server.dataDir, 'pki', 'admin.key'), 'utf8'),
  };
}

/** The URL the server's admin kubeconfig points at. */
export function kubeconfigServerURL(server: ServerProcess): string {
  return parse(readFileSync(server.kubeconfig, 'utf8')).clusters[0].cluster.server as string;
}

/**
 * Writes a kubeconfig with the server's cluster entry (URL and CA) and
 * `user` as its only user; returns its path.
 */
export function kubeconfigFor(server: ServerProcess, user: Record<string, unknown>, dir = mkdtempSync(join(tmpdir(), 'kubeconfig-'))): string {
  const admin = parse(readFileSync(server.kubeconfig, 'utf8'));
  const cfg = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'test', cluster: admin.clusters[0].cluster }],
    users: [{ name: 'test', user }],
    contexts: [{ name: 'test', context: { cluster: 'test', user: 'test' } }],
    'current-context': 'test',
  };
  const path = join(dir, 'kubeconfig');
  writeFileSync(path, stringify(cfg));
  return path;
}

/** A kubeconfig `user` entry with an inline client certificate. */
export function certUser(pair: KeyPairPEM): Record<string, string> {
  return {
    'client-certificate-data': Buffer.from(pair.certPEM).toString('base64'),
    'client-key-data': Buffer.from(pair.keyPEM).toString('base64'),
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body parsed as JSON, or undefined. */
  json?: any;
}

export interface RawRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** PEM of the CA to trust. */
  ca: string;
  /** A client certificate to present (none: no certificate). */
  client?: KeyPairPEM;
}

/** One HTTPS request on a fresh connection, with exactly the given headers and client certificate. */
export function tlsRequest(url: string, r: RawRequest): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: r.method ?? 'GET',
        headers: r.headers,
        ca: r.ca,
        cert: r.client?.certPEM,
        key: r.client?.keyPEM,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          let json;
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(r.body);
  });
}

/** The SelfSubjectReview body (who the server takes the request's sender for). */
export const SELF_SUBJECT_REVIEW = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
export const SELF_SUBJECT_REVIEW_PATH = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

/** curl with the given arguments (-s; the answer's status code appended as a last line by -w). */
export function curl(args: string[]): Promise<RunResult> {
  return run('curl', ['-s', '-S', '-w', '\n%{http_code}', ...args]);
}

/** Splits curl's output into body and status code (see curl()). */
export function curlAnswer(r: RunResult): { status: number; body: string } {
  const i = r.stdout.lastIndexOf('\n');
  return { status: Number(r.stdout.slice(i + 1)), body: r.stdout.slice(0, i) };
}
