// The Audit-Id response header on every answer, as upstream's WithAuditInit
// echoes it: a new UUID per request, or the client's Audit-ID as sent; on
// successes, errors (404, 401, 403, a bad path), non-resource paths, HEAD
// requests and a watch written straight to its socket, over a real socket
// and in-process.
import { request, type OutgoingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestAuthenticator } from '../../runtime/auth/authenticator.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const CM = '/api/v1/namespaces/default/configmaps';
let s: RunningServer;

const tokens: RequestAuthenticator = {
  authenticate: async (req) => {
    const auth = req.header('authorization') ?? '';
    if (auth === 'Bearer admin') return { user: { name: 'admin', groups: ['system:masters', 'system:authenticated'] } };
    if (auth === 'Bearer nobody') return { user: { name: 'nobody', groups: ['system:authenticated'] } };
    return undefined;
  },
};

/** Sends a request and resolves with the status and headers as soon as they arrive (a watch's body never ends). */
function head(method: string, path: string, headers: OutgoingHttpHeaders = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  const u = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
      res.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['RBAC'], insecureServeHTTP: true, authenticators: [tokens], anonymousAuth: false });
});
afterAll(() => s.stop());

const admin = { authorization: 'Bearer admin' };
const cases: [string, string, string, OutgoingHttpHeaders, number][] = [
  ['a read', 'GET', `${CM}`, admin, 200],
  ['a missing object (404)', 'GET', `${CM}/none`, admin, 404],
  ['no credentials (401)', 'GET', CM, {}, 401],
  ['a bad credential (401)', 'GET', CM, { authorization: 'Bearer wrong' }, 401],
  ['a denied request (403)', 'GET', CM, { authorization: 'Bearer nobody' }, 403],
  ['a non-resource path', 'GET', '/version', admin, 200],
  ['an unknown path (plain 404)', 'GET', '/nothing/here', admin, 404],
  ['a HEAD of a read', 'HEAD', CM, admin, 200],
  ['a HEAD of a missing object (404)', 'HEAD', `${CM}/none`, admin, 404],
  ['a HEAD of a non-resource path', 'HEAD', '/version', admin, 200],
  ['a watch written to its socket', 'GET', `${CM}?watch=1`, admin, 200],
];

describe('Audit-Id over a socket', () => {
  it.each(cases)('%s: a new UUID', async (_name, method, path, headers, status) => {
    const a = await head(method, path, headers);
    expect(a.status).toBe(status);
    expect(a.headers['audit-id']).toMatch(UUID);
  });

  it.each(cases)("%s: the client's Audit-ID as sent", async (_name, method, path, headers, status) => {
    const a = await head(method, path, { ...headers, 'Audit-ID': 'my id/1' });
    expect(a.status).toBe(status);
    expect(a.headers['audit-id']).toBe('my id/1');
  });

  it('a different ID for each request', async () => {
    const [a, b] = await Promise.all([head('GET', '/version', admin), head('GET', '/version', admin)]);
    expect(a.headers['audit-id']).not.toBe(b.headers['audit-id']);
  });
});

describe('Audit-Id in-process', () => {
  it.each(cases.filter(([name]) => !name.startsWith('a watch')))('%s', async (_name, method, path, headers, status) => {
    const res = await s.app.request(path, { method, headers: headers as Record<string, string> });
    expect(res.status).toBe(status);
    // the header stays once the body is read (nothing for a HEAD)
    expect(await res.text()).toSatisfy((body: string) => (method === 'HEAD' ? body === '' : true));
    expect(res.headers.get('audit-id')).toMatch(UUID);
    const own = await s.app.request(path, { method, headers: { ...(headers as Record<string, string>), 'audit-id': 'abc' } });
    expect(own.headers.get('audit-id')).toBe('abc');
  });
});
