// The server's log through app.request(): a request log line per request at
// -v=3 (upstream's httplog fields), none below; an internal error is logged
// with the request's audit ID.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { Logger } from '../../runtime/logging/logger.ts';

type Entry = Record<string, unknown>;

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

async function serverLogging(verbosity: number): Promise<{ s: RunningServer; entries: Entry[] }> {
  const entries: Entry[] = [];
  const logger = new Logger({ format: 'json', verbosity, write: (line) => entries.push(JSON.parse(line) as Entry) });
  const s = await startServer({
    authorizationMode: ['AlwaysAllow'],
    logger,
    log: () => {},
    admissionPlugins: [
      {
        name: 'Broken',
        validate: (attrs) => {
          if (attrs.name === 'broken') throw new Error('the plugin is broken');
        },
      },
    ],
  });
  servers.push(s);
  return { s, entries };
}

describe('request log', () => {
  let v3: { s: RunningServer; entries: Entry[] };
  let v2: { s: RunningServer; entries: Entry[] };
  beforeAll(async () => {
    v3 = await serverLogging(3);
    v2 = await serverLogging(2);
  });

  const CM = '/api/v1/namespaces/default/configmaps';

  it.each([
    ['GET', `${CM}?limit=1`, undefined, undefined, 'LIST', 200],
    ['GET', `${CM}/missing`, undefined, undefined, 'GET', 404],
    ['POST', CM, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'logged' } }), 'application/json', 'POST', 201],
    ['PATCH', `${CM}/logged?fieldManager=t`, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"logged"}}', 'application/apply-patch+yaml', 'APPLY', 200],
    ['GET', '/readyz', undefined, undefined, 'GET', 200],
  ])('%s %s is logged at -v=3 as %s with its code', async (method, path, body, contentType, verb, code) => {
    const auditID = `audit-${verb}-${code}`;
    const headers: Record<string, string> = { 'Audit-ID': auditID, 'User-Agent': 'log-test' };
    if (contentType) headers['content-type'] = contentType;
    const res = await v3.s.app.request(path, { method, headers, body });
    expect(res.status).toBe(code);
    const line = v3.entries.find((e) => e['audit-ID'] === auditID);
    expect(line).toMatchObject({ msg: 'HTTP', v: 3, verb, URI: path, userAgent: 'log-test', srcIP: '', resp: code });
    expect(line!.latency).toMatch(/^\d+(\.\d+)?(ns|µs|ms|s)$/);
    // not at -v=2
    await v2.s.app.request(path, { method: method === 'POST' ? 'GET' : method === 'PATCH' ? 'GET' : method, headers });
    expect(v2.entries.some((e) => e.msg === 'HTTP')).toBe(false);
  });

  it('logs an internal error with the audit ID of its request', async () => {
    const res = await v2.s.app.request(CM, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Audit-ID': 'audit-broken' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'broken' } }),
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'InternalError', code: 500 });
    const line = v2.entries.find((e) => e.auditID === 'audit-broken');
    expect(line).toMatchObject({ msg: 'Internal error occurred', err: 'the plugin is broken', method: 'POST', URI: CM });
  });
});
