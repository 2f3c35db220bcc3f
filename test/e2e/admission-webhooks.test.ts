// End-to-end: admission webhooks served by this test over HTTPS with its
// own CA, registered with the real kubectl against a real server process:
// a mutating webhook's label shows in `kubectl get --show-labels`, a
// validating webhook's denial and a webhook's warning are printed by
// kubectl. A configuration takes effect once the server's watch sees it:
// the test polls with dry-run creates (`eventually`, a bound for a hung
// test, not a timing assumption).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/app-call.ts';
import { kubectlSession, ok, type KubectlSession } from '../support/kubectl.ts';
import { startTlsWebhook, type TlsWebhook } from '../support/tls-webhook.ts';

type Json = Record<string, any>;

let hook: TlsWebhook | undefined;

function answer(path: string, req: Json): Json {
  const response: Json = { uid: req.uid, allowed: true };
  const labels = req.object?.metadata?.labels;
  if (path === '/mutate') {
    const patch = labels ? [{ op: 'add', path: '/metadata/labels/mutated-by', value: 'webhook' }] : [{ op: 'add', path: '/metadata/labels', value: { 'mutated-by': 'webhook' } }];
    response.patchType = 'JSONPatch';
    response.patch = Buffer.from(JSON.stringify(patch)).toString('base64');
  } else if (path === '/validate') {
    if (labels?.forbidden === 'true') {
      response.allowed = false;
      response.status = { code: 403, message: 'objects labelled forbidden=true are not allowed here' };
    } else if (labels?.risky === 'true') {
      response.warnings = ['risky objects are watched closely'];
    }
  }
  return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response };
}

const configs = (url: string, caBundle: string) => `apiVersion: admissionregistration.k8s.io/v1
kind: MutatingWebhookConfiguration
metadata:
  name: e2e-mutate
webhooks:
  - name: mutate.e2e.example.com
    clientConfig: {url: "${url}/mutate", caBundle: ${caBundle}}
    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
    objectSelector: {matchLabels: {e2e: hooked}}
    sideEffects: None
    admissionReviewVersions: [v1]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: e2e-validate
webhooks:
  - name: validate.e2e.example.com
    clientConfig: {url: "${url}/validate", caBundle: ${caBundle}}
    rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
    objectSelector: {matchLabels: {e2e: hooked}}
    sideEffects: None
    admissionReviewVersions: [v1, v1beta1]
`;

const cm = (name: string, labels: Record<string, string>) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  labels:\n${Object.entries(labels)
    .map(([k, v]) => `    ${k}: "${v}"`)
    .join('\n')}\ndata: {a: "1"}\n`;

describe('admission webhooks through kubectl', () => {
  let session: KubectlSession;
  beforeAll(async () => {
    const started = await startTlsWebhook(
      (req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(answer((req.url ?? '').split('?')[0], (JSON.parse(body) as Json).request)));
        });
      },
      { caName: 'admission-webhook-ca' },
    );
    hook = started;
    session = await kubectlSession();
    ok(await session.k(['apply', '-f', '-'], { input: configs(started.url(), started.caBundle) }));
    await eventually(async () => {
      const r = await session.k(['create', '--dry-run=server', '-o', 'jsonpath={.metadata.labels.mutated-by}', '-f', '-'], { input: cm('probe', { e2e: 'hooked' }) });
      return r.code === 0 && r.stdout === 'webhook' ? true : undefined;
    }, 'the webhook configurations in effect');
  }, 120_000);
  afterAll(async () => {
    await session?.stop();
    await hook?.close();
  });

  it('a mutating webhook adds a label that kubectl get --show-labels shows', async () => {
    const { k } = session;
    ok(await k(['apply', '-f', '-'], { input: cm('labelled', { e2e: 'hooked' }) }));
    expect(ok(await k(['get', 'configmap', 'labelled', '--show-labels']))).toMatch(/^labelled\s+1\s+\S+\s+e2e=hooked,mutated-by=webhook$/m);
  });

  it("kubectl prints a validating webhook's denial", async () => {
    const r = await session.k(['apply', '-f', '-'], { input: cm('refused', { e2e: 'hooked', forbidden: 'true' }) });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('admission webhook "validate.e2e.example.com" denied the request: objects labelled forbidden=true are not allowed here');
  });

  it("kubectl prints a webhook's warning", async () => {
    const r = await session.k(['create', '-f', '-'], { input: cm('risky', { e2e: 'hooked', risky: 'true' }) });
    expect(ok(r)).toContain('configmap/risky created');
    expect(r.stderr).toContain('Warning: risky objects are watched closely');
  });
});
