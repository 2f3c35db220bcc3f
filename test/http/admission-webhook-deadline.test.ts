// A webhook's call is bounded by the request's deadline, as upstream bounds
// it by the request context: a webhook that never answers, with
// timeoutSeconds 30 and failurePolicy Ignore, on a create sent with
// ?timeout=2s. The client gets the request's 504 at its deadline; the call
// was made with ?timeout=2s (what was left, not the webhook's 30 s) and is
// ended by then (the webhook sees its connection close); the write is not
// stored after its client was answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually } from '../support/app-call.ts';
import { startTlsWebhook, type TlsWebhook } from '../support/tls-webhook.ts';

let s: RunningServer;
const call = appCaller(() => s);
let hook: TlsWebhook | undefined;
let url = '';
let caBundle = '';
/** The calls that reached the hung path: their URL, and whether their connection has closed. */
const hung: { url: string; closed: boolean }[] = [];
/** Dry-run calls answered (the probes that wait for the configuration). */
let probes = 0;

beforeAll(async () => {
  hook = await startTlsWebhook(
    (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const review = JSON.parse(body) as { request: { uid: string; dryRun: boolean } };
        if (review.request.dryRun) {
          // the probe that waits for the configuration: answered
          probes++;
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true } }));
          return;
        }
        const entry = { url: req.url ?? '', closed: false };
        hung.push(entry);
        res.on('close', () => (entry.closed = true));
        // never answers
      });
    },
    { caName: 'deadline-webhook-ca' },
  );
  caBundle = hook.caBundle;
  url = hook.url('/hang');
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
  await hook?.close();
});

describe('a webhook call ends at the request deadline', () => {
  it('a hung webhook with timeoutSeconds 30 on a request with ?timeout=2s', async () => {
    const r = await call('POST', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'hang' },
      webhooks: [
        {
          name: 'hang.example.com',
          clientConfig: { url, caBundle },
          rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
          objectSelector: { matchLabels: { case: 'hang' } },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
          failurePolicy: 'Ignore',
          timeoutSeconds: 30,
        },
      ],
    });
    expect(r.status).toBe(201);
    const cm = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { case: 'hang' } } });
    // in effect once a dry run reaches the webhook (answered for dry runs)
    await eventually(async () => {
      await call('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', cm('probe'));
      return probes > 0 ? true : undefined;
    }, 'configuration in effect');

    const res = await call('POST', '/api/v1/namespaces/default/configmaps?timeout=2s', cm('late'));
    expect(res.status).toBe(504);
    expect(res.json).toMatchObject({ reason: 'Timeout', message: 'Timeout: request did not complete within the allotted timeout', code: 504 });
    expect(hung).toHaveLength(1);
    // the call carried what was left of the request, not the webhook's 30 s
    expect(hung[0].url).toMatch(/^\/hang\?timeout=[12]s$/);
    await eventually(async () => (hung[0].closed ? true : undefined), 'the call ended');
    // Ignore would have let the write on: it is refused instead, its client having been answered
    expect((await call('GET', '/api/v1/namespaces/default/configmaps/late')).status).toBe(404);
  });
});
