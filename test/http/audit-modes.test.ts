// The audit backends' modes through running servers: a blocking log has the
// request's events written before its answer comes back (read at once, not
// polled); batch mode writes them later (polled); a log that cannot be
// written (/dev/full: every write fails, whoever runs the test) fails
// requests in blocking-strict with upstream's plain-text 500 and counts them
// in apiserver_audit_requests_rejected_total, while blocking serves them; a
// blocking webhook has received the events when the answer comes back, and a
// webhook that is down (a closed port: the connection is refused, which is
// not retried) fails requests in blocking-strict. --audit-log-truncate-*
// leaves the objects out of an event that is too large.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../runtime/audit/event.ts';
import type { AuditFlags } from '../../runtime/server/audit.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { eventually } from '../support/app-call.ts';
import { parseMetrics, sampleValue } from '../support/metrics-text.ts';

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [ResponseStarted]
rules:
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
  verbs: [create]
`;

let dir: string;
let policyFile: string;
let sink: Server;
let sinkPort = 0;
/** Audit IDs of the events the webhook sink received, with their stages. */
const received: string[] = [];
const servers: RunningServer[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'audit-modes-'));
  policyFile = join(dir, 'policy.yaml');
  writeFileSync(policyFile, POLICY);
  sink = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      for (const e of (JSON.parse(body) as { items: AuditEvent[] }).items) received.push(`${e.auditID} ${e.stage}`);
      res.end('{}');
    });
  });
  await new Promise<void>((r) => sink.listen(0, '127.0.0.1', r));
  sinkPort = (sink.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  sink.closeAllConnections();
  await new Promise((r) => sink.close(r));
  rmSync(dir, { recursive: true, force: true });
});

function kubeconfig(name: string, url: string): string {
  const file = join(dir, `${name}.kubeconfig`);
  writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters: [{name: sink, cluster: {server: "${url}"}}]
users: [{name: sink, user: {}}]
contexts: [{name: sink, context: {cluster: sink, user: sink}}]
current-context: sink
`,
  );
  return file;
}

async function serverWith(audit: Omit<AuditFlags, 'policyFile'>): Promise<RunningServer> {
  const s = await startServer({ authorizationMode: ['AlwaysAllow'], log: () => {}, audit: { policyFile, ...audit } });
  servers.push(s);
  return s;
}

const createCM = (s: RunningServer, name: string, data: Record<string, string> = {}) =>
  s.app.request('/api/v1/namespaces/default/configmaps', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'audit-id': `id-${name}` },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data }),
  });

const logEvents = (path: string): AuditEvent[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditEvent);

describe('--audit-log-mode', () => {
  it('blocking: the events are written before the answer', async () => {
    const logPath = join(dir, 'blocking.log');
    const s = await serverWith({ logPath, logMode: 'blocking' });
    expect((await createCM(s, 'b1')).status).toBe(201);
    expect(logEvents(logPath).map((e) => `${e.auditID} ${e.stage}`)).toEqual(['id-b1 RequestReceived', 'id-b1 ResponseComplete']);
  });

  it('batch: the events are written later', async () => {
    const logPath = join(dir, 'batch.log');
    const s = await serverWith({ logPath, logMode: 'batch', logBatchMaxSize: 10 });
    expect((await createCM(s, 'q1')).status).toBe(201);
    const events = await eventually(async () => {
      try {
        const evs = logEvents(logPath);
        return evs.length === 2 ? evs : undefined;
      } catch {
        return undefined;
      }
    }, 'the batched events');
    expect(events.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
  });

  it('blocking-strict: a log that cannot be written fails the request before it is served', async () => {
    const s = await serverWith({ logPath: '/dev/full', logMode: 'blocking-strict' });
    const res = await createCM(s, 'strict1');
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('audit-id')).toBe('id-strict1');
    expect(await res.text()).toBe('Internal Server Error: "/api/v1/namespaces/default/configmaps": failed to store audit event\n');
    // not created; requests the policy does not audit are served
    expect((await s.app.request('/api/v1/namespaces/default/configmaps/strict1')).status).toBe(404);
    const metrics = parseMetrics(await (await s.app.request('/metrics')).text());
    expect(sampleValue(metrics, 'apiserver_audit_requests_rejected_total')).toBe(1);
  });

  it('blocking: the same failure is reported, the request is served', async () => {
    const s = await serverWith({ logPath: '/dev/full', logMode: 'blocking' });
    expect((await createCM(s, 'lenient1')).status).toBe(201);
  });
});

describe('--audit-webhook-mode', () => {
  it('blocking: the webhook has the events when the answer comes back', async () => {
    const s = await serverWith({ webhookConfigFile: kubeconfig('up', `http://127.0.0.1:${sinkPort}/audit`), webhookMode: 'blocking' });
    expect((await createCM(s, 'w1')).status).toBe(201);
    expect(received.filter((r) => r.startsWith('id-w1 '))).toEqual(['id-w1 RequestReceived', 'id-w1 ResponseComplete']);
  });

  it('blocking-strict: a webhook that is down fails the request', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const s = await serverWith({ webhookConfigFile: kubeconfig('down', `http://127.0.0.1:${port}/audit`), webhookMode: 'blocking-strict' });
    const res = await createCM(s, 'w2');
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('Internal Server Error: "/api/v1/namespaces/default/configmaps": failed to store audit event\n');
  });
});

describe('--audit-log-truncate-enabled', () => {
  it('an event over the max event size loses its objects and is marked truncated', async () => {
    const logPath = join(dir, 'truncate.log');
    // blocking: the events are in the file when the answers are back
    const s = await serverWith({ logPath, logMode: 'blocking', logTruncateEnabled: true, logTruncateMaxEventSize: 4000 });
    expect((await createCM(s, 'small', { a: 'b' })).status).toBe(201);
    expect((await createCM(s, 'large', { a: 'x'.repeat(5000) })).status).toBe(201);
    const complete = (id: string) => logEvents(logPath).find((e) => e.auditID === id && e.stage === 'ResponseComplete')!;
    expect(complete('id-small').responseObject).toBeDefined();
    expect(complete('id-small').annotations?.['audit.k8s.io/truncated']).toBeUndefined();
    expect(complete('id-large').requestObject).toBeUndefined();
    expect(complete('id-large').responseObject).toBeUndefined();
    expect(complete('id-large').annotations?.['audit.k8s.io/truncated']).toBe('true');
  });
});
