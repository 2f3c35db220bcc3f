// The audit log of --audit-policy-file and --audit-log-path through a
// running server: a create at RequestResponse with both objects (managed
// fields left out where the rule says omitManagedFields), a secret read at
// Metadata with none, a watch's ResponseStarted then ResponseComplete, a
// failed authentication's one event with no user, a 403 and an allowed
// request with authorization's decision annotations, an admission plugin's
// audit annotation, an unexpected error's Panic event, and requests the
// policy leaves at None with no event. Events are read from the log file as
// the backend writes them (polled, never timed).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestAuthenticator } from '../../runtime/auth/authenticator.ts';
import type { AuditEvent } from '../../runtime/audit/event.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { eventually } from '../support/app-call.ts';

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/healthz*", "/version"]
- level: Metadata
  resources: [{group: "", resources: [secrets]}]
- level: RequestResponse
  namespaces: [lean]
  resources: [{group: "", resources: [configmaps]}]
  omitManagedFields: true
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
- level: Metadata
`;

const tokens: RequestAuthenticator = {
  authenticate: async (req) => {
    const auth = req.header('authorization') ?? '';
    if (auth === 'Bearer admin') return { user: { name: 'admin', groups: ['system:masters', 'system:authenticated'] } };
    if (auth === 'Bearer nobody') return { user: { name: 'nobody', groups: ['system:authenticated'] } };
    return undefined;
  },
};

let dir: string;
let logPath: string;
let s: RunningServer;

const events = (): AuditEvent[] => {
  let text: string;
  try {
    text = readFileSync(logPath, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditEvent);
};
/** The events of one audit ID once `stage` is among them. */
const eventsOf = (id: string, stage: string) =>
  eventually(async () => {
    const mine = events().filter((e) => e.auditID === id);
    return mine.some((e) => e.stage === stage) ? mine : undefined;
  }, `an audit event ${stage} of ${id}`);

async function call(method: string, path: string, id: string, who = 'admin', body?: unknown) {
  const headers: Record<string, string> = { 'audit-id': id };
  if (who) headers.authorization = `Bearer ${who}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await s.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'audit-log-'));
  logPath = join(dir, 'audit.log');
  writeFileSync(join(dir, 'policy.yaml'), POLICY);
  s = await startServer({
    authorizationMode: ['RBAC'],
    insecureServeHTTP: true,
    authenticators: [tokens],
    anonymousAuth: false,
    audit: { policyFile: join(dir, 'policy.yaml'), logPath },
    admissionPlugins: [
      {
        name: 'AuditTestAnnotations',
        validate(attrs) {
          if (attrs.resource !== 'configmaps') return;
          // where admission webhooks and policies put theirs (keyed <name>/<key>)
          attrs.auditAnnotations ??= {};
          attrs.auditAnnotations['test.example.com/seen'] = attrs.operation;
          if ((attrs.object as { metadata?: { name?: string } } | undefined)?.metadata?.name === 'explode') throw new Error('boom');
        },
      },
    ],
  });
  for (const ns of ['lean']) expect((await call('POST', '/api/v1/namespaces', `ns-${ns}`, 'admin', { metadata: { name: ns } })).status).toBe(201);
});
afterAll(async () => {
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the audit log of a policy', () => {
  it('a create at RequestResponse: RequestReceived then ResponseComplete, both objects, the decision and admission annotations', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b' } };
    const r = await call('POST', '/api/v1/namespaces/default/configmaps?fieldManager=me', 'create-1', 'admin', cm);
    expect(r.status).toBe(201);
    const evs = await eventsOf('create-1', 'ResponseComplete');
    expect(evs.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    const [received, done] = evs;
    expect(received).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: 'RequestResponse',
      verb: 'create',
      requestURI: '/api/v1/namespaces/default/configmaps?fieldManager=me',
      user: { username: 'admin', groups: ['system:masters', 'system:authenticated'] },
      objectRef: { resource: 'configmaps', namespace: 'default', apiVersion: 'v1' },
    });
    expect(received.stageTimestamp).toBe(received.requestReceivedTimestamp);
    expect(received.requestReceivedTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(received.responseStatus).toBeUndefined();
    expect(done.objectRef).toEqual({ resource: 'configmaps', namespace: 'default', name: 'cm1', apiVersion: 'v1' });
    expect(done.responseStatus).toEqual({ metadata: {}, code: 201 });
    expect(done.requestObject).toEqual(cm);
    expect(done.responseObject).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'cm1', uid: r.json.metadata && (r.json.metadata as { uid: string }).uid }, data: { a: 'b' } });
    expect((done.responseObject as { metadata: { managedFields?: unknown[] } }).metadata.managedFields).toHaveLength(1);
    expect(done.annotations).toEqual({
      'authorization.k8s.io/decision': 'allow',
      'authorization.k8s.io/reason': '',
      'test.example.com/seen': 'CREATE',
    });
    expect(done.stageTimestamp >= done.requestReceivedTimestamp).toBe(true);
  });

  it('a protobuf answer is recorded as its JSON form', async () => {
    const res = await s.app.request('/api/v1/namespaces/default/configmaps/cm1', { headers: { authorization: 'Bearer admin', accept: 'application/vnd.kubernetes.protobuf', 'audit-id': 'pb-1' } });
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    const done = (await eventsOf('pb-1', 'ResponseComplete')).find((e) => e.stage === 'ResponseComplete')!;
    expect(done.responseObject).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1' }, data: { a: 'b' } });
  });

  it('omitManagedFields of the matching rule drops managedFields from both objects', async () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm2', managedFields: [{ manager: 'x', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }] } };
    expect((await call('POST', '/api/v1/namespaces/lean/configmaps', 'lean-1', 'admin', cm)).status).toBe(201);
    const done = (await eventsOf('lean-1', 'ResponseComplete')).find((e) => e.stage === 'ResponseComplete')!;
    expect((done.requestObject as { metadata: object }).metadata).toEqual({ name: 'cm2' });
    expect((done.responseObject as { metadata: object }).metadata).not.toHaveProperty('managedFields');
  });

  it('a secret read at Metadata: no request or response object', async () => {
    await call('POST', '/api/v1/namespaces/default/secrets', 'secret-create', 'admin', { metadata: { name: 'token' }, stringData: { k: 'v' } });
    expect((await call('GET', '/api/v1/namespaces/default/secrets/token', 'secret-get')).status).toBe(200);
    const done = (await eventsOf('secret-get', 'ResponseComplete')).find((e) => e.stage === 'ResponseComplete')!;
    expect(done.level).toBe('Metadata');
    expect(done.objectRef).toEqual({ resource: 'secrets', namespace: 'default', name: 'token', apiVersion: 'v1' });
    expect(done).not.toHaveProperty('requestObject');
    expect(done).not.toHaveProperty('responseObject');
    expect(JSON.stringify(events().filter((e) => e.auditID.startsWith('secret-')))).not.toContain('"k"');
  });

  it('a denied request: 403 with the forbid decision and the reason', async () => {
    expect((await call('GET', '/api/v1/namespaces/default/configmaps', 'denied-1', 'nobody')).status).toBe(403);
    const done = (await eventsOf('denied-1', 'ResponseComplete')).find((e) => e.stage === 'ResponseComplete')!;
    expect(done.user).toEqual({ username: 'nobody', groups: ['system:authenticated'] });
    expect(done.annotations?.['authorization.k8s.io/decision']).toBe('forbid');
    expect(done.annotations).toHaveProperty('authorization.k8s.io/reason');
    expect(done.responseStatus).toMatchObject({ metadata: {}, status: 'Failure', reason: 'Forbidden', code: 403 });
    expect(done.responseStatus?.message).toContain('User "nobody" cannot list resource "configmaps"');
  });

  it('impersonation: the requestor is the user, the impersonated user beside it', async () => {
    const res = await s.app.request('/api/v1/namespaces/default/pods', { headers: { authorization: 'Bearer admin', 'impersonate-user': 'nobody', 'audit-id': 'imp-1' } });
    expect(res.status).toBe(403);
    const done = (await eventsOf('imp-1', 'ResponseComplete')).find((e) => e.stage === 'ResponseComplete')!;
    expect(done.user).toEqual({ username: 'admin', groups: ['system:masters', 'system:authenticated'] });
    expect(done.impersonatedUser).toMatchObject({ username: 'nobody' });
    expect(done.annotations?.['authorization.k8s.io/decision']).toBe('forbid');
  });

  it('a failed authentication: one event at ResponseStarted, no user', async () => {
    expect((await call('GET', '/api/v1/namespaces/default/pods', 'unauth-1', 'wrong')).status).toBe(401);
    const evs = await eventsOf('unauth-1', 'ResponseStarted');
    expect(evs).toHaveLength(1);
    expect(evs[0]).toMatchObject({ level: 'Metadata', stage: 'ResponseStarted', verb: 'list', user: {}, objectRef: { resource: 'pods', namespace: 'default', apiVersion: 'v1' } });
    expect(evs[0].responseStatus).toEqual({ metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });

  it('an unexpected error: a Panic event with a 500 status', async () => {
    const r = await call('POST', '/api/v1/namespaces/default/configmaps', 'panic-1', 'admin', { metadata: { name: 'explode' } });
    expect(r.status).toBe(500);
    const evs = await eventsOf('panic-1', 'Panic');
    expect(evs.map((e) => e.stage)).toEqual(['RequestReceived', 'Panic']);
    expect(evs[1].responseStatus).toMatchObject({ status: 'Failure', reason: 'InternalError', code: 500 });
    expect(evs[1].responseStatus?.message).toContain('boom');
  });

  it('a watch over a socket: ResponseStarted when the headers go out, ResponseComplete when it ends', async () => {
    const u = new URL(s.url);
    await new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: u.hostname,
          port: u.port,
          path: '/api/v1/namespaces/default/configmaps?watch=1',
          headers: { authorization: 'Bearer admin', 'audit-id': 'watch-1', 'user-agent': 'watcher/1.0', 'x-forwarded-for': '10.0.0.7, bogus' },
        },
        (res) => {
          expect(res.statusCode).toBe(200);
          eventsOf('watch-1', 'ResponseStarted').then(() => {
            res.destroy();
            resolve();
          }, reject);
        },
      );
      req.on('error', () => {});
      req.end();
    });
    const evs = await eventsOf('watch-1', 'ResponseComplete');
    expect(evs.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    expect(evs[1].responseStatus).toEqual({ metadata: {}, code: 200 });
    expect(evs[0].verb).toBe('watch');
    expect(evs[0].userAgent).toBe('watcher/1.0');
    expect(evs[0].sourceIPs).toEqual(['10.0.0.7', '127.0.0.1']);
  });

  it('None: no events for what the policy leaves out', async () => {
    await call('GET', '/version', 'quiet-1');
    await call('GET', '/api', 'loud-1');
    await eventsOf('loud-1', 'ResponseComplete');
    // the log is written in order: once a later request's event is there, an earlier one would be too
    expect(events().filter((e) => e.auditID === 'quiet-1')).toEqual([]);
  });
});
