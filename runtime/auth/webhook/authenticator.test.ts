// The webhook token authenticator against loopback HTTP and HTTPS servers started here: answers used,
// cached for the TTL (fake clock), audiences, retries, timeouts, refusals that log no token.

import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors.ts';
import { WebhookTokenAuthenticator, type WebhookTokenOptions } from './authenticator.ts';
import type { WebhookClientConfig } from './kubeconfig.ts';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

interface Seen {
  body: Record<string, unknown>;
  authorization?: string;
  url?: string;
}

/** What the fake webhook answers: a status code and a body, or nothing at all. */
type Reply = { status: number; body: string; headers?: Record<string, string> } | 'hang';

let replies: Reply[] = [];
let defaultReply: Reply;
let seen: Seen[] = [];

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    seen.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), authorization: req.headers.authorization, url: req.url });
    const reply = replies.shift() ?? defaultReply;
    if (reply === 'hang') return;
    res.writeHead(reply.status, { 'Content-Type': 'application/json', ...reply.headers });
    res.end(reply.body);
  });
}

const review = (status: Record<string, unknown>): Reply => ({
  status: 200,
  body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', status }),
});
const JANE = review({ authenticated: true, user: { username: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['read'] } } });

let server: http.Server;
let base: string;
const open: WebhookTokenAuthenticator[] = [];

function clock() {
  let t = 5_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

function make(o: Partial<WebhookTokenOptions> & { client?: WebhookClientConfig } = {}): WebhookTokenAuthenticator {
  const a = new WebhookTokenAuthenticator({
    client: { server: new URL(`${base}/authenticate`), insecureSkipTLSVerify: false },
    now: clock().now,
    sleep: async () => {},
    ...o,
  });
  open.push(a);
  return a;
}

async function refused(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    return err as ApiError;
  }
  throw new Error('was not refused');
}

beforeAll(async () => {
  server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const a of open) a.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function reset(next: Reply[] = [], fallback: Reply = JANE): void {
  replies = next;
  defaultReply = fallback;
  seen = [];
}

describe('WebhookTokenAuthenticator over HTTP', () => {
  it('sends a v1 TokenReview with the token and audiences to the server URL, and uses the answer', async () => {
    reset();
    const a = make({ apiAudiences: ['api'] });
    expect(await a.authenticateToken('tok-1', ['api'])).toEqual({
      user: { name: 'jane', uid: 'u-1', groups: ['dev'], extra: { scopes: ['read'] } },
      audiences: ['api'],
    });
    expect(seen).toEqual([
      {
        url: '/authenticate',
        authorization: undefined,
        body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: { creationTimestamp: null }, spec: { token: 'tok-1', audiences: ['api'] }, status: { user: {} } },
      },
    ]);
  });

  it('sends v1beta1 when configured, and its own bearer token', async () => {
    reset();
    await make({ version: 'v1beta1', client: { server: new URL(`${base}/r`), insecureSkipTLSVerify: false, token: 'server-cred' } }).authenticateToken('t', []);
    expect(seen[0].body.apiVersion).toBe('authentication.k8s.io/v1beta1');
    expect(seen[0].body.spec).toEqual({ token: 't' });
    expect(seen[0].authorization).toBe('Bearer server-cred');
  });

  it('answers from the cache within the TTL and asks the webhook again after it', async () => {
    reset();
    const c = clock();
    const a = make({ now: c.now, cacheTtlMs: 120_000, apiAudiences: ['api', 'other'] });
    await a.authenticateToken('tok-c', ['api']);
    c.advance(60_000);
    expect((await a.authenticateToken('tok-c', ['api']))?.user.name).toBe('jane');
    expect(seen.length).toBe(1);
    await a.authenticateToken('tok-c', ['other']);
    expect(seen.length).toBe(2);
    c.advance(60_001);
    await a.authenticateToken('tok-c', ['api']);
    expect(seen.length).toBe(3);
  });

  it('uses the default TTL of 2 minutes', async () => {
    reset();
    const c = clock();
    const a = make({ now: c.now });
    await a.authenticateToken('tok-d', []);
    c.advance(119_999);
    await a.authenticateToken('tok-d', []);
    expect(seen.length).toBe(1);
    c.advance(1);
    await a.authenticateToken('tok-d', []);
    expect(seen.length).toBe(2);
  });

  it('callers get copies of cached answers', async () => {
    reset();
    const a = make();
    const first = await a.authenticateToken('tok-e', []);
    first!.user.groups.push('system:masters');
    expect((await a.authenticateToken('tok-e', []))!.user.groups).toEqual(['dev']);
  });

  it('"not authenticated" is not ours (undefined) and is cached', async () => {
    reset([], review({ authenticated: false }));
    const a = make();
    expect(await a.authenticateToken('bad', [])).toBeUndefined();
    expect(await a.authenticateToken('bad', [])).toBeUndefined();
    expect(seen.length).toBe(1);
  });

  const audienceRows: [string, string[], string[], Reply, string[] | undefined][] = [
    ["the answer's audiences intersect", ['api', 'x'], [], review({ authenticated: true, user: { username: 'j' }, audiences: ['x', 'y'] }), ['x']],
    ["the answer names none: the server's audiences are used", ['api', 'x'], ['api'], review({ authenticated: true, user: { username: 'j' } }), ['api']],
    ['no intersection: not ours', ['api'], [], review({ authenticated: true, user: { username: 'j' }, audiences: ['other'] }), undefined],
    ["no intersection with the server's audiences", ['x'], ['api'], review({ authenticated: true, user: { username: 'j' } }), undefined],
  ];
  it.each(audienceRows)('audiences: %s', async (_name, wanted, apiAudiences, reply, want) => {
    reset([reply]);
    const got = await make({ apiAudiences }).authenticateToken('tok-aud', wanted);
    expect(got?.audiences).toEqual(want);
    if (want === undefined) expect(got).toBeUndefined();
  });

  it('without audiences asked, none are checked or returned', async () => {
    reset([review({ authenticated: true, user: { username: 'j' }, audiences: ['other'] })]);
    expect(await make().authenticateToken('tok-noaud', [])).toEqual({ user: { name: 'j', groups: [] } });
  });

  const failures: [string, Reply[], Reply, number][] = [
    ['status.error', [], review({ authenticated: false, error: 'token expired' }), 1],
    ['HTTP 403', [], { status: 403, body: '{}' }, 1],
    ['HTTP 404', [], { status: 404, body: 'not here' }, 1],
    ['an answer that is not JSON', [], { status: 200, body: '<html>' }, 1],
    ['an answer of the wrong shape', [], { status: 200, body: JSON.stringify({ status: { authenticated: 'yes' } }) }, 1],
    ['HTTP 500 every time (retried 5 times, as upstream)', [], { status: 500, body: '{}' }, 5],
    ['HTTP 429 every time', [], { status: 429, body: '{}' }, 5],
    ['HTTP 503 with Retry-After', [], { status: 503, body: '{}', headers: { 'Retry-After': '1' } }, 5],
    ['HTTP 503 without Retry-After (not retried)', [], { status: 503, body: '{}' }, 1],
  ];
  it.each(failures)('401 for %s, not cached, nothing secret logged', async (_name, first, fallback, calls) => {
    reset(first, fallback);
    const logged: string[] = [];
    const a = make({ onError: (m) => logged.push(m) });
    const err = await refused(a.authenticateToken('SECRET-TOKEN-1', []));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status()).toMatchObject({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
    expect(seen.length).toBe(calls);
    expect(logged.length).toBe(1);
    expect(logged.join('')).not.toContain('SECRET');
    await refused(a.authenticateToken('SECRET-TOKEN-1', []));
    expect(seen.length).toBe(calls * 2);
  });

  it("retries a transient failure with upstream's backoff, then uses the answer", async () => {
    reset(
      [
        { status: 500, body: '{}' },
        { status: 429, body: '{}' },
      ],
      JANE,
    );
    const slept: number[] = [];
    const a = make({ sleep: async (ms) => void slept.push(ms) });
    expect((await a.authenticateToken('tok-r', []))?.user.name).toBe('jane');
    expect(seen.length).toBe(3);
    expect(slept.length).toBe(2);
    expect(slept[0]).toBeGreaterThanOrEqual(500);
    expect(slept[0]).toBeLessThanOrEqual(600);
    expect(slept[1]).toBeGreaterThanOrEqual(750);
    expect(slept[1]).toBeLessThanOrEqual(900);
  });

  it('401 when the webhook does not answer in time', async () => {
    reset([], 'hang');
    const err = await refused(make({ timeoutMs: 50 }).authenticateToken('t-hang', []));
    expect(err.code).toBe(401);
  });

  it('401 when the webhook cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const err = await refused(make({ client: { server: new URL(`http://127.0.0.1:${port}/`), insecureSkipTLSVerify: false } }).authenticateToken('t', []));
    expect(err.code).toBe(401);
  });

  it('401 for an answer over the size limit', async () => {
    reset([], { status: 200, body: `{"x":"${'a'.repeat(4 * 1024 * 1024)}"}` });
    expect((await refused(make().authenticateToken('t-big', []))).code).toBe(401);
  });
});

describe('WebhookTokenAuthenticator over HTTPS', () => {
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  let tlsServer: https.Server;
  let url: URL;
  let caPem: string;
  let otherCaPem: string;
  let clientCert: string;
  let clientKey: string;
  let clientSubjects: string[] = [];

  async function keyPem(k: CryptoKey): Promise<string> {
    return x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', k), 'PRIVATE KEY');
  }
  async function makeCa(name: string) {
    const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      serialNumber: '01',
      name: `CN=${name}`,
      notBefore: new Date(Date.now() - 3600_000),
      notAfter: new Date(Date.now() + 3600_000),
      keys,
      signingAlgorithm: alg,
      extensions: [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)],
    });
    return { keys, cert };
  }
  async function issue(ca: { keys: CryptoKeyPair; cert: x509.X509Certificate }, cn: string, server: boolean) {
    const keys = (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as CryptoKeyPair;
    const extensions: x509.Extension[] = [new x509.ExtendedKeyUsageExtension([server ? x509.ExtendedKeyUsage.serverAuth : x509.ExtendedKeyUsage.clientAuth])];
    if (server) extensions.push(new x509.SubjectAlternativeNameExtension([{ type: 'ip', value: '127.0.0.1' }]));
    const cert = await x509.X509CertificateGenerator.create({
      serialNumber: '02',
      subject: `CN=${cn}`,
      issuer: ca.cert.subject,
      notBefore: new Date(Date.now() - 3600_000),
      notAfter: new Date(Date.now() + 3600_000),
      signingKey: ca.keys.privateKey,
      publicKey: keys.publicKey,
      signingAlgorithm: alg,
      extensions,
    });
    return { cert: cert.toString('pem'), key: await keyPem(keys.privateKey) };
  }

  beforeAll(async () => {
    const ca = await makeCa('webhook-ca');
    const other = await makeCa('other-ca');
    caPem = ca.cert.toString('pem');
    otherCaPem = other.cert.toString('pem');
    const serving = await issue(ca, 'webhook', true);
    const client = await issue(ca, 'kube-apiserver', false);
    clientCert = client.cert;
    clientKey = client.key;
    tlsServer = https.createServer({ cert: serving.cert, key: serving.key, ca: caPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
      clientSubjects.push((req.socket as import('node:tls').TLSSocket).getPeerCertificate().subject.CN);
      handler(req, res);
    });
    await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
    url = new URL(`https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}/tokenreview`);
  });
  afterAll(async () => {
    tlsServer.closeAllConnections();
    await new Promise((r) => tlsServer.close(r));
  });

  it('trusts the configured CA and presents the client certificate', async () => {
    reset();
    clientSubjects = [];
    const a = make({ client: { server: url, ca: Buffer.from(caPem), cert: Buffer.from(clientCert), key: Buffer.from(clientKey), insecureSkipTLSVerify: false } });
    expect((await a.authenticateToken('tok-tls', []))?.user.name).toBe('jane');
    expect(clientSubjects).toEqual(['kube-apiserver']);
  });

  it("401 when the webhook's certificate is not signed by the configured CA", async () => {
    reset();
    const a = make({ client: { server: url, ca: Buffer.from(otherCaPem), cert: Buffer.from(clientCert), key: Buffer.from(clientKey), insecureSkipTLSVerify: false } });
    expect((await refused(a.authenticateToken('tok-tls2', []))).code).toBe(401);
    expect(seen.length).toBe(0);
  });

  it('insecure-skip-tls-verify accepts any webhook certificate', async () => {
    reset();
    const a = make({ client: { server: url, cert: Buffer.from(clientCert), key: Buffer.from(clientKey), insecureSkipTLSVerify: true } });
    expect((await a.authenticateToken('tok-tls3', []))?.user.name).toBe('jane');
  });
});
