// End-to-end: TLS and authentication with real clients against real server
// processes: kubectl and curl with the written admin kubeconfig, plain HTTP
// to the TLS port, anonymous requests (and --anonymous-auth=false), tokens
// from --token-auth-file (and a token file the server refuses), client
// certificates of the server's CA and of another, impersonation, and bad
// credentials over the wire (garbage and oversized tokens, malformed
// impersonation headers), with no token in the server's output.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCA, issueCertificate } from '../../runtime/auth/pki/certs.ts';
import { adminCredentials, certUser, curl, curlAnswer, kubeconfigFor, kubeconfigServerURL, SELF_SUBJECT_REVIEW, SELF_SUBJECT_REVIEW_PATH, serverCA, tlsRequest } from '../support/auth-clients.ts';
import { kubectlFor, ok, type Kubectl } from '../support/kubectl.ts';
import { runCliToExit, startServerProcess, type ServerProcess } from '../support/server-process.ts';

const tok = (name: string) => `${name}-${randomBytes(12).toString('hex')}`;
const aliceToken = tok('alice');
const wrongToken = tok('wrong');
const garbageToken = `garbage!${randomBytes(8).toString('hex')}`;
const bigToken = 'b'.repeat(100 * 1024);

let dir: string;
let server: ServerProcess;
let url: string;
let ca: string;
let home: string;
let kubectlWith: (kubeconfig: string) => Kubectl;
let admin: Kubectl;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'auth-e2e-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, `${aliceToken},alice,uid-alice,"dev,ops"\n`);
  server = await startServerProcess(['--token-auth-file', tokens]);
  url = kubeconfigServerURL(server);
  ca = serverCA(server).certPEM;
  home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
  kubectlWith = (kubeconfig) => {
    const k = kubectlFor(kubeconfig);
    return (args, opts = {}) => k(args, { ...opts, env: { HOME: home, ...(opts.env ?? {}) } });
  };
  admin = kubectlWith(server.kubeconfig);
});
afterAll(async () => {
  await server?.stop();
});

/**
 * kubectl is refused with a 401. Its words depend on which request met the
 * 401: with a discovery cache (the admin filled it) the list itself, whose
 * Status message is shown; with a fresh HOME discovery, where client-go
 * shows its own text.
 */
async function expectKubectlUnauthorized(kubeconfig: string) {
  ok(await admin(['get', 'ns']));
  const cached = await kubectlWith(kubeconfig)(['get', 'ns']);
  expect(cached.code).not.toBe(0);
  expect(cached.stderr).toContain('error: You must be logged in to the server (Unauthorized)');
  const fresh = await kubectlFor(kubeconfig)(['get', 'ns'], { env: { HOME: mkdtempSync(join(tmpdir(), 'kubectl-home-')) } });
  expect(fresh.code).not.toBe(0);
  expect(fresh.stderr).toContain('error: You must be logged in to the server (the server has asked for the client to provide credentials)');
}

/** `kubectl auth whoami -o json`'s userInfo. */
async function whoami(k: Kubectl, extra: string[] = []) {
  return JSON.parse(ok(await k(['auth', 'whoami', '-o', 'json', ...extra]))).status.userInfo;
}

describe('TLS with the written kubeconfig', () => {
  it('kubectl lists namespaces and is kubernetes-admin in system:masters', async () => {
    expect(ok(await admin(['get', 'ns', '-o', 'name']))).toContain('namespace/default');
    const me = await whoami(admin);
    expect(me.username).toBe('kubernetes-admin');
    expect(me.groups).toEqual(['system:masters', 'system:authenticated']);
  });

  it('curl with the CA and the admin certificate works; without the CA it fails verification', async () => {
    const pki = join(server.dataDir, 'pki');
    const good = curlAnswer(await curl(['--cacert', join(pki, 'ca.crt'), '--cert', join(pki, 'admin.crt'), '--key', join(pki, 'admin.key'), `${url}/api/v1/namespaces/default`]));
    expect(good.status).toBe(200);
    expect(JSON.parse(good.body).metadata.name).toBe('default');
    const bad = await curl([`${url}/version`]);
    // 60: the peer's certificate could not be verified with the known CAs
    expect(bad.code).toBe(60);
  });

  it("plain HTTP to the TLS port gets 400 with Go's text", async () => {
    const r = curlAnswer(await curl([`${url.replace('https:', 'http:')}/version`]));
    expect(r.status).toBe(400);
    // Go's answer, newline included
    expect(r.body).toBe('Client sent an HTTP request to an HTTPS server.\n');
  });
});

describe('anonymous requests', () => {
  it('/healthz and /version answer 200 without credentials', async () => {
    expect((await tlsRequest(`${url}/healthz`, { ca })).status).toBe(200);
    const v = await tlsRequest(`${url}/version`, { ca });
    expect(v.status).toBe(200);
    expect(v.json.major).toBe('1');
  });

  it('a Secret list without credentials is 403 for system:anonymous', async () => {
    const r = await tlsRequest(`${url}/api/v1/namespaces/default/secrets`, { ca });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      details: { kind: 'secrets' },
      message: 'secrets is forbidden: User "system:anonymous" cannot list resource "secrets" in API group "" in the namespace "default"',
    });
  });
});

describe('a token from --token-auth-file', () => {
  it("kubectl with the token is the file's user", async () => {
    const k = kubectlWith(kubeconfigFor(server, { token: aliceToken }));
    const me = await whoami(k);
    expect(me).toMatchObject({ username: 'alice', uid: 'uid-alice', groups: ['dev', 'ops', 'system:authenticated'] });
  });

  it('a wrong token is 401 (kubectl says Unauthorized)', async () => {
    await expectKubectlUnauthorized(kubeconfigFor(server, { token: wrongToken }));
    const raw = await tlsRequest(`${url}/api/v1/namespaces`, { ca, headers: { authorization: `Bearer ${wrongToken}` } });
    expect(raw.status).toBe(401);
    expect(raw.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it('a token file with a bad row stops the server with a message naming the line', async () => {
    const bad = join(dir, 'bad-tokens.csv');
    writeFileSync(bad, `${tok('ok')},ok,uid-ok\n${tok('short')},short\n`);
    const r = await runCliToExit(['--data-dir', join(dir, 'refused'), '--secure-port', '0', '--token-auth-file', bad]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('must have at least 3 columns');
    expect(r.out).toContain('line 2');
  });
});

describe('client certificates', () => {
  it("a certificate signed by the server's CA: CN is the user, O the groups", async () => {
    const jane = await issueCertificate(serverCA(server), { commonName: 'jane', organizations: ['dev', 'qa'], usage: 'client', validityDays: 1 });
    const me = await whoami(kubectlWith(kubeconfigFor(server, certUser(jane))));
    expect(me.username).toBe('jane');
    expect(me.groups).toEqual(['dev', 'qa', 'system:authenticated']);
  });

  it('a certificate of another CA is 401', async () => {
    const other = await createCA('other-ca');
    const mallory = await issueCertificate(other, { commonName: 'kubernetes-admin', organizations: ['system:masters'], usage: 'client', validityDays: 1 });
    await expectKubectlUnauthorized(kubeconfigFor(server, certUser(mallory)));
    const raw = await tlsRequest(`${url}/api/v1/namespaces`, { ca, client: mallory });
    expect(raw.status).toBe(401);
    expect(raw.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });

  it("an expired certificate of the server's CA is 401", async () => {
    const old = await issueCertificate(serverCA(server), { commonName: 'jane', usage: 'client', validityDays: 1, now: Date.now() - 10 * 86_400_000 });
    const raw = await tlsRequest(`${url}/api/v1/namespaces`, { ca, client: old });
    expect(raw.status).toBe(401);
    expect(raw.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });
});

describe('impersonation', () => {
  it('the admin impersonates bob in g1', async () => {
    const me = await whoami(admin, ['--as', 'bob', '--as-group', 'g1']);
    expect(me.username).toBe('bob');
    expect(me.groups).toEqual(['g1', 'system:authenticated']);
  });

  it('a user outside system:masters may not impersonate', async () => {
    const r = await kubectlWith(kubeconfigFor(server, { token: aliceToken }))(['get', 'ns', '--as', 'bob']);
    expect(r.code).not.toBe(0);
    // (kubectl auth whoami replaces a 403 by its own text, so a list shows the server's message)
    expect(r.stderr).toContain('Error from server (Forbidden): ');
    expect(r.stderr).toContain('users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope');
  });

  it('Impersonate-Group without Impersonate-User is 400', async () => {
    const pki = join(server.dataDir, 'pki');
    const r = curlAnswer(await curl(['--cacert', join(pki, 'ca.crt'), '--cert', join(pki, 'admin.crt'), '--key', join(pki, 'admin.key'), '-H', 'Impersonate-Group: g1', `${url}/api/v1/namespaces`]));
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(JSON.parse(r.body).message).toContain('without impersonating a user');
  });
});

describe('bad input over the wire', () => {
  it('a garbage bearer token and a 100 KiB one are 401 Statuses', async () => {
    for (const t of [garbageToken, bigToken]) {
      const r = await tlsRequest(`${url}/api/v1/namespaces`, { ca, headers: { authorization: `Bearer ${t}` } });
      expect(r.status).toBe(401);
      expect(r.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', code: 401 });
    }
  });

  it('Impersonate-Extra- with malformed percent-encoding is kept as sent, not a 500', async () => {
    const r = await tlsRequest(`${url}${SELF_SUBJECT_REVIEW_PATH}`, {
      ca,
      client: adminCredentials(server),
      method: 'POST',
      headers: { 'content-type': 'application/json', 'impersonate-user': 'bob', 'impersonate-extra-%zz': 'x' },
      body: SELF_SUBJECT_REVIEW,
    });
    expect(r.status).toBe(201);
    expect(r.json.status.userInfo).toMatchObject({ username: 'bob', extra: { '%zz': ['x'] } });
    const anon = await tlsRequest(`${url}/api/v1/namespaces`, { ca, headers: { 'impersonate-user': 'bob', 'impersonate-extra-%zz': 'x' } });
    expect(anon.status).toBe(403);
    expect(anon.json).toMatchObject({ kind: 'Status', code: 403 });
  });

  it('the server printed none of the tokens used', () => {
    const out = server.output();
    for (const t of [aliceToken, wrongToken, garbageToken, 'b'.repeat(64)]) expect(out).not.toContain(t);
  });
});

describe('--anonymous-auth=false', () => {
  let strict: ServerProcess;
  beforeAll(async () => {
    strict = await startServerProcess(['--anonymous-auth=false']);
  });
  afterAll(async () => {
    await strict?.stop();
  });

  it('a Secret list without credentials is 401', async () => {
    const r = await tlsRequest(`${kubeconfigServerURL(strict)}/api/v1/namespaces/default/secrets`, { ca: serverCA(strict).certPEM });
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized', message: 'Unauthorized', code: 401 });
  });
});
