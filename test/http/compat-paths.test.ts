// Compatibility sweep of the paths and query spellings clients rely on, as
// kube-apiserver 1.31 answers them: every health check at its own path (a
// check's name may hold slashes) and none with a trailing slash; every
// discovery document of every served group and group-version with and
// without one (legacy and aggregated); every OpenAPI v3 document the index
// lists, none with a slash; and the integer and duration query parameters
// in the spellings Go's strconv.ParseInt and time.ParseDuration accept or
// refuse (the booleans are in query-options.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

let s: RunningServer;
const CM = '/api/v1/namespaces/default/configmaps';
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], runtimeConfig: 'networking.k8s.io/v1beta1=true' });
  await get(CM, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ metadata: { name: 'compat' } }) });
});
afterAll(async () => {
  await s?.stop();
});

async function get(path: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
  const res = await s.app.request(path, init);
  return { status: res.status, text: await res.text() };
}
const json = async (path: string, init?: RequestInit) => JSON.parse((await get(path, init)).text);
const AGGREGATED = { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' };

describe('health checks', () => {
  it.each(['healthz', 'livez', 'readyz'])('/%s: every check at its own path, none with a slash', async (ep) => {
    const listing = await get(`/${ep}?verbose`);
    expect(listing.status).toBe(200);
    const checks = [...listing.text.matchAll(/^\[\+\](\S+) ok$/gm)].map((m) => m[1]);
    expect(checks).toContain('ping');
    expect(checks).toContain('poststarthook/start-system-namespaces-controller');
    if (ep === 'readyz') expect(checks).toContain('poststarthook/rbac/bootstrap-roles');
    for (const check of checks) {
      expect(await get(`/${ep}/${check}`), check).toEqual({ status: 200, text: 'ok' });
      expect((await get(`/${ep}/${check}/`)).status, `${check}/`).toBe(404);
    }
    expect(await get(`/${ep}/`)).toEqual({ status: 404, text: '404 page not found\n' });
    expect((await get(`/${ep}/nope`)).status).toBe(404);
  });

  // verbose counts when present, whatever its value; exclude repeats
  it.each([
    ['?verbose', true],
    ['?verbose=', true],
    ['?verbose=false', true],
    ['?verbose=0', true],
    ['?Verbose', false],
    ['', false],
  ])('/readyz%s: verbose is %s', async (q, verbose) => {
    const r = await get(`/readyz${q}`);
    expect(r.status).toBe(200);
    expect(r.text === 'ok').toBe(!verbose);
  });

  it('exclude repeats; an unknown one warns in the verbose listing', async () => {
    const r = await get('/readyz?verbose&exclude=ping&exclude=poststarthook/rbac/bootstrap-roles&exclude=nope');
    expect(r.text).not.toContain('[+]ping ok');
    expect(r.text).not.toContain('bootstrap-roles');
    expect(r.text).toContain('[+]etcd ok');
    expect(r.text).toContain('warn: some health checks cannot be excluded: no matches for "nope"');
  });
});

describe('discovery of every served group and group-version, with and without a trailing slash', () => {
  it('/api and /api/v1', async () => {
    for (const [path, kind] of [
      ['/api', 'APIVersions'],
      ['/api/v1', 'APIResourceList'],
    ]) {
      const plain = await get(path);
      expect(JSON.parse(plain.text).kind).toBe(kind);
      expect(await get(`${path}/`)).toEqual(plain);
    }
  });

  it('every group and version of /apis', async () => {
    const list = await json('/apis');
    expect(list.kind).toBe('APIGroupList');
    const groups = list.groups as { name: string; versions: { groupVersion: string }[] }[];
    expect(groups.map((g) => g.name)).toContain('networking.k8s.io');
    for (const g of groups) {
      const plain = await get(`/apis/${g.name}`);
      expect(JSON.parse(plain.text), g.name).toMatchObject({ kind: 'APIGroup', name: g.name });
      expect(await get(`/apis/${g.name}/`), `${g.name}/`).toEqual(plain);
      for (const { groupVersion } of g.versions) {
        const v = await get(`/apis/${groupVersion}`);
        expect(JSON.parse(v.text), groupVersion).toMatchObject({ kind: 'APIResourceList', groupVersion });
        expect(await get(`/apis/${groupVersion}/`), `${groupVersion}/`).toEqual(v);
      }
    }
    expect(groups.flatMap((g) => g.versions.map((v) => v.groupVersion))).toContain('networking.k8s.io/v1beta1');
  });

  it('aggregated: /api/ and /apis/ answer as /api and /apis, naming every group-version of the legacy documents', async () => {
    const legacy = (await json('/apis')).groups.flatMap((g: { versions: { groupVersion: string }[] }) => g.versions.map((v) => v.groupVersion)).sort();
    for (const path of ['/api', '/apis']) {
      const plain = await get(path, { headers: AGGREGATED });
      expect(await get(`${path}/`, { headers: AGGREGATED })).toEqual(plain);
      if (path === '/apis') {
        const doc = JSON.parse(plain.text);
        const aggregated = doc.items.flatMap((g: { metadata: { name: string }; versions: { version: string }[] }) => g.versions.map((v) => `${g.metadata.name}/${v.version}`)).sort();
        expect(aggregated).toEqual(legacy);
      }
    }
  });
});

describe('OpenAPI v3 documents', () => {
  it('every document the index lists, served at its path; none with a trailing slash', async () => {
    const index = await json('/openapi/v3');
    const keys = Object.keys(index.paths);
    expect(keys).toContain('api/v1');
    expect(keys).toContain('apis/networking.k8s.io/v1beta1');
    for (const key of keys) {
      const doc = await get(`/openapi/v3/${key}`);
      expect(doc.status, key).toBe(200);
      expect(JSON.parse(doc.text).openapi).toBe('3.0.0');
      expect((await get(`/openapi/v3/${key}/`)).status, `${key}/`).toBe(404);
    }
    expect((await get('/openapi/v3/')).status).toBe(404);
    expect((await get('/openapi/v3/apis/nope/v1')).status).toBe(404);
  });
});

const invalid = (v: string) => `strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`;

describe("integer query parameters in Go's spellings (strconv.ParseInt)", () => {
  // '+1' in a query is ' 1' (a plus is a space in a query string, for Go as for URLSearchParams)
  it.each([
    ['limit', '1', 200],
    ['limit', '01', 200],
    ['limit', '-0', 200],
    ['limit', '%2B1', 200],
    ['limit', '+1', invalid(' 1')],
    ['limit', '1e3', invalid('1e3')],
    ['limit', '0x10', invalid('0x10')],
    ['limit', '1_000', invalid('1_000')],
    ['limit', '', invalid('')],
    ['limit', '9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    ['timeoutSeconds', '30', 200],
    ['timeoutSeconds', '1.0', invalid('1.0')],
  ] as const)('GET list ?%s=%s', async (param, value, want) => {
    const r = await get(`${CM}?${param}=${value}`);
    if (want === 200) {
      expect(r.status, r.text).toBe(200);
      expect(JSON.parse(r.text).kind).toBe('ConfigMapList');
    } else {
      expect(r.status).toBe(400);
      expect(JSON.parse(r.text)).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400, message: want });
    }
  });

  it.each(['x', '1.5', ''])('DELETE ?gracePeriodSeconds=%j is 400', async (v) => {
    const r = await get(`${CM}/compat?gracePeriodSeconds=${v}`, { method: 'DELETE' });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).message).toBe(invalid(v));
  });
});

describe("the timeout parameter in Go's duration spellings (time.ParseDuration)", () => {
  it.each(['30s', '1m30s', '1.5s', '500ms', '1h', '2us', '2µs', '10ns', '0', '-1s', '+5s', '.5s', '1h2m3s4ms'])('timeout=%s is read', async (v) => {
    const r = await get(`${CM}?timeout=${encodeURIComponent(v)}`);
    expect(r.status, r.text).toBe(200);
  });

  it.each([
    ['x', 'time: invalid duration "x"'],
    ['1', 'time: missing unit in duration "1"'],
    ['1d', 'time: unknown unit "d" in duration "1d"'],
    ['1S', 'time: unknown unit "S" in duration "1S"'],
    ['s', 'time: invalid duration "s"'],
  ])('timeout=%s is 400: %s', async (v, err) => {
    const r = await get(`${CM}?timeout=${encodeURIComponent(v)}`);
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).message).toBe(`invalid timeout specified in the request URL - ${err}`);
  });
});
