// The audit's metrics on /metrics, read with a Prometheus text parser:
// apiserver_audit_level_total counts each request's level once, None
// included (the scrape itself is a request the policy gives None);
// apiserver_audit_event_total counts each event handed to the backend (a
// Metadata request's RequestReceived and ResponseComplete);
// apiserver_audit_error_total counts, per plugin, the events a backend could
// not write: a log on /dev/full (every write fails, whoever runs the test)
// and a webhook on a closed port (refused, not retried), both blocking so
// the failures are counted when the answer is back.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditFlags } from '../../runtime/server/audit.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { parseMetrics, sampleValue } from '../support/metrics-text.ts';

const POLICY = `
apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: Metadata
  resources: [{group: "", resources: [configmaps]}]
- level: None
`;

let dir: string;
let policyFile: string;
const servers: RunningServer[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'audit-metrics-'));
  policyFile = join(dir, 'policy.yaml');
  writeFileSync(policyFile, POLICY);
});
afterAll(async () => {
  for (const s of servers) await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function serverWith(audit: Omit<AuditFlags, 'policyFile'>): Promise<RunningServer> {
  const s = await startServer({ authorizationMode: ['AlwaysAllow'], log: () => {}, audit: { policyFile, ...audit } });
  servers.push(s);
  return s;
}

const scrape = async (s: RunningServer) => parseMetrics(await (await s.app.request('/metrics')).text());
const getCM = (s: RunningServer) => s.app.request('/api/v1/namespaces/default/configmaps/absent');
const getNS = (s: RunningServer) => s.app.request('/api/v1/namespaces/default');

async function closedPort(): Promise<number> {
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
  return port;
}

describe('audit metrics', () => {
  it('count levels per request (None too) and events per stage sent', async () => {
    const s = await serverWith({ logPath: join(dir, 'ok.log'), logMode: 'blocking' });
    const before = await scrape(s);
    expect(before.get('apiserver_audit_event_total')?.help).toBe('[ALPHA] Counter of audit events generated and sent to the audit backend.');
    expect(before.get('apiserver_audit_level_total')?.help).toBe('[ALPHA] Counter of policy levels for audit events (1 per request).');
    expect((await getCM(s)).status).toBe(404);
    expect((await getNS(s)).status).toBe(200);
    const after = await scrape(s);
    const delta = (name: string, labels: Record<string, string> = {}) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(delta('apiserver_audit_level_total', { level: 'Metadata' })).toBe(1);
    // the namespace GET and the second scrape
    expect(delta('apiserver_audit_level_total', { level: 'None' })).toBe(2);
    expect(delta('apiserver_audit_event_total')).toBe(2);
    expect(sampleValue(after, 'apiserver_audit_error_total', { plugin: 'log' })).toBe(0);
  });

  it('count the events a log that cannot be written failed', async () => {
    const s = await serverWith({ logPath: '/dev/full', logMode: 'blocking' });
    expect((await getCM(s)).status).toBe(404);
    const m = await scrape(s);
    expect(m.get('apiserver_audit_error_total')?.help).toBe('[ALPHA] Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.');
    expect(sampleValue(m, 'apiserver_audit_error_total', { plugin: 'log' })).toBe(2);
    expect(sampleValue(m, 'apiserver_audit_event_total')).toBe(2);
  });

  it('count the events a webhook that is down failed', async () => {
    const port = await closedPort();
    const kubeconfig = join(dir, 'down.kubeconfig');
    writeFileSync(
      kubeconfig,
      `apiVersion: v1
kind: Config
clusters: [{name: sink, cluster: {server: "http://127.0.0.1:${port}/audit"}}]
users: [{name: sink, user: {}}]
contexts: [{name: sink, context: {cluster: sink, user: sink}}]
current-context: sink
`,
    );
    const s = await serverWith({ webhookConfigFile: kubeconfig, webhookMode: 'blocking' });
    expect((await getCM(s)).status).toBe(404);
    const m = await scrape(s);
    expect(sampleValue(m, 'apiserver_audit_error_total', { plugin: 'webhook' })).toBe(2);
    expect(sampleValue(m, 'apiserver_audit_error_total', { plugin: 'log' })).toBe(0);
  });
});
