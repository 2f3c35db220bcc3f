// Every non-resource and discovery path with and without a trailing slash,
// answered as kube-apiserver 1.31 does: /version, /api, /apis and the group
// and group-version discovery documents are go-restful routes there, whose
// router ignores one trailing slash (the same document either way); health
// checks, OpenAPI and the issuer documents are exact paths of its mux (with
// a slash they are 404).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

/** path, what it answers without the slash (a JSON kind, or the first text), and whether the slash form serves the same. */
const ROWS: [path: string, answer: string, slashServes: boolean][] = [
  ['/version', 'gitVersion', true],
  ['/api', 'APIVersions', true],
  ['/apis', 'APIGroupList', true],
  ['/api/v1', 'APIResourceList', true],
  ['/apis/apps', 'APIGroup', true],
  ['/apis/apps/v1', 'APIResourceList', true],
  ['/apis/rbac.authorization.k8s.io', 'APIGroup', true],
  ['/healthz', 'ok', false],
  ['/livez', 'ok', false],
  ['/readyz', 'ok', false],
  ['/healthz/ping', 'ok', false],
  ['/livez/ping', 'ok', false],
  ['/openapi/v2', 'definitions', false],
  ['/openapi/v3', 'paths', false],
  ['/openapi/v3/apis/apps/v1', 'components', false],
  ['/.well-known/openid-configuration', 'issuer', false],
  ['/openid/v1/jwks', 'keys', false],
];

async function get(path: string, accept?: string): Promise<{ status: number; text: string }> {
  const res = await s.app.request(path, accept ? { headers: { accept } } : {});
  return { status: res.status, text: await res.text() };
}

describe('trailing slashes', () => {
  it.each(ROWS)('%s answers %s; with a slash the same: %s', async (path, answer, slashServes) => {
    const plain = await get(path);
    expect(plain.status).toBe(200);
    expect(plain.text).toContain(answer);
    const slash = await get(`${path}/`);
    if (slashServes) {
      expect(slash.status).toBe(200);
      expect(slash.text).toBe(plain.text);
    } else {
      expect(slash.status).toBe(404);
    }
  });

  it.each(['/api', '/apis'])('%s/ also answers aggregated discovery', async (path) => {
    const accept = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
    const plain = await get(path, accept);
    const slash = await get(`${path}/`, accept);
    expect(slash.status).toBe(200);
    expect(JSON.parse(slash.text).kind).toBe('APIGroupDiscoveryList');
    expect(slash.text).toBe(plain.text);
  });

  it('an unknown group is 404 with or without the slash', async () => {
    expect((await get('/apis/nope.example.com')).status).toBe(404);
    expect((await get('/apis/nope.example.com/')).status).toBe(404);
  });
});

describe('non-resource dispatch', () => {
  const rows: [string, string, number, string][] = [
    ['an escaped letter routes as the letter', '/vers%69on', 200, 'gitVersion'],
    ['an escaped slash addresses nothing', '/healthz%2Fping', 404, '"reason":"NotFound"'],
    ['an empty check name is no check', '/healthz/', 404, '404 page not found'],
    ['a check below a check is none', '/healthz/ping/more', 404, '404 page not found'],
    ['a path under /openapi/v3/ is an OpenAPI v3 document request', '/openapi/v3/apis/nope/v9', 404, ''],
    ['an unknown root path', '/nope', 404, '404 page not found'],
  ];
  it.each(rows)('%s (%s)', async (_n, path, status, text) => {
    const got = await get(path);
    expect(got.status).toBe(status);
    expect(got.text).toContain(text);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s of /version and /healthz is 404 (they serve GET only)', async (method) => {
    for (const path of ['/version', '/healthz']) {
      const res = await s.app.request(path, { method });
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('404 page not found\n');
    }
  });

  it('HEAD is GET without the body', async () => {
    const res = await s.app.request('/version', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.text()).toBe('');
  });
});
