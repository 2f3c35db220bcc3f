// Webhook client credentials from --admission-control-config-file: the
// ValidatingAdmissionWebhook and MutatingAdmissionWebhook entries name a
// kubeconfig (kubeConfigFile) whose users are matched to a webhook's
// host:port. Two TLS webhooks served by this test: one answers only a
// request with the right bearer token (401 otherwise), the other requires
// a client certificate signed by its own CA. A webhook at a host no user
// matches gets no credentials and fails its call (failurePolicy Fail).
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCA, issueCertificate } from '../../runtime/auth/pki/certs.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually, type Json } from '../support/app-call.ts';
import { startTlsWebhook, type TlsWebhook } from '../support/tls-webhook.ts';

let s: RunningServer;
const call = appCaller(() => s);
let tokenHook: TlsWebhook | undefined;
let certHook: TlsWebhook | undefined;
let caBundle = '';
/** What each webhook saw: the Authorization header, the client certificate's CN. */
const seen: { auth?: string; cn?: string }[] = [];

const readReview = (req: IncomingMessage): Promise<Json> =>
  new Promise((resolve) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => resolve(JSON.parse(body) as Json));
  });
const allow = (res: ServerResponse, review: Json) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } }));
};

beforeAll(async () => {
  const ca = await createCA('webhook-serving-ca');
  const clientCA = await createCA('webhook-client-ca');
  const client = await issueCertificate(clientCA, { commonName: 'kube-apiserver-admission', usage: 'client', validityDays: 1 });
  caBundle = Buffer.from(ca.certPEM).toString('base64');
  const hosts = ['127.0.0.1', 'localhost'];
  tokenHook = await startTlsWebhook(
    async (req, res) => {
      const review = await readReview(req);
      seen.push({ auth: req.headers.authorization });
      if (req.headers.authorization !== 'Bearer s3cret-token') {
        res.statusCode = 401;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 }));
        return;
      }
      allow(res, review);
    },
    { ca, hosts },
  );
  // the TLS handshake itself refuses a client without a certificate of clientCA
  certHook = await startTlsWebhook(
    async (req, res) => {
      const review = await readReview(req);
      seen.push({ cn: (req.socket as TLSSocket).getPeerCertificate().subject?.CN as string | undefined });
      allow(res, review);
    },
    { ca, hosts, tls: { ca: clientCA.certPEM, requestCert: true, rejectUnauthorized: true } },
  );
  const [tokenPort, certPort] = [tokenHook.port, certHook.port];

  const dir = mkdtempSync(join(tmpdir(), 'webhook-credentials-'));
  writeFileSync(join(dir, 'client.crt'), client.certPEM);
  writeFileSync(join(dir, 'token'), 's3cret-token\n');
  writeFileSync(
    join(dir, 'kubeconfig.yaml'),
    [
      'apiVersion: v1',
      'kind: Config',
      'users:',
      `- name: "127.0.0.1:${tokenPort}"`,
      '  user:',
      '    tokenFile: token',
      `- name: "localhost:${certPort}"`,
      '  user:',
      '    client-certificate: client.crt',
      `    client-key-data: ${Buffer.from(client.keyPEM).toString('base64')}`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'webhooks.yaml'), `apiVersion: apiserver.config.k8s.io/v1\nkind: WebhookAdmissionConfiguration\nkubeConfigFile: ${join(dir, 'kubeconfig.yaml')}\n`);
  writeFileSync(
    join(dir, 'admission.yaml'),
    [
      'apiVersion: apiserver.config.k8s.io/v1',
      'kind: AdmissionConfiguration',
      'plugins:',
      '- name: ValidatingAdmissionWebhook',
      '  path: webhooks.yaml',
      '- name: MutatingAdmissionWebhook',
      '  path: webhooks.yaml',
      '',
    ].join('\n'),
  );
  s = await startServer({ authorizationMode: ['AlwaysAllow'], admissionControlConfigFile: join(dir, 'admission.yaml') });
  urls = { token: `https://127.0.0.1:${tokenPort}/check`, cert: `https://localhost:${certPort}/check`, unmatched: `https://localhost:${tokenPort}/check` };
});
let urls: Record<'token' | 'cert' | 'unmatched', string>;
afterAll(async () => {
  await s?.stop();
  for (const h of [tokenHook, certHook]) await h?.close();
});

const configure = async (kind: 'validating' | 'mutating', c: string, url: string) => {
  const mutating = kind === 'mutating';
  const r = await call('POST', `/apis/admissionregistration.k8s.io/v1/${kind}webhookconfigurations`, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: mutating ? 'MutatingWebhookConfiguration' : 'ValidatingWebhookConfiguration',
    metadata: { name: c },
    webhooks: [
      {
        name: `${c}.example.com`,
        clientConfig: { url, caBundle },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        objectSelector: { matchLabels: { case: c } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        failurePolicy: 'Fail',
      },
    ],
  });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
};
const create = (name: string, c: string, dryRun = false) =>
  call('POST', `/api/v1/namespaces/default/configmaps${dryRun ? '?dryRun=All' : ''}`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { case: c } } });
/** Waits until the configuration of `c` is called (watch-driven): a dry-run create that reached the webhook. */
const inEffect = (c: string, seenBefore: number) => eventually(async () => ((await create(`probe-${c}`, c, true)) && seen.length > seenBefore ? true : undefined), `${c} in effect`);

describe('webhook client credentials (kubeConfigFile)', () => {
  it('a validating webhook gets the bearer token of the user named by its host:port', async () => {
    const before = seen.length;
    await configure('validating', 'token', urls.token);
    await inEffect('token', before);
    const r = await create('with-token', 'token');
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(seen.at(-1)).toEqual({ auth: 'Bearer s3cret-token' });
  });

  it('a mutating webhook presents the client certificate of its user', async () => {
    const before = seen.length;
    await configure('mutating', 'cert', urls.cert);
    await inEffect('cert', before);
    const r = await create('with-cert', 'cert');
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(seen.at(-1)).toEqual({ cn: 'kube-apiserver-admission' });
  });

  it('a host no user matches gets no credentials: the token webhook answers 401 and the call fails', async () => {
    const before = seen.length;
    await configure('validating', 'none', urls.unmatched);
    await inEffect('none', before);
    const r = await create('without', 'none');
    expect(r.status).toBe(500);
    expect(r.json.message).toBe('Internal error occurred: failed calling webhook "none.example.com": failed to call webhook: Unauthorized');
    expect(seen.at(-1)).toEqual({ auth: undefined });
  });
});
