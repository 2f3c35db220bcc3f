// End-to-end: webhook authorization of a real server process against a
// SubjectAccessReview webhook served by the test over TLS with its own CA.
// --authorization-mode=Webhook: the webhook's decisions are used (kubectl
// and raw requests) and cached for the authorized TTL. --authorization-config:
// matchConditions pick the requests the webhook sees, and a changed file is
// picked up while the server runs. A broken file at start is one clear error
// and exit 1.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { kubeconfigFor, kubeconfigServerURL, serverCA, tlsRequest } from '../support/auth-clients.ts';
import { kubectlFor } from '../support/kubectl.ts';
import { runCliToExit, startServerProcess, type ServerProcess } from '../support/server-process.ts';
import { startTlsWebhook, type TlsWebhook } from '../support/tls-webhook.ts';

const tokens = { wendy: `w-${randomBytes(12).toString('hex')}`, nina: `n-${randomBytes(12).toString('hex')}` };
interface Review {
  apiVersion: string;
  spec: { user?: string; resourceAttributes?: Record<string, string>; nonResourceAttributes?: Record<string, string> };
}
const reviews: Review[] = [];
let webhook: TlsWebhook | undefined;
let webhookConfig: string;
let tokenFile: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'authz-webhook-e2e-'));
  // wendy may read configmaps, everybody may read discovery and other paths; anything else gets no opinion
  const hook = await startTlsWebhook(
    (req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const review = JSON.parse(body) as Review;
        reviews.push(review);
        const ra = review.spec.resourceAttributes;
        const allowed = (review.spec.user === 'wendy' && ra?.resource === 'configmaps' && ['get', 'list', 'watch'].includes(ra.verb)) || review.spec.nonResourceAttributes?.verb === 'get';
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status: allowed ? { allowed: true } : { allowed: false, reason: 'wendy reads configmaps only' } }));
      });
    },
    { caName: 'authz-webhook-ca', commonName: 'authz-webhook' },
  );
  webhook = hook;
  webhookConfig = join(dir, 'webhook.kubeconfig');
  writeFileSync(
    webhookConfig,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'w', cluster: { server: hook.url('/authorize'), 'certificate-authority-data': hook.caBundle } }],
      contexts: [{ name: 'w', context: { cluster: 'w' } }],
      'current-context': 'w',
    }),
  );
  tokenFile = join(dir, 'tokens.csv');
  writeFileSync(tokenFile, `${tokens.wendy},wendy,uid-w\n${tokens.nina},nina,uid-n\n`);
});
afterAll(async () => {
  await webhook?.close();
});

function requester(server: () => ServerProcess) {
  return (token: string, path: string) => tlsRequest(`${kubeconfigServerURL(server())}${path}`, { ca: serverCA(server()).certPEM, headers: { authorization: `Bearer ${token}` } });
}

describe('--authorization-mode=Webhook', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    reviews.length = 0;
    server = await startServerProcess([
      '--token-auth-file',
      tokenFile,
      '--authorization-mode',
      'Webhook',
      '--authorization-webhook-config-file',
      webhookConfig,
      '--authorization-webhook-version',
      'v1',
    ]);
  });
  afterAll(() => server?.stop());
  const get = requester(() => server);

  it("uses the webhook's decisions (kubectl)", async () => {
    const home = mkdtempSync(join(tmpdir(), 'kubectl-home-'));
    const kubectl = kubectlFor(kubeconfigFor(server, { token: tokens.wendy }));
    const list = await kubectl(['get', 'configmaps', '-n', 'default', '-o', 'name'], { env: { HOME: home } });
    expect(list.code, list.stderr).toBe(0);
    const del = await kubectl(['delete', 'configmap', 'kube-root-ca.crt', '-n', 'default'], { env: { HOME: home } });
    expect(del.code).not.toBe(0);
    expect(del.stderr).toContain(
      'configmaps "kube-root-ca.crt" is forbidden: User "wendy" cannot delete resource "configmaps" in API group "" in the namespace "default": wendy reads configmaps only',
    );
    expect(reviews.some((r) => r.apiVersion === 'authorization.k8s.io/v1' && r.spec.user === 'wendy')).toBe(true);
  });
  it('caches the answer for the authorized TTL (5m by default)', async () => {
    const path = '/api/v1/namespaces/kube-system/configmaps';
    expect((await get(tokens.wendy, path)).status).toBe(200);
    const before = reviews.length;
    expect((await get(tokens.wendy, path)).status).toBe(200);
    expect(reviews.length).toBe(before);
  });
  it('no opinion is a 403', async () => {
    const r = await get(tokens.nina, '/api/v1/namespaces/default/configmaps');
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
  });
});

describe('--authorization-config with matchConditions, reloaded on change', () => {
  let server: ServerProcess;
  const file = () => join(dir, 'authz.yaml');
  // written next to it and renamed over it, as tools replace configuration files (the server never reads half a file)
  const write = (conditions: string[]) => {
    writeFileSync(
      `${file()}.tmp`,
      stringify({
        apiVersion: 'apiserver.config.k8s.io/v1beta1',
        kind: 'AuthorizationConfiguration',
        authorizers: [
          {
            type: 'Webhook',
            name: 'reader',
            webhook: {
              timeout: '5s',
              subjectAccessReviewVersion: 'v1',
              matchConditionSubjectAccessReviewVersion: 'v1',
              failurePolicy: 'Deny',
              connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: webhookConfig },
              matchConditions: conditions.map((expression) => ({ expression })),
              authorizedTTL: '1ms',
              unauthorizedTTL: '1ms',
            },
          },
          { type: 'AlwaysDeny', name: 'alwaysdeny' },
        ],
      }),
    );
    renameSync(`${file()}.tmp`, file());
  };
  beforeAll(async () => {
    write(["has(request.resourceAttributes) && request.resourceAttributes.namespace == 'default'"]);
    server = await startServerProcess(['--token-auth-file', tokenFile, '--authorization-config', file()]);
  });
  afterAll(() => server?.stop());
  const get = requester(() => server);

  it('asks the webhook only when the conditions hold; a changed file takes effect', async () => {
    reviews.length = 0;
    expect((await get(tokens.wendy, '/api/v1/namespaces/default/configmaps')).status).toBe(200);
    expect((await get(tokens.wendy, '/api/v1/namespaces/kube-system/configmaps')).status).toBe(403);
    expect(reviews.map((r) => r.spec.resourceAttributes?.namespace)).toEqual(['default']);
    write(["has(request.resourceAttributes) && request.resourceAttributes.namespace == 'kube-system'"]);
    // the server re-reads the file when it changes (and every minute); wait for its log line rather than a time
    for (let i = 0; i < 600 && !server.output().includes('reloaded authorization config'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(server.output()).toContain('reloaded authorization config: Webhook/reader,AlwaysDeny');
    expect((await get(tokens.wendy, '/api/v1/namespaces/kube-system/configmaps')).status).toBe(200);
    expect((await get(tokens.wendy, '/api/v1/namespaces/default/configmaps')).status).toBe(403);
  });
});

describe('a broken file at start', () => {
  it.each([
    [
      '--authorization-config',
      'bad.yaml',
      'apiVersion: apiserver.config.k8s.io/v1beta1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: Webhook\n  name: w\n',
      'Error: authorizers[0].webhook: Required value: required when type=Webhook',
    ],
    ['--authorization-policy-file', 'bad.jsonl', '{"user":"a"}\nnot json\n', 'line 2: not json: '],
  ])('%s: one clear error and exit 1', async (flag, name, text, want) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    const args = flag === '--authorization-config' ? [flag, path] : ['--authorization-mode', 'ABAC', flag, path];
    const r = await runCliToExit(['--secure-port', '0', '--data-dir', ':memory:', ...args]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(want);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
  it('--authorization-config with --authorization-mode is refused', async () => {
    const r = await runCliToExit(['--secure-port', '0', '--data-dir', ':memory:', '--authorization-config', join(dir, 'authz.yaml'), '--authorization-mode', 'AlwaysAllow']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: --authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined');
  });
  it('--authorization-config with an --authorization-webhook-* flag is refused', async () => {
    const r = await runCliToExit(['--secure-port', '0', '--data-dir', ':memory:', '--authorization-config', join(dir, 'authz.yaml'), '--authorization-webhook-cache-authorized-ttl', '1m']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: --authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined');
  });
});
