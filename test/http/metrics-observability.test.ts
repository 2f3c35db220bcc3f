// The observability endpoints and metrics beyond the request metrics,
// through a running server (app.request()) read with a Prometheus text
// parser: /metrics/slis (the health checks' SLI metrics; get on
// /metrics/slis, which system:monitoring grants), the admission webhook
// metrics of a validating webhook served over HTTPS by this test (allowed,
// denied, down under failurePolicy Fail), and apiserver_current_inflight_requests
// as the last second's watermark (polled until a second has passed, never timed).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { eventually, type Json } from '../support/app-call.ts';
import { parseMetrics, sampleValue, type PromFamily } from '../support/metrics-text.ts';
import { startTlsWebhook, type TlsWebhook } from '../support/tls-webhook.ts';

let dir: string;
let s: RunningServer;
let hook: TlsWebhook | undefined;
let port = 0;
let caBundle = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'metrics-obs-'));
  const tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, ['tok-admin,admin,uid-admin,"system:masters"', 'tok-prom,prometheus,uid-prom,"system:monitoring"', 'tok-alice,alice,uid-alice,""'].join('\n') + '\n');
  hook = await startTlsWebhook(
    (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const r = (JSON.parse(body) as Json).request as Json;
        const denied = (req.url ?? '').startsWith('/deny');
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: r.uid, allowed: !denied, ...(denied ? { status: { code: 403, message: 'no' } } : {}) } }),
        );
      });
    },
    { caName: 'metrics-webhook-ca' },
  );
  caBundle = hook.caBundle;
  port = hook.port;
  s = await startServer({ tokenAuthFile: tokens, log: () => {} });
});
afterAll(async () => {
  await s?.stop();
  await hook?.close();
  rmSync(dir, { recursive: true, force: true });
});

const as = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const admin = (method: string, path: string, body?: unknown) =>
  s.app.request(path, { method, headers: { authorization: 'Bearer tok-admin', 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

async function scrape(path = '/metrics'): Promise<Map<string, PromFamily>> {
  const res = await s.app.request(path, as('tok-prom'));
  expect(res.status).toBe(200);
  return parseMetrics(await res.text());
}

describe('/metrics/slis', () => {
  it('counts each run of a livez and readyz check, the gauge its last result', async () => {
    const before = await scrape('/metrics/slis');
    expect((await s.app.request('/livez', as('tok-admin'))).status).toBe(200);
    expect((await s.app.request('/readyz', as('tok-admin'))).status).toBe(200);
    expect((await s.app.request('/readyz?exclude=ping', as('tok-admin'))).status).toBe(200);
    // a check's own path is not counted
    expect((await s.app.request('/readyz/ping', as('tok-admin'))).status).toBe(200);
    const res = await s.app.request('/metrics/slis', as('tok-prom'));
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const after = parseMetrics(await res.text());
    expect(after.get('kubernetes_healthcheck')?.help).toBe('[BETA] This metric records the result of a single healthcheck.');
    expect(after.get('kubernetes_healthchecks_total')?.help).toBe('[BETA] This metric records the results of all healthcheck.');
    const moved = (labels: Record<string, string>) => sampleValue(after, 'kubernetes_healthchecks_total', labels) - sampleValue(before, 'kubernetes_healthchecks_total', labels);
    expect(moved({ name: 'ping', type: 'livez', status: 'success' })).toBe(1);
    expect(moved({ name: 'ping', type: 'readyz', status: 'success' })).toBe(1);
    expect(moved({ name: 'etcd', type: 'readyz', status: 'success' })).toBe(2);
    expect(sampleValue(after, 'kubernetes_healthcheck', { name: 'etcd', type: 'readyz' })).toBe(1);
    // only the SLI metrics
    expect(after.has('apiserver_request_total')).toBe(false);
  });

  it('needs get on /metrics/slis: system:monitoring has it, others are refused', async () => {
    expect((await s.app.request('/metrics/slis', as('tok-alice'))).status).toBe(403);
    expect((await s.app.request('/metrics/slis')).status).toBe(403);
  });
});

describe('admission webhook metrics', () => {
  it('times each call and counts it by code and outcome, and counts rejections by error type', async () => {
    const cfg = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'metrics' },
      webhooks: [
        ['allow.metrics.example.com', `https://127.0.0.1:${port}/allow`],
        ['deny.metrics.example.com', `https://127.0.0.1:${port}/deny`],
        ['down.metrics.example.com', 'https://127.0.0.1:1/down'],
      ].map(([name, url]) => ({
        name,
        clientConfig: { url, caBundle },
        rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
        objectSelector: { matchLabels: { hook: name.split('.')[0] } },
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
        failurePolicy: 'Fail',
        timeoutSeconds: 5,
      })),
    };
    expect((await admin('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', cfg)).status).toBe(201);
    const cm = (name: string, hookLabel: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { hook: hookLabel } } });
    // the configuration takes effect through a watch: wait for the denial
    await eventually(async () => ((await admin('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', cm('probe', 'deny'))).status === 403 ? true : undefined), 'the webhook configuration');
    const before = await scrape();
    expect((await admin('POST', '/api/v1/namespaces/default/configmaps', cm('allowed', 'allow'))).status).toBe(201);
    expect((await admin('POST', '/api/v1/namespaces/default/configmaps', cm('denied', 'deny'))).status).toBe(403);
    expect((await admin('POST', '/api/v1/namespaces/default/configmaps', cm('failed', 'down'))).status).toBe(500);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
    const base = { type: 'validating', operation: 'CREATE' };
    expect(moved('apiserver_admission_webhook_request_total', { ...base, name: 'allow.metrics.example.com', code: '200', rejected: 'false' })).toBe(1);
    expect(moved('apiserver_admission_webhook_request_total', { ...base, name: 'deny.metrics.example.com', code: '403', rejected: 'true' })).toBe(1);
    expect(moved('apiserver_admission_webhook_request_total', { ...base, name: 'down.metrics.example.com', code: '503', rejected: 'true' })).toBe(1);
    expect(moved('apiserver_admission_webhook_admission_duration_seconds_count', { ...base, name: 'allow.metrics.example.com', rejected: 'false' })).toBe(1);
    expect(moved('apiserver_admission_webhook_rejection_count', { ...base, name: 'deny.metrics.example.com', error_type: 'no_error', rejection_code: '403' })).toBe(1);
    expect(moved('apiserver_admission_webhook_rejection_count', { ...base, name: 'down.metrics.example.com', error_type: 'calling_webhook_error', rejection_code: '503' })).toBe(1);
    expect(after.get('apiserver_admission_webhook_admission_duration_seconds')?.help).toMatch(/^\[STABLE\] Admission webhook latency histogram in seconds/);
    const buckets = after
      .get('apiserver_admission_webhook_admission_duration_seconds_bucket')!
      .metrics.filter((m) => m.labels?.name === 'allow.metrics.example.com')
      .map((m) => m.labels?.le);
    expect(buckets).toEqual(['0.005', '0.025', '0.1', '0.5', '1', '2.5', '10', '25', '+Inf']);
  });
});

describe('apiserver_current_inflight_requests', () => {
  it("shows the last second's highest count: the scrapes themselves are read-only requests in flight", async () => {
    // each scrape is in flight while it runs; once a second holding one has passed, the gauge shows it
    const seen = await eventually(async () => {
      const v = sampleValue(await scrape(), 'apiserver_current_inflight_requests', { request_kind: 'readOnly' });
      return v >= 1 ? v : undefined;
    }, 'a read-only request in the last second');
    expect(seen).toBeGreaterThanOrEqual(1);
  });
});
