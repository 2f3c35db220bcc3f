// The webhook authorizer against a loopback HTTP server started here: the
// SubjectAccessReview it sends (v1, v1beta1), how answers map to decisions,
// the cache with its two TTLs (fake clock), retries, failures and the
// failure policy, and matchConditions.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserInfo } from '../../auth/user.ts';
import { type Attributes, pathAttributes, resourceAttributes } from '../attributes.ts';
import { WebhookAuthorizer, type WebhookAuthorizerOptions } from './authorizer.ts';
import { compileMatchConditions, loadMatchConditionCompiler } from './match.ts';

type Reply = { status: number; body: string; headers?: Record<string, string> };
let replies: Reply[] = [];
let defaultReply: Reply;
let seen: Record<string, unknown>[] = [];
let server: http.Server;
let base: string;

const sar = (status: Record<string, unknown>): Reply => ({ status: 200, body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', status }) });

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const r = replies.shift() ?? defaultReply;
      res.writeHead(r.status, { 'Content-Type': 'application/json', ...r.headers });
      res.end(r.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
beforeEach(() => {
  replies = [];
  seen = [];
  defaultReply = sar({ allowed: true });
});

const open: WebhookAuthorizer[] = [];
afterAll(() => open.forEach((w) => w.close()));

function clock() {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

function make(o: Partial<WebhookAuthorizerOptions> = {}): WebhookAuthorizer {
  const w = new WebhookAuthorizer({
    client: { server: new URL(`${base}/authorize`), insecureSkipTLSVerify: false },
    version: 'v1',
    now: clock().now,
    sleep: async () => {},
    ...o,
  });
  open.push(w);
  return w;
}

const jane: UserInfo = { name: 'jane', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['a', 'b'] } };
const getPod = (u: UserInfo = jane, ns = 'default'): Attributes => resourceAttributes(u, 'get', { namespace: ns, apiGroup: '', apiVersion: 'v1', resource: 'pods', subresource: 'log', name: 'p' });

describe('the review sent', () => {
  it('v1: resource attributes, user, groups, extra, uid', async () => {
    await make().authorize(getPod());
    expect(seen[0]).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      metadata: { creationTimestamp: null },
      spec: {
        resourceAttributes: { namespace: 'default', verb: 'get', version: 'v1', resource: 'pods', subresource: 'log', name: 'p' },
        user: 'jane',
        groups: ['dev', 'system:authenticated'],
        extra: { scopes: ['a', 'b'] },
        uid: 'u-1',
      },
      status: { allowed: false },
    });
  });
  it('v1beta1 names the groups "group"; non-resource requests send path and verb', async () => {
    await make({ version: 'v1beta1' }).authorize(pathAttributes({ name: 'bob', groups: ['g'] }, 'get', '/healthz'));
    expect(seen[0]).toEqual({
      apiVersion: 'authorization.k8s.io/v1beta1',
      kind: 'SubjectAccessReview',
      metadata: { creationTimestamp: null },
      spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'bob', group: ['g'] },
      status: { allowed: false },
    });
  });
});

describe('answers', () => {
  const rows: [string, Record<string, unknown>, { decision: string; reason: string; error?: string }][] = [
    ['allowed', { allowed: true, reason: 'ok' }, { decision: 'allow', reason: 'ok' }],
    ['denied', { allowed: false, denied: true, reason: 'no way' }, { decision: 'deny', reason: 'no way' }],
    ['neither', { allowed: false, reason: 'dunno' }, { decision: 'noopinion', reason: 'dunno' }],
    ['both', { allowed: true, denied: true, reason: 'x' }, { decision: 'deny', reason: 'x', error: 'webhook subject access review returned both allow and deny response' }],
    ['evaluationError only logged', { allowed: true, evaluationError: 'partial' }, { decision: 'allow', reason: '' }],
  ];
  it.each(rows)('%s', async (_n, status, want) => {
    replies = [sar(status)];
    const r = await make().authorize(getPod());
    expect(r).toEqual(want.error ? want : { decision: want.decision, reason: want.reason });
  });

  const failures: [string, Reply, RegExp][] = [
    ['HTTP 403', { status: 403, body: '{}' }, /the webhook answered HTTP 403/],
    ['not JSON', { status: 200, body: 'nope' }, /not JSON/],
    ['wrong kind', { status: 200, body: '{"kind":"TokenReview"}' }, /not a SubjectAccessReview/],
    ['allowed not a bool', { status: 200, body: '{"status":{"allowed":"yes"}}' }, /status.allowed must be a boolean/],
  ];
  it.each(failures)('a failure (%s) is the failure policy with an error, not cached', async (_n, reply, msg) => {
    const logs: string[] = [];
    const w = make({ log: (m) => logs.push(m) });
    replies = [reply];
    const r = await w.authorize(getPod());
    expect(r.decision).toBe('noopinion');
    expect(r.error).toMatch(msg);
    expect(logs.join('\n')).toMatch(/Failed to make webhook authorizer request/);
    expect((await w.authorize(getPod())).decision).toBe('allow');
    const deny = make({ decisionOnError: 'deny' });
    replies = [reply];
    expect(await deny.authorize(getPod())).toMatchObject({ decision: 'deny', reason: '' });
  });
  it('retries transient answers with upstream backoff (5 steps)', async () => {
    const waits: number[] = [];
    replies = [
      { status: 500, body: '{}' },
      { status: 429, body: '{}' },
      { status: 503, body: '{}', headers: { 'Retry-After': '1' } },
    ];
    const r = await make({ sleep: async (ms) => void waits.push(ms) }).authorize(getPod());
    expect(r.decision).toBe('allow');
    expect(seen).toHaveLength(4);
    expect(waits).toHaveLength(3);
    expect(waits[0]).toBeGreaterThanOrEqual(500);
    expect(waits[0]).toBeLessThanOrEqual(600);
  });
  it('a webhook that cannot be reached is an error', async () => {
    const w = make({ client: { server: new URL('http://127.0.0.1:1/x'), insecureSkipTLSVerify: false } });
    const r = await w.authorize(getPod());
    expect(r.decision).toBe('noopinion');
    expect(r.error).toMatch(/calling the webhook/);
  });
});

describe('the cache', () => {
  it('keeps allowed answers for the authorized TTL and others for the unauthorized TTL', async () => {
    const c = clock();
    const w = make({ now: c.now, authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000 });
    defaultReply = sar({ allowed: true });
    await w.authorize(getPod());
    await w.authorize(getPod());
    expect(seen).toHaveLength(1);
    c.advance(299_999);
    await w.authorize(getPod());
    expect(seen).toHaveLength(1);
    c.advance(1);
    await w.authorize(getPod());
    expect(seen).toHaveLength(2);

    defaultReply = sar({ allowed: false, reason: 'no' });
    const other = getPod(jane, 'other');
    expect((await w.authorize(other)).reason).toBe('no');
    c.advance(29_999);
    await w.authorize(other);
    expect(seen).toHaveLength(3);
    c.advance(1);
    await w.authorize(other);
    expect(seen).toHaveLength(4);
  });
  it('the key is the whole spec: another user or group is asked again', async () => {
    const w = make();
    await w.authorize(getPod());
    await w.authorize(getPod({ ...jane, groups: ['dev'] }));
    await w.authorize(getPod({ ...jane, name: 'joe' }));
    expect(seen).toHaveLength(3);
  });
  it('requests with 10,000 bytes of attributes or more are not cached', async () => {
    const w = make();
    const big = resourceAttributes(jane, 'get', { namespace: 'default', resource: 'pods', name: 'x'.repeat(10_000) });
    await w.authorize(big);
    await w.authorize(big);
    expect(seen).toHaveLength(2);
  });
  it('TTL 0 disables caching', async () => {
    const w = make({ authorizedTtlMs: 0 });
    await w.authorize(getPod());
    await w.authorize(getPod());
    expect(seen).toHaveLength(2);
  });
});

describe('matchConditions', () => {
  beforeAll(() => loadMatchConditionCompiler());

  const matcher = (exprs: string[]) => {
    const r = compileMatchConditions(exprs, 'authorizers[0].webhook.matchConditions');
    expect(r.errors.map(String)).toEqual([]);
    return r.matcher!;
  };
  it('all true: the webhook is asked; any false: no opinion without asking', async () => {
    const w = make({ matcher: matcher(["has(request.resourceAttributes) && request.resourceAttributes.namespace == 'default'", "'dev' in request.groups"]) });
    expect((await w.authorize(getPod())).decision).toBe('allow');
    expect(seen).toHaveLength(1);
    expect(await w.authorize(getPod(jane, 'kube-system'))).toEqual({ decision: 'noopinion', reason: '' });
    expect(await w.authorize(pathAttributes(jane, 'get', '/healthz'))).toEqual({ decision: 'noopinion', reason: '' });
    expect(seen).toHaveLength(1);
  });
  it('an evaluation error is the failure policy', async () => {
    const m = matcher(["request.resourceAttributes.namespace == 'default'"]);
    const noop = await make({ matcher: m }).authorize(pathAttributes(jane, 'get', '/healthz'));
    expect(noop.decision).toBe('noopinion');
    expect(noop.error).toMatch(/matchConditions: cel evaluation error: expression 'request.resourceAttributes.namespace == 'default'' resulted in error/);
    expect((await make({ matcher: m, decisionOnError: 'deny' }).authorize(pathAttributes(jane, 'get', '/healthz'))).decision).toBe('deny');
    expect(seen).toHaveLength(0);
  });
  it('a false condition wins over an error in another', async () => {
    const m = matcher(["request.resourceAttributes.namespace == 'default'", "request.user == 'nobody'"]);
    expect(await make({ matcher: m, decisionOnError: 'deny' }).authorize(pathAttributes(jane, 'get', '/healthz'))).toEqual({ decision: 'noopinion', reason: '' });
  });
  it('validation: count, empty, duplicate, compile errors and non-bool results', () => {
    const f = 'authorizers[0].webhook.matchConditions';
    const many = compileMatchConditions(
      Array.from({ length: 65 }, (_, i) => `request.user == 'u${i}'`),
      f,
    );
    expect(many.errors.map(String)).toEqual([`${f}: Too many: 65: must have at most 64 items`]);
    const bad = compileMatchConditions(
      ['  ', "request.user == 'a'", "request.user == 'a'", 'request.user ==', "'a' + 'b'", 'request.nope == 1', 'request.user', 'request.resourceAttributes.__namespace__ == ""'],
      f,
    );
    const texts = bad.errors.map(String);
    expect(texts[0]).toBe(`${f}[0].expression: Required value`);
    expect(texts[1]).toBe(`${f}[2].expression: Duplicate value: "request.user == 'a'"`);
    expect(texts[2]).toMatch(/^authorizers\[0\]\.webhook\.matchConditions\[3\]\.expression: Invalid value: "request\.user ==": compilation failed: ERROR: <input>:1:/);
    expect(texts[3]).toBe(`${f}[4].expression: Invalid value: "'a' + 'b'": compilation failed: cel expression must evaluate to a bool, got string`);
    expect(texts[4]).toBe(`${f}[5].expression: Invalid value: "request.nope == 1": compilation failed: ERROR: <input>:1:8: undefined field 'nope'`);
    expect(texts[5]).toBe(`${f}[6].expression: Invalid value: "request.user": compilation failed: cel expression must evaluate to a bool, got string`);
    // the fields of a native type are never escaped
    expect(texts[6]).toMatch(/\[7\]\.expression: Invalid value: .*undefined field '__namespace__'/);
    expect(bad.matcher).toBeUndefined();
  });
});
