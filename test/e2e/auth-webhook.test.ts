// End-to-end: the webhook token authenticator
// (--authentication-token-webhook-config-file) against a TokenReview
// webhook served by the test over TLS with its own CA: the webhook's answer
// decides who a token is, the answer is cached for
// --authentication-token-webhook-cache-ttl (0s: not cached), the review is
// sent as authentication.k8s.io/v1beta1 by default and as v1 with
// --authentication-token-webhook-version=v1, and a refused token is 401.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { kubeconfigFor, kubeconfigServerURL, SELF_SUBJECT_REVIEW, SELF_SUBJECT_REVIEW_PATH, serverCA, tlsRequest } from '../support/auth-clients.ts';
import { kubectlFor, ok } from '../support/kubectl.ts';
import { startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { startTlsWebhook, type TlsWebhook } from '../support/tls-webhook.ts';

const approved = `hooked-${randomBytes(12).toString('hex')}`;
const refused = `refused-${randomBytes(12).toString('hex')}`;

interface Review {
  apiVersion: string;
  kind: string;
  spec: { token: string; audiences?: string[] };
}

/** The TokenReviews the webhook received, in order. */
const reviews: Review[] = [];
let webhook: TlsWebhook | undefined;
let webhookConfig: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'auth-webhook-'));
  const hook = await startTlsWebhook((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const review = JSON.parse(body) as Review;
      reviews.push(review);
      const status =
        review.spec.token === approved ? { authenticated: true, user: { username: 'wendy', uid: 'uid-wendy', groups: ['hooked'], extra: { origin: ['webhook'] } } } : { authenticated: false };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'TokenReview', status }));
    });
  });
  webhook = hook;
  webhookConfig = join(dir, 'webhook.kubeconfig');
  writeFileSync(
    webhookConfig,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'webhook', cluster: { server: hook.url('/authenticate'), 'certificate-authority-data': hook.caBundle } }],
      users: [{ name: 'apiserver', user: {} }],
      contexts: [{ name: 'webhook', context: { cluster: 'webhook', user: 'apiserver' } }],
      'current-context': 'webhook',
    }),
  );
});
afterAll(async () => {
  await webhook?.close();
});

const reviewsOf = (token: string) => reviews.filter((r) => r.spec.token === token);

/** A server with the webhook and the given extra flags, and a kubectl for a kubeconfig with a token. */
function serverWithWebhook(flags: string[]) {
  const s: { server?: ServerProcess } = {};
  beforeAll(async () => {
    reviews.length = 0;
    s.server = await startServerProcess(['--authentication-token-webhook-config-file', webhookConfig, ...flags]);
  });
  afterAll(async () => {
    await s.server?.stop();
  });
  const kubectlWithToken = (token: string) => {
    const k = kubectlFor(kubeconfigFor(s.server!, { token }));
    const home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
    return (args: string[]) => k(args, { env: { HOME: home } });
  };
  const whoamiRaw = (token: string) =>
    tlsRequest(`${kubeconfigServerURL(s.server!)}${SELF_SUBJECT_REVIEW_PATH}`, {
      ca: serverCA(s.server!).certPEM,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: SELF_SUBJECT_REVIEW,
    });
  return { s, kubectlWithToken, whoamiRaw };
}

describe('a TokenReview webhook (v1beta1, the default; answers cached)', () => {
  const { s, kubectlWithToken, whoamiRaw } = serverWithWebhook(['--authentication-token-webhook-cache-ttl=1h']);

  it('a token the webhook approves is its user, and the answer is cached', async () => {
    const me = JSON.parse(ok(await kubectlWithToken(approved)(['auth', 'whoami', '-o', 'json']))).status.userInfo;
    expect(me).toEqual({ username: 'wendy', uid: 'uid-wendy', groups: ['hooked', 'system:authenticated'], extra: { origin: ['webhook'] } });
    expect(reviewsOf(approved)).toHaveLength(1);
    expect(reviewsOf(approved)[0]).toMatchObject({ apiVersion: 'authentication.k8s.io/v1beta1', kind: 'TokenReview' });
    const again = await whoamiRaw(approved);
    expect(again.status).toBe(201);
    expect(again.json.status.userInfo.username).toBe('wendy');
    // within the TTL the second request did not reach the webhook
    expect(reviewsOf(approved)).toHaveLength(1);
  });

  it('a token the webhook refuses is 401', async () => {
    const r = await kubectlWithToken(refused)(['get', 'ns']);
    expect(r.code).not.toBe(0);
    // (kubectl's words for a 401 to its first discovery request)
    expect(r.stderr).toContain('error: You must be logged in to the server (the server has asked for the client to provide credentials)');
    const raw = await whoamiRaw(refused);
    expect(raw.status).toBe(401);
    expect(raw.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    expect(reviewsOf(refused).length).toBeGreaterThan(0);
  });

  it('the server printed no token', () => {
    for (const t of [approved, refused]) expect(s.server!.output()).not.toContain(t);
  });
});

describe('a TokenReview webhook with --authentication-token-webhook-version=v1 and cache TTL 0s', () => {
  const { whoamiRaw } = serverWithWebhook(['--authentication-token-webhook-version=v1', '--authentication-token-webhook-cache-ttl=0s']);

  it('sends v1 TokenReviews and asks the webhook every time (0s: no cache)', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await whoamiRaw(approved);
      expect(r.status).toBe(201);
      expect(r.json.status.userInfo.username).toBe('wendy');
    }
    expect(reviewsOf(approved)).toHaveLength(2);
    for (const r of reviewsOf(approved)) expect(r).toMatchObject({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview' });
  });

  it('a refused token is 401', async () => {
    const raw = await whoamiRaw(refused);
    expect(raw.status).toBe(401);
    expect(raw.json).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
  });
});
