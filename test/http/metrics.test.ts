// /metrics through app.request(): Prometheus text format read by a parser;
// the counts move as requests are made (requests by verb and code, the
// store's calls, admission, authentication, watches, stored objects); only
// a user the system:monitoring role is bound to may read it (403 for
// others, anonymous included; 401 with anonymous access off).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { parseMetrics, sampleValue, type PromFamily } from '../support/metrics-text.ts';

let dir: string;
let s: RunningServer;
let tokens: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'metrics-'));
  tokens = join(dir, 'tokens.csv');
  writeFileSync(tokens, ['tok-admin,admin,uid-admin,"system:masters"', 'tok-prom,prometheus,uid-prom,"system:monitoring"', 'tok-alice,alice,uid-alice,""'].join('\n') + '\n');
  s = await startServer({ tokenAuthFile: tokens, log: () => {} });
});
afterAll(async () => {
  await s?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const as = (token: string | undefined, extra: Record<string, string> = {}) => ({ headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra } });
const admin = (method: string, path: string, body?: unknown, contentType = 'application/json') =>
  s.app.request(path, {
    method,
    headers: { authorization: 'Bearer tok-admin', 'content-type': contentType },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

async function scrape(): Promise<Map<string, PromFamily>> {
  const res = await s.app.request('/metrics', as('tok-prom'));
  expect(res.status).toBe(200);
  return parseMetrics(await res.text());
}

const CM = '/api/v1/namespaces/default/configmaps';
const apiserver = { component: 'apiserver', group: '', version: 'v1', resource: 'configmaps', subresource: '', dry_run: '' };

describe('/metrics', () => {
  it('answers in the Prometheus text format with upstream names and Node process metrics', async () => {
    const res = await s.app.request('/metrics', as('tok-prom'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const fams = parseMetrics(await res.text());
    expect(fams.get('apiserver_request_total')?.help).toMatch(/^\[STABLE\] /);
    expect(fams.has('process_cpu_seconds_total')).toBe(true);
    expect(fams.has('nodejs_eventloop_lag_seconds')).toBe(true);
    expect(fams.get('apiserver_current_inflight_requests')?.type).toBe('GAUGE');
    // hidden unless --show-hidden-metrics-for-version
    expect(fams.has('apiserver_storage_db_total_size_in_bytes')).toBe(false);
  });

  it('counts requests by verb, scope and code, and the store calls and admission they make', async () => {
    const before = await scrape();
    const count = (fams: Map<string, PromFamily>, name: string, labels: Record<string, string>) => sampleValue(fams, name, labels);
    expect((await admin('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'm1' }, data: { a: '1' } })).status).toBe(201);
    expect((await admin('GET', `${CM}/m1`)).status).toBe(200);
    expect((await admin('GET', `${CM}/missing`)).status).toBe(404);
    expect((await admin('GET', CM)).status).toBe(200);
    expect((await admin('PATCH', `${CM}/m1?fieldManager=t`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m1\ndata:\n  b: "2"\n', 'application/apply-patch+yaml')).status).toBe(200);
    expect((await admin('DELETE', `${CM}/m1?dryRun=All`)).status).toBe(200);
    expect((await s.app.request('/readyz', as('tok-admin'))).status).toBe(200);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => count(after, name, labels) - count(before, name, labels);
    expect(moved('apiserver_request_total', { ...apiserver, verb: 'POST', scope: 'namespace', code: '201' })).toBe(1);
    expect(moved('apiserver_request_total', { ...apiserver, verb: 'GET', scope: 'resource', code: '200' })).toBe(1);
    expect(moved('apiserver_request_total', { ...apiserver, verb: 'GET', scope: 'resource', code: '404' })).toBe(1);
    expect(moved('apiserver_request_total', { ...apiserver, verb: 'LIST', scope: 'namespace', code: '200' })).toBe(1);
    expect(moved('apiserver_request_total', { ...apiserver, verb: 'APPLY', scope: 'resource', code: '200' })).toBe(1);
    expect(moved('apiserver_request_total', { ...apiserver, verb: 'DELETE', scope: 'resource', code: '200', dry_run: 'All' })).toBe(1);
    expect(moved('apiserver_request_total', { verb: 'GET', group: '', version: '', resource: '', subresource: '/readyz', scope: '', component: '', code: '200' })).toBe(1);
    // the scrapes themselves are not counted
    expect(after.get('apiserver_request_total')!.metrics.some((m) => m.labels?.subresource === '/metrics')).toBe(false);
    expect(moved('apiserver_request_duration_seconds_count', { ...apiserver, verb: 'LIST', scope: 'namespace' })).toBe(1);
    expect(moved('apiserver_response_sizes_count', { ...apiserver, verb: 'LIST', scope: 'namespace' })).toBe(1);
    // (the in-process controllers write too: at least our own calls)
    expect(moved('etcd_request_duration_seconds_count', { operation: 'create', type: 'configmaps' })).toBeGreaterThanOrEqual(1);
    expect(moved('apiserver_admission_step_admission_duration_seconds_count', { type: 'validate', operation: 'CREATE', rejected: 'false' })).toBeGreaterThanOrEqual(1);
    expect(moved('apiserver_admission_controller_admission_duration_seconds_count', { name: 'NamespaceLifecycle', type: 'admit', operation: 'CREATE', rejected: 'false' })).toBeGreaterThanOrEqual(1);
    expect(moved('authentication_attempts', { result: 'success' })).toBe(8);
    expect(count(after, 'apiserver_storage_objects', { resource: 'configmaps' })).toBeGreaterThanOrEqual(1);
    expect(count(after, 'apiserver_storage_objects', { resource: 'clusterroles.rbac.authorization.k8s.io' })).toBeGreaterThan(10);
  });

  it('counts a refused admission and a failed authentication', async () => {
    const before = await scrape();
    const res = await admin('POST', '/api/v1/namespaces/nowhere/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    expect(res.status).toBe(404);
    expect((await s.app.request(CM, as('tok-wrong'))).status).toBe(401);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => sampleValue(after, name, labels) - sampleValue(before, name, labels);
    expect(moved('apiserver_admission_controller_admission_duration_seconds_count', { name: 'NamespaceLifecycle', type: 'admit', operation: 'CREATE', rejected: 'true' })).toBe(1);
    expect(moved('apiserver_request_total', { ...apiserver, verb: 'POST', scope: 'namespace', code: '404' })).toBe(1);
    expect(moved('authentication_attempts', { result: 'failure' })).toBe(1);
  });

  it('counts an open watch, its events and its end', async () => {
    expect((await admin('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w1' } })).status).toBe(201);
    const watch = await s.app.request(`${CM}?watch=true&fieldSelector=metadata.name%3Dw1`, as('tok-admin'));
    expect(watch.status).toBe(200);
    const reader = watch.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"ADDED"');
    let fams = await scrape();
    expect(sampleValue(fams, 'apiserver_registered_watchers', { group: '', version: 'v1', kind: 'ConfigMap' })).toBe(1);
    expect(sampleValue(fams, 'apiserver_watch_events_total', { group: '', version: 'v1', kind: 'ConfigMap' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(fams, 'apiserver_longrunning_requests', { ...apiserver, verb: 'WATCH', scope: 'namespace' })).toBe(1);
    await reader.cancel();
    fams = await scrape();
    expect(sampleValue(fams, 'apiserver_registered_watchers', { kind: 'ConfigMap' })).toBe(0);
    expect(sampleValue(fams, 'apiserver_longrunning_requests', { ...apiserver, verb: 'WATCH', scope: 'namespace' })).toBe(0);
  });

  it('needs get on /metrics: 403 for a user without the role and for anonymous requests', async () => {
    for (const token of ['tok-alice', undefined]) {
      const res = await s.app.request('/metrics', as(token));
      expect(res.status).toBe(403);
      const status = await res.json();
      expect(status).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
      expect(status.message).toBe(`forbidden: User "${token ? 'alice' : 'system:anonymous'}" cannot get path "/metrics"`);
    }
    // the admin (system:masters) may
    expect((await s.app.request('/metrics', as('tok-admin'))).status).toBe(200);
  });

  it('is 401 without credentials when anonymous access is off', async () => {
    const off = await startServer({ tokenAuthFile: tokens, anonymousAuth: false, log: () => {} });
    try {
      const res = await off.app.request('/metrics');
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
      expect((await off.app.request('/metrics', as('tok-prom'))).status).toBe(200);
    } finally {
      await off.stop();
    }
  });

  it('keeps the counts of two servers in one process apart', async () => {
    const other = await startServer({ tokenAuthFile: tokens, log: () => {} });
    try {
      const res = await other.app.request('/metrics', as('tok-prom'));
      const fams = parseMetrics(await res.text());
      expect(sampleValue(fams, 'apiserver_request_total', { ...apiserver, verb: 'POST', scope: 'namespace', code: '201' })).toBe(0);
    } finally {
      await other.stop();
    }
  });
});
