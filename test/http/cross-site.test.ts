// What a web page could send to an unauthenticated loopback server, over a
// real socket with hand-set Host, Origin and Sec-Fetch-Site headers: a
// foreign Host (DNS rebinding) and cross-site writes are 403 Statuses and
// store nothing; the requests real clients send keep working; a caller
// identified by a credential is not subject to the guard; a server bound to
// every interface accepts IP literals but still no foreign names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestAuthenticator } from '../../runtime/auth/authenticator.ts';
import { BindAddressError } from '../../runtime/http/bind-address.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { rawRequest } from '../support/raw-http.ts';

const send = (server: RunningServer, method: string, path: string, opts: { body?: string; headers?: Record<string, string> } = {}) => rawRequest(server.url, method, path, opts);

const CM = '/api/v1/namespaces/default/configmaps';
const cm = (name: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } });

// a bearer token this test's authenticator knows (the guard is for callers no credential identified)
const TOKEN = 'cross-site-test-token';
const tokenAuth: RequestAuthenticator = {
  authenticate: async (req) => (req.header('authorization') === `Bearer ${TOKEN}` ? { user: { name: 'token-user', groups: ['system:masters'] } } : undefined),
};

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true, authenticators: [tokenAuth] });
});
afterAll(async () => {
  await s?.stop();
});

async function exists(name: string): Promise<boolean> {
  return (await send(s, 'GET', `${CM}/${name}`)).status === 200;
}

describe('an unauthenticated loopback server and web pages', () => {
  const port = () => new URL(s.url).port;
  const rows: [string, string, () => Record<string, string>][] = [
    // DNS rebinding: the page's own name, resolved to 127.0.0.1; a text/plain-less POST needs no preflight
    ['no Content-Type, foreign Host', 'rebound-1', () => ({ host: `evil.example:${port()}` })],
    ['JSON, foreign Host without port', 'rebound-2', () => ({ host: 'evil.example', 'content-type': 'application/json' })],
    ['a name that merely starts like loopback', 'rebound-3', () => ({ host: `127.0.0.1.evil.example:${port()}` })],
    // a cross-site form or fetch to the right address
    ['foreign Origin', 'cross-1', () => ({ host: `127.0.0.1:${port()}`, origin: 'http://evil.example' })],
    ['opaque Origin', 'cross-2', () => ({ host: `127.0.0.1:${port()}`, origin: 'null' })],
    ['another port on loopback', 'cross-3', () => ({ host: `127.0.0.1:${port()}`, origin: 'http://127.0.0.1:8080' })],
    ['Sec-Fetch-Site cross-site', 'cross-4', () => ({ host: `127.0.0.1:${port()}`, 'sec-fetch-site': 'cross-site' })],
    ['Sec-Fetch-Site same-site', 'cross-5', () => ({ host: `localhost:${port()}`, 'sec-fetch-site': 'same-site' })],
  ];
  it.each(rows)('POST with %s → 403, nothing stored', async (_what, name, headers) => {
    const r = await send(s, 'POST', CM, { body: cm(name), headers: headers() });
    expect(r.status, r.text).toBe(403);
    expect(r.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403 });
    expect(r.json.message).toMatch(/^forbidden: /);
    expect(await exists(name)).toBe(false);
  });

  it('refuses reads through a foreign Host too (a rebound page could read them)', async () => {
    const r = await send(s, 'GET', '/api/v1/namespaces/kube-system/secrets', { headers: { host: `evil.example:${port()}` } });
    expect(r.status).toBe(403);
    expect(r.json.message).toContain('"evil.example:');
  });

  it('refuses deletes and updates with cross-site markers, and the object stays', async () => {
    expect((await send(s, 'POST', CM, { body: cm('target'), headers: { 'content-type': 'application/json' } })).status).toBe(201);
    const del = await send(s, 'DELETE', `${CM}/target`, { headers: { origin: 'http://evil.example' } });
    expect(del.status).toBe(403);
    const put = await send(s, 'PUT', `${CM}/target`, { body: cm('target'), headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' } });
    expect(put.status).toBe(403);
    expect(await exists('target')).toBe(true);
  });

  it('serves what real clients send', async () => {
    // kubectl, helm and client libraries: Host is the kubeconfig's address, no Origin, no Sec-Fetch-*
    expect((await send(s, 'POST', CM, { body: cm('client-1'), headers: { 'content-type': 'application/json' } })).status).toBe(201);
    expect((await send(s, 'POST', CM, { body: cm('client-2'), headers: { host: `localhost:${port()}`, 'content-type': 'application/json' } })).status).toBe(201);
    expect((await send(s, 'POST', CM, { body: cm('client-3'), headers: { host: `[::1]:${port()}`, 'content-type': 'application/json' } })).status).toBe(201);
    // a page served by this server itself (same origin) may write
    const same = await send(s, 'POST', CM, { body: cm('client-4'), headers: { origin: `http://127.0.0.1:${port()}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' } });
    expect(same.status, same.text).toBe(201);
    // a cross-site read cannot be read back by the page (no CORS); it is served
    expect((await send(s, 'GET', `${CM}/client-1`, { headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } })).status).toBe(200);
    const fetched = await fetch(`${s.url}${CM}`, { method: 'POST', body: cm('client-5'), headers: { 'content-type': 'application/json' } });
    expect(fetched.status).toBe(201);
  });

  it('does not apply to a caller identified by a credential', async () => {
    const r = await send(s, 'POST', CM, { body: cm('with-token'), headers: { host: `evil.example:${port()}`, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' } });
    expect(r.status, r.text).toBe(201);
  });
});

describe('bound to every interface', () => {
  it('is refused by startServer unless allowInsecureRemote', async () => {
    await expect(startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true, bindAddress: '0.0.0.0' })).rejects.toThrow(BindAddressError);
    await expect(startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true, bindAddress: '0.0.0.0' })).rejects.toThrow('--insecure-allow-unauthenticated-remote');
  });

  it('with allowInsecureRemote accepts IP literals as Host, still no foreign names, and shows the real address', async () => {
    const wide = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true, bindAddress: '0.0.0.0', allowInsecureRemote: true });
    try {
      const port = new URL(wide.url).port;
      expect(wide.url).toBe(`http://127.0.0.1:${port}`);
      expect(wide.boundURL).toBe(`http://0.0.0.0:${port}`);
      expect(wide.kubeconfig).toContain(`server: http://127.0.0.1:${port}`);
      expect((await send(wide, 'GET', `${CM}`, { headers: { host: `192.0.2.10:${port}` } })).status).toBe(200);
      expect((await send(wide, 'GET', `${CM}`, { headers: { host: `evil.example:${port}` } })).status).toBe(403);
    } finally {
      await wide.stop();
    }
  });
});
