// The server's log through app.request(): a request log line per request at
// -v=3 (upstream's httplog fields), none below; an internal error is logged
// with the request's audit ID; a watch over a socket is logged when it ends,
// with the time it ran.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { Logger } from '../../runtime/logging/logger.ts';
import { eventually } from '../support/app-call.ts';

type Entry = Record<string, unknown>;

const servers: RunningServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
});

async function serverLogging(verbosity: number, insecureServeHTTP = false): Promise<{ s: RunningServer; entries: Entry[] }> {
  const entries: Entry[] = [];
  const logger = new Logger({ format: 'json', verbosity, write: (line) => entries.push(JSON.parse(line) as Entry) });
  const s = await startServer({
    authorizationMode: ['AlwaysAllow'],
    insecureServeHTTP,
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

describe('request log of a watch', () => {
  it('is written when the watch ends, with the whole time it ran', async () => {
    const { s, entries } = await serverLogging(3, true);
    const u = new URL(s.url);
    const line = () => entries.find((e) => e['audit-ID'] === 'watch-log-1');
    let sawStart = false;
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: u.hostname, port: u.port, path: '/api/v1/namespaces/default/configmaps?watch=1', headers: { 'audit-id': 'watch-log-1', 'user-agent': 'watcher/1.0' } }, (res) => {
        expect(res.statusCode).toBe(200);
        // the stream started: a configmap made now arrives as an event, and the watch has no line yet
        res.once('data', () => {
          sawStart = line() === undefined;
          res.destroy();
          resolve();
        });
        void s.app.request('/api/v1/namespaces/default/configmaps', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' } }),
        });
      });
      req.on('error', reject);
      req.end();
    });
    expect(sawStart).toBe(true);
    const ended = await eventually(async () => line(), 'the watch log line');
    expect(ended).toMatchObject({ msg: 'HTTP', verb: 'WATCH', URI: '/api/v1/namespaces/default/configmaps?watch=1', userAgent: 'watcher/1.0', resp: 200 });
    expect(ended.srcIP).toMatch(/127\.0\.0\.1\]?:\d+$/);
  });
});
