// TLS and authentication of an in-process server over real sockets: the
// default server serves TLS with its own CA and knows its admin by client
// certificate; requests without credentials are anonymous and may only read
// health, version and discovery; bad credentials of every kind are 401
// Statuses; plain HTTP to the TLS port is answered as Go answers it; the
// TLS flags take effect; impersonation is for system:masters only.
import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCA, issueCertificate } from '../../runtime/auth/pki/certs.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';

type Creds = { cert?: string; key?: string; headers?: Record<string, string> };

function client(s: RunningServer, creds: Creds = {}) {
  const agent = new Agent({ connect: { ca: s.caPEM, cert: creds.cert, key: creds.key } });
  return async (path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) => {
    const res = await undiciFetch(`${s.url}${path}`, {
      method: init.method ?? 'GET',
      body: init.body,
      dispatcher: agent,
      headers: { ...(init.body ? { 'content-type': 'application/json' } : {}), ...creds.headers, ...init.headers },
    });
    const text = await res.text();
    let json: any;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, text, json };
  };
}

const whoami = { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' };
const SSR = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

let dir: string;
let s: RunningServer;
let tokenFile: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tls-auth-'));
  tokenFile = join(dir, 'tokens.csv');
  writeFileSync(tokenFile, 'tok-alice,alice,uid-a,"dev,ops"\n');
  s = await startServer({ tokenAuthFile: tokenFile });
});
afterAll(async () => {
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the default server', () => {
  it('serves TLS; the kubeconfig carries the CA and the admin certificate and nothing insecure', () => {
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const cfg = parse(s.kubeconfig);
    const cluster = cfg.clusters[0].cluster;
    expect(cluster['insecure-skip-tls-verify']).toBeUndefined();
    expect(Buffer.from(cluster['certificate-authority-data'], 'base64').toString()).toBe(s.caPEM);
    expect(Buffer.from(cfg.users[0].user['client-certificate-data'], 'base64').toString()).toBe(s.adminCredentials!.certPEM);
  });

  it('knows the admin by its client certificate', async () => {
    const admin = client(s, { cert: s.adminCredentials!.certPEM, key: s.adminCredentials!.keyPEM });
    const r = await admin(SSR, { method: 'POST', body: JSON.stringify(whoami) });
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo).toEqual({ username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] });
    expect((await admin('/api/v1/namespaces/kube-system/secrets')).status).toBe(200);
  });

  it('knows a token user of --token-auth-file', async () => {
    const r = await client(s, { headers: { authorization: 'Bearer tok-alice' } })(SSR, { method: 'POST', body: JSON.stringify(whoami) });
    expect(r.json.status.userInfo).toEqual({ username: 'alice', uid: 'uid-a', groups: ['dev', 'ops', 'system:authenticated'] });
  });

  it("lets anonymous read health and version only (RBAC's system:public-info-viewer), with upstream's Forbidden", async () => {
    const anon = client(s);
    for (const p of ['/healthz', '/livez', '/readyz', '/version']) {
      expect([p, (await anon(p)).status]).toEqual([p, 200]);
    }
    // discovery is system:discovery's, bound to system:authenticated only
    for (const p of ['/api', '/apis', '/api/v1', '/apis/apps/v1', '/openapi/v2']) {
      expect([p, (await anon(p)).status]).toEqual([p, 403]);
    }
    const alice = client(s, { headers: { authorization: 'Bearer tok-alice' } });
    for (const p of ['/api', '/apis/apps/v1', '/openapi/v2']) {
      expect([p, (await alice(p)).status]).toEqual([p, 200]);
    }
    const list = await anon('/api/v1/namespaces/default/secrets');
    expect(list.status).toBe(403);
    expect(list.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Forbidden',
      code: 403,
      message: 'secrets is forbidden: User "system:anonymous" cannot list resource "secrets" in API group "" in the namespace "default"',
      details: { kind: 'secrets' },
    });
    const create = await anon('/api/v1/namespaces/default/configmaps', { method: 'POST', body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'anon' } }) });
    expect(create.status).toBe(403);
    expect((await anon('/metrics')).json.message).toBe('forbidden: User "system:anonymous" cannot get path "/metrics"');
  });

  it('answers bad credentials with 401 Unauthorized, even where anonymous could read', async () => {
    const other = await createCA('other-ca');
    const stranger = await issueCertificate(other, { commonName: 'mallory', organizations: ['system:masters'], usage: 'client', validityDays: 1 });
    const cases: [string, Creds][] = [
      ['a certificate of another CA', { cert: stranger.certPEM, key: stranger.keyPEM }],
      ['an unknown token', { headers: { authorization: 'Bearer tok-nobody' } }],
      ['a garbage token', { headers: { authorization: 'Bearer @@:;{}<>\\""' } }],
      ['a JWT-shaped token nobody signed', { headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' } }],
      ['a 100 KiB token', { headers: { authorization: `Bearer ${'x'.repeat(100 * 1024)}` } }],
    ];
    for (const [name, creds] of cases) {
      const r = await client(s, creds)('/version');
      expect([name, r.status, r.json]).toEqual([name, 401, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }]);
    }
  });

  it('answers plain HTTP on the TLS port as Go does, and keeps serving', async () => {
    const port = Number(new URL(s.url).port);
    const raw = await new Promise<string>((resolve, reject) => {
      const sock = tcpConnect(port, '127.0.0.1', () => sock.write('GET /version HTTP/1.1\r\nHost: x\r\n\r\n'));
      let out = '';
      sock.on('data', (d) => {
        out += d;
      });
      sock.on('end', () => resolve(out));
      sock.on('error', reject);
    });
    expect(raw).toBe('HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n');
    expect((await client(s)('/healthz')).status).toBe(200);
  });

  it('impersonation: the admin may, a token user may not, groups without a user are 400', async () => {
    const admin = client(s, { cert: s.adminCredentials!.certPEM, key: s.adminCredentials!.keyPEM });
    const as = await admin(SSR, { method: 'POST', body: JSON.stringify(whoami), headers: { 'impersonate-user': 'bob', 'impersonate-group': 'g1' } });
    expect(as.json.status.userInfo).toEqual({ username: 'bob', groups: ['g1', 'system:authenticated'] });
    const alice = client(s, { headers: { authorization: 'Bearer tok-alice', 'impersonate-user': 'bob' } });
    const denied = await alice('/api/v1/namespaces');
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe('users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
    const groupOnly = await admin('/api/v1/namespaces', { headers: { 'impersonate-group': 'g1' } });
    expect(groupOnly.status).toBe(400);
  });

  it('publishes kube-system/extension-apiserver-authentication with the client CA', async () => {
    const admin = client(s, { cert: s.adminCredentials!.certPEM, key: s.adminCredentials!.keyPEM });
    const cm = await admin('/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication');
    expect(cm.status).toBe(200);
    expect(cm.json.data['client-ca-file']).toBe(s.caPEM);
    expect(cm.json.metadata.managedFields[0].manager).toBe('kube-apiserver');
  });
});

describe('options', () => {
  it('--anonymous-auth=false: no credentials is 401 everywhere', async () => {
    const t = await startServer({ anonymousAuth: false });
    try {
      const r = await client(t)('/healthz');
      expect(r.status).toBe(401);
      expect(r.json.reason).toBe('Unauthorized');
    } finally {
      await t.stop();
    }
  });

  it('--authentication-config: anonymous only for the listed paths; refused together with --anonymous-auth', async () => {
    const cfg = join(dir, 'authn.yaml');
    writeFileSync(cfg, 'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthenticationConfiguration\nanonymous:\n  enabled: true\n  conditions:\n  - path: /livez\n');
    const t = await startServer({ authenticationConfig: cfg });
    try {
      expect((await client(t)('/livez')).status).toBe(200);
      expect((await client(t)('/version')).status).toBe(401);
    } finally {
      await t.stop();
    }
    await expect(startServer({ authenticationConfig: cfg, anonymousAuth: true })).rejects.toThrow(
      '--anonynous-auth flag cannot be set when anonymous field is configured in authentication configuration file',
    );
  });

  it('--tls-min-version=VersionTLS13 refuses a TLS 1.2 client', async () => {
    const t = await startServer({ tlsMinVersion: 'VersionTLS13' });
    try {
      const port = Number(new URL(t.url).port);
      const handshake = (maxVersion: 'TLSv1.2' | 'TLSv1.3') =>
        new Promise<string>((resolve) => {
          const sock = tlsConnect({ port, host: '127.0.0.1', ca: t.caPEM, servername: 'localhost', maxVersion }, () => {
            const v = sock.getProtocol() ?? '';
            sock.end();
            resolve(v);
          });
          sock.on('error', (e: NodeJS.ErrnoException) => resolve(`error ${e.code}`));
        });
      expect(await handshake('TLSv1.3')).toBe('TLSv1.3');
      expect(await handshake('TLSv1.2')).toMatch(/^error /);
    } finally {
      await t.stop();
    }
  });

  it('a token file with a bad row is a start-up error naming the line', async () => {
    const bad = join(dir, 'bad.csv');
    writeFileSync(bad, 'tok-1,u1,1\njust-a-token\n');
    await expect(startServer({ tokenAuthFile: bad })).rejects.toThrow(/bad\.csv.*line 2/);
  });
});
