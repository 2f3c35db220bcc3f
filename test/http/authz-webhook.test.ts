// Webhook authorization of an in-process server against a
// SubjectAccessReview webhook served by this test: the webhook's decisions
// are used (allow, deny with its reason, no opinion), answers are cached for
// the TTLs, a failing webhook is a 500 Status; with --authorization-config,
// matchConditions decide whether the webhook is asked and the failure policy
// what a failure means; the file is re-read when it changes (a changed
// webhook order and changed matchConditions take effect); ABAC grants from a
// policy file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { RequestAuthenticator } from '../../runtime/auth/authenticator.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';

/** The `x-user` header names a user (groups from `x-groups`; `system:anonymous` as anonymous requests are); without it, an admin in system:masters. */
const byHeader: RequestAuthenticator = {
  async authenticate(req) {
    const name = req.header('x-user');
    if (name === 'system:anonymous') return { user: { name, groups: ['system:unauthenticated'] } };
    const groups = (req.header('x-groups') ?? '').split(',').filter(Boolean);
    return { user: name ? { name, groups: [...groups, 'system:authenticated'] } : { name: 'test-admin', groups: ['system:masters'] } };
  },
};
const as = (user: string, groups = '') => ({ headers: { 'x-user': user, ...(groups ? { 'x-groups': groups } : {}) } });

interface Review {
  apiVersion: string;
  spec: Record<string, unknown> & { user?: string; resourceAttributes?: Record<string, string>; nonResourceAttributes?: Record<string, string> };
}

/** Two webhooks ("a" and "b"); each records what it is asked and answers by the user's name. */
const asked: { hook: string; review: Review }[] = [];
const hooks: http.Server[] = [];
const configs: Record<string, string> = {};
let dir: string;

function answer(hook: string, review: Review): Record<string, unknown> {
  const user = review.spec.user ?? '';
  if (user === 'broken') return { broken: true };
  if (user === `allowed-by-${hook}` || user === 'allowed') return { allowed: true, reason: `${hook} says yes` };
  if (user === `denied-by-${hook}` || user === 'denied') return { allowed: false, denied: true, reason: `${hook} says no` };
  return { allowed: false, reason: `${hook} has no opinion` };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'authz-webhook-'));
  for (const hook of ['a', 'b']) {
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const review = JSON.parse(body) as Review;
        asked.push({ hook, review });
        const status = answer(hook, review);
        if (status.broken) {
          res.writeHead(403, { 'content-type': 'application/json' });
          res.end('{}');
          return;
        }
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    hooks.push(server);
    configs[hook] = join(dir, `${hook}.kubeconfig`);
    writeFileSync(
      configs[hook],
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: `http://127.0.0.1:${(server.address() as AddressInfo).port}/authorize` } }],
        contexts: [{ name: 'c', context: { cluster: 'c' } }],
        'current-context': 'c',
      }),
    );
  }
});
afterAll(async () => {
  await Promise.all(hooks.map((h) => new Promise((r) => h.close(r))));
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  asked.length = 0;
});

const CM = '/api/v1/namespaces/default/configmaps';

describe('--authorization-mode=Webhook (v1beta1 by default, answers cached)', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['Webhook'], authorizationWebhook: { configFile: configs.a, authorizedTtlMs: 3_600_000, unauthorizedTtlMs: 3_600_000 }, authenticators: [byHeader] });
  });
  afterAll(() => s?.stop());

  it("the webhook's allow lets the request on, with a v1beta1 review of the request", async () => {
    const r = await s.app.request(CM, as('allowed', 'dev'));
    expect(r.status).toBe(200);
    expect(asked).toHaveLength(1);
    expect(asked[0].review).toMatchObject({
      apiVersion: 'authorization.k8s.io/v1beta1',
      kind: 'SubjectAccessReview',
      spec: { resourceAttributes: { namespace: 'default', verb: 'list', version: 'v1', resource: 'configmaps' }, user: 'allowed', group: ['dev', 'system:authenticated'] },
    });
  });
  it('an answer is cached: the same request again does not reach the webhook', async () => {
    await s.app.request(CM, as('cached'));
    await s.app.request(CM, as('cached'));
    expect((await s.app.request(CM, as('cached'))).status).toBe(403);
    expect(asked).toHaveLength(1);
  });
  it("a deny is a 403 with the webhook's reason; no opinion is a 403 too", async () => {
    const denied = await s.app.request(CM, as('denied'));
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: 'configmaps is forbidden: User "denied" cannot list resource "configmaps" in API group "" in the namespace "default": a says no',
    });
    const none = await s.app.request('/healthz/x', as('nobody'));
    expect(none.status).toBe(403);
    expect((await none.json()).message).toBe('forbidden: User "nobody" cannot get path "/healthz/x": a has no opinion');
    expect(asked.at(-1)!.review.spec.nonResourceAttributes).toEqual({ path: '/healthz/x', verb: 'get' });
  });
  it('a failing webhook is a 500 Status', async () => {
    const r = await s.app.request(CM, as('broken'));
    expect(r.status).toBe(500);
    expect(await r.json()).toMatchObject({ kind: 'Status', reason: 'InternalError', code: 500 });
  });
  it('system:masters never reach the webhook', async () => {
    expect((await s.app.request(CM)).status).toBe(200);
    expect(asked).toHaveLength(0);
  });
});

describe('--authorization-config: matchConditions, failurePolicy, reload on change', () => {
  let s: RunningServer;
  const file = () => join(dir, 'authz.yaml');
  const webhook = (hook: string, matchConditions: string[], failurePolicy = 'NoOpinion') => ({
    type: 'Webhook',
    name: `hook-${hook}`,
    webhook: {
      timeout: '5s',
      subjectAccessReviewVersion: 'v1',
      matchConditionSubjectAccessReviewVersion: 'v1',
      failurePolicy,
      connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: configs[hook] },
      matchConditions: matchConditions.map((expression) => ({ expression })),
      authorizedTTL: '1ms',
      unauthorizedTTL: '1ms',
    },
  });
  const write = (authorizers: unknown[]) => writeFileSync(file(), stringify({ apiVersion: 'apiserver.config.k8s.io/v1beta1', kind: 'AuthorizationConfiguration', authorizers }));
  const logs: string[] = [];
  /** Waits until the server logged that it reloaded (the file watch), without assuming how long that takes. */
  async function reloaded(count: number): Promise<void> {
    for (let i = 0; i < 400 && logs.filter((l) => l.startsWith('reloaded authorization config')).length < count; i++) await new Promise((r) => setTimeout(r, 50));
    expect(logs.filter((l) => l.startsWith('reloaded authorization config')).length).toBe(count);
  }

  beforeAll(async () => {
    write([
      webhook('a', ["has(request.resourceAttributes) && request.resourceAttributes.namespace == 'default'"], 'Deny'),
      webhook('b', ["request.user.startsWith('b-') || request.user == 'broken'"]),
      { type: 'AlwaysDeny', name: 'alwaysdeny' },
    ]);
    s = await startServer({ authorizationConfig: file(), authenticators: [byHeader], log: (m) => logs.push(m) });
  });
  afterAll(() => s?.stop());

  it('only webhooks whose conditions all hold are asked, in the file order', async () => {
    expect((await s.app.request(CM, as('allowed-by-a'))).status).toBe(200);
    expect(asked.map((x) => x.hook)).toEqual(['a']);
    expect(asked[0].review.apiVersion).toBe('authorization.k8s.io/v1');
    asked.length = 0;
    // not in "default": a is skipped; b matches "b-" users only
    const other = await s.app.request('/api/v1/namespaces/other/configmaps', as('b-user'));
    expect(other.status).toBe(403);
    expect((await other.json()).message).toBe(
      'configmaps is forbidden: User "b-user" cannot list resource "configmaps" in API group "" in the namespace "other": b has no opinion\nEverything is forbidden.',
    );
    expect(asked.map((x) => x.hook)).toEqual(['b']);
  });
  it('a condition that fails to evaluate applies the failure policy (Deny: 500 with the error)', async () => {
    // a non-resource request has no resourceAttributes: the condition of "a" cannot be evaluated without has()
    write([webhook('a', ["request.resourceAttributes.namespace == 'default'"], 'Deny'), { type: 'AlwaysDeny', name: 'alwaysdeny' }]);
    await reloaded(1);
    const r = await s.app.request('/healthz/x', as('x'));
    expect(r.status).toBe(500);
    expect(asked).toHaveLength(0);
  });
  it('a reload picks up a changed webhook order and changed matchConditions', async () => {
    write([webhook('b', ['true']), webhook('a', ['true']), { type: 'AlwaysDeny', name: 'alwaysdeny' }]);
    await reloaded(2);
    expect((await s.app.request(CM, as('allowed-by-a'))).status).toBe(200);
    expect(asked.map((x) => x.hook)).toEqual(['b', 'a']);
    asked.length = 0;
    expect((await s.app.request(CM, as('denied-by-b'))).status).toBe(403);
    expect(asked.map((x) => x.hook)).toEqual(['b']);
  });
  it('a bad file keeps the chain and the log says why', async () => {
    write([webhook('b', ['true'])]);
    for (let i = 0; i < 400 && !logs.some((l) => l.includes('missing required types: [AlwaysDeny]')); i++) await new Promise((r) => setTimeout(r, 50));
    expect(logs.find((l) => l.includes('missing required types'))).toBe('reloading authorization config: missing required types: [AlwaysDeny]; keeping the previous configuration');
    expect((await s.app.request(CM, as('allowed-by-a'))).status).toBe(200);
    expect(asked.map((x) => x.hook)).toEqual(['b', 'a']);
  });
});

describe('--authorization-mode=ABAC', () => {
  let s: RunningServer;
  beforeAll(async () => {
    const policy = join(dir, 'abac.jsonl');
    writeFileSync(
      policy,
      [
        '# who may do what',
        JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec: { user: 'alice', namespace: 'default', resource: 'configmaps', apiGroup: '', readonly: true } }),
        JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec: { user: '*', nonResourcePath: '/version', readonly: true } }),
      ].join('\n'),
    );
    s = await startServer({ authorizationMode: ['ABAC'], authorizationPolicyFile: policy, authenticators: [byHeader] });
  });
  afterAll(() => s?.stop());

  it('grants what the policies say, readonly included', async () => {
    expect((await s.app.request(CM, as('alice'))).status).toBe(200);
    const create = await s.app.request(CM, {
      method: 'POST',
      headers: { 'x-user': 'alice', 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }),
    });
    expect(create.status).toBe(403);
    expect((await create.json()).message).toBe('configmaps is forbidden: User "alice" cannot create resource "configmaps" in API group "" in the namespace "default": No policy matched.');
    expect((await s.app.request('/version', as('bob'))).status).toBe(200);
  });
  it('a grant to * does not reach anonymous', async () => {
    const r = await s.app.request('/version', as('system:anonymous'));
    expect(r.status).toBe(403);
    expect((await r.json()).message).toBe('forbidden: User "system:anonymous" cannot get path "/version": No policy matched.');
  });
});
