// Request paths over a real socket, sent byte for byte with node:http (fetch
// and URL would resolve dot segments and drop a '#' before sending): verbs
// per path shape (a DELETE on the all-namespaces path of a namespaced
// resource is 405, not a delete of everything), dot segments, encoded
// slashes, empty segments and a literal '#' never re-target a request to
// another object or to a collection, and the sentinel objects in two
// namespaces survive every row.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { rawRequest, type RawResponse } from '../support/raw-http.ts';

let s: RunningServer;

/** One request with its target exactly as given. */
function raw(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return rawRequest(s.url, method, path, {
    body: payload,
    headers: { accept: 'application/json', ...(payload ? { 'content-type': 'application/json' } : {}), ...headers },
  });
}

const NAMESPACES = ['paths-a', 'paths-b'];
const KINDS = [
  { prefix: '/api/v1', resource: 'configmaps', body: (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: '1' } }) },
  { prefix: '/api/v1', resource: 'secrets', body: (name: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name }, stringData: { a: '1' } }) },
  { prefix: '/api/v1', resource: 'pods', body: (name: string) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'busybox' }] } }) },
  {
    prefix: '/apis/apps/v1',
    resource: 'deployments',
    body: (name: string) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
    }),
  },
];
const SENTINELS = ['sentinel', 'x'];

/** Names of one kind's objects in one namespace. */
async function names(prefix: string, resource: string, ns: string): Promise<string[]> {
  const r = await raw('GET', `${prefix}/namespaces/${ns}/${resource}`);
  expect(r.status).toBe(200);
  return r.json.items.map((o: any) => o.metadata.name).sort();
}

async function expectSentinelsIntact(): Promise<void> {
  for (const k of KINDS) {
    for (const ns of NAMESPACES) expect(await names(k.prefix, k.resource, ns), `${k.resource} in ${ns}`).toEqual(expect.arrayContaining(SENTINELS));
  }
}

/** Creates whatever sentinel is missing, so that each row starts from all of them. */
async function seed(): Promise<void> {
  for (const ns of NAMESPACES) {
    for (const k of KINDS) {
      for (const name of SENTINELS) {
        const r = await raw('POST', `${k.prefix}/namespaces/${ns}/${k.resource}`, k.body(name));
        expect([201, 409], r.text).toContain(r.status);
      }
    }
  }
}

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], insecureServeHTTP: true });
  for (const ns of NAMESPACES) {
    expect((await raw('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status).toBe(201);
  }
});
beforeEach(seed);
afterAll(async () => {
  await s?.stop();
});

const A = '/api/v1/namespaces/paths-a';
const NO_ROUTE = 'the server could not find the requested resource';
const NOT_ALLOWED = 'the server does not allow this method on the requested resource';
const REASON: Record<number, string> = { 400: 'BadRequest', 404: 'NotFound', 405: 'MethodNotAllowed' };

describe('verbs per path shape', () => {
  const rows: [string, string, number, string?][] = [
    // the data-loss rows: no delete or create on the all-namespaces path of a namespaced resource
    ['DELETE', '/api/v1/configmaps', 405, NOT_ALLOWED],
    ['DELETE', '/api/v1/configmaps/', 405, NOT_ALLOWED],
    ['DELETE', '/api/v1/configmaps?labelSelector=', 405, NOT_ALLOWED],
    ['DELETE', '/api/v1/secrets', 405, NOT_ALLOWED],
    ['DELETE', '/api/v1/pods', 405, NOT_ALLOWED],
    ['DELETE', '/apis/apps/v1/deployments', 405, NOT_ALLOWED],
    ['DELETE', '/api/v1/watch/configmaps', 405, NOT_ALLOWED],
    ['DELETE', '/api/v1/watch/namespaces/paths-a/configmaps', 405, NOT_ALLOWED],
    ['PUT', '/api/v1/configmaps', 405, NOT_ALLOWED],
    ['PATCH', '/api/v1/configmaps', 405, NOT_ALLOWED],
    // a namespaced object has no path outside its namespace
    ['GET', '/api/v1/configmaps/sentinel', 404, NO_ROUTE],
    ['DELETE', '/api/v1/configmaps/sentinel', 404, NO_ROUTE],
    ['DELETE', '/apis/apps/v1/deployments/sentinel', 404, NO_ROUTE],
    ['DELETE', '/api/v1/pods/sentinel/status', 404, NO_ROUTE],
    // subresources serve their declared verbs only, and never delete the object
    ['DELETE', `${A}/pods/sentinel/status`, 405, NOT_ALLOWED],
    // pods/proxy serves DELETE (to the pod): without a pod IP that is upstream's 400
    ['DELETE', `${A}/pods/sentinel/proxy`, 400, 'address not allowed'],
    ['DELETE', `${A}/pods/sentinel/nothing`, 404, NO_ROUTE],
    ['DELETE', `${A}/configmaps/sentinel/extra`, 404, NO_ROUTE],
    ['DELETE', `${A}/configmaps/sentinel/status/extra`, 404, NO_ROUTE],
  ];
  it.each(rows)('%s %s → %i', async (method, path, code, message) => {
    const r = await raw(method, path);
    expect(r.status, r.text).toBe(code);
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', code, reason: REASON[code], message });
    await expectSentinelsIntact();
  });

  it("answers the 405 with upstream's Status", async () => {
    const r = await raw('DELETE', '/api/v1/configmaps');
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server does not allow this method on the requested resource',
      reason: 'MethodNotAllowed',
      details: {},
      code: 405,
    });
  });

  it('refuses a create on the all-namespaces path and stores nothing', async () => {
    for (const k of KINDS) {
      const body = k.body('created-cluster-wide');
      (body.metadata as Record<string, string>).namespace = 'paths-a';
      const r = await raw('POST', `${k.prefix}/${k.resource}`, body);
      expect(r.status, r.text).toBe(405);
      expect(await names(k.prefix, k.resource, 'paths-a')).not.toContain('created-cluster-wide');
    }
  });

  it('still lists and watches across namespaces', async () => {
    const r = await raw('GET', '/api/v1/configmaps');
    expect(r.status).toBe(200);
    const found = r.json.items
      .filter((o: any) => o.metadata.name === 'sentinel')
      .map((o: any) => o.metadata.namespace)
      .sort();
    expect(found).toEqual(NAMESPACES);
  });

  it('serves a named GET with ?watch as a get, as upstream does', async () => {
    const r = await raw('GET', `${A}/configmaps/sentinel?watch=1`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'sentinel', namespace: 'paths-a' } });
  });
});

describe('paths are never re-targeted', () => {
  const rows: [string, string, number, string?][] = [
    // dot segments after a name: would resolve to the collection
    ['DELETE', `${A}/configmaps/sentinel/..`, 404],
    ['DELETE', `${A}/configmaps/sentinel/%2e%2e`, 404],
    ['DELETE', `${A}/configmaps/sentinel/%2E%2E/`, 404],
    ['DELETE', `${A}/configmaps/sentinel/.`, 404],
    ['DELETE', `${A}/configmaps/x/../sentinel`, 404],
    ['DELETE', `${A}/pods/sentinel/status/..`, 404],
    ['DELETE', `${A}/secrets/sentinel/../..`, 404],
    ['DELETE', '/apis/apps/v1/namespaces/paths-a/deployments/sentinel/..', 404],
    // dot segments elsewhere: would resolve to another namespace, version or the all-namespaces path
    ['DELETE', '/api/v1/namespaces/paths-a/../configmaps', 404],
    ['DELETE', '/api/v1/namespaces/paths-b/../paths-a/configmaps', 404],
    ['DELETE', '/api/v1/namespaces/%2e%2e/configmaps', 404],
    ['DELETE', '/api/v1/namespaces/./configmaps', 404],
    ['DELETE', '/api/v2/../v1/namespaces/paths-a/configmaps', 404],
    ['DELETE', '/healthz/../api/v1/namespaces/paths-a/configmaps', 404],
    ['GET', '/healthz/../api/v1/namespaces/paths-a/secrets', 404],
    // the name itself is a dot segment: upstream's invalid-name 400
    ['DELETE', `${A}/configmaps/..`, 400, 'Name parameter invalid: "..": may not be \'..\''],
    ['DELETE', `${A}/configmaps/%2e%2e`, 400, 'Name parameter invalid: "..": may not be \'..\''],
    ['DELETE', `${A}/configmaps/.`, 400, 'Name parameter invalid: ".": may not be \'.\''],
    ['DELETE', `${A}/configmaps/./`, 400],
    ['PUT', `${A}/configmaps/..`, 400],
    ['DELETE', '/api/v1/namespaces/..', 400],
    ['DELETE', `${A}/configmaps/%25`, 400, 'Name parameter invalid: "%": may not contain \'%\''],
    // a literal '#' is part of the name (a Go server reads it so), not a fragment
    ['DELETE', `${A}/configmaps/#`, 404, 'configmaps "#" not found'],
    ['DELETE', `${A}/configmaps/%23`, 404, 'configmaps "#" not found'],
    ['DELETE', `${A}/configmaps/#/..`, 404],
    ['DELETE', `${A}/configmaps/#sentinel`, 404, 'configmaps "#sentinel" not found'],
    ['DELETE', `${A}/configmaps#`, 404],
    // empty segments and encoded slashes are not collapsed
    ['DELETE', '/api/v1/namespaces//configmaps', 404],
    ['DELETE', `${A}/configmaps//`, 404],
    ['DELETE', `${A}//configmaps`, 404],
    ['DELETE', '/api/v1/namespaces/paths-a%2Fconfigmaps', 404],
    ['DELETE', `${A}/configmaps/sentinel%2F..`, 404],
    ['DELETE', `${A}/configmaps/sentinel%2f`, 404],
    // malformed escapes
    ['DELETE', `${A}/configmaps/%zz`, 400, 'invalid URL escape "%zz"'],
    ['DELETE', `${A}/configmaps/sentinel%`, 400],
    // absolute-form targets are parsed the same way
    ['DELETE', `http://127.0.0.1${A}/configmaps/sentinel/..`, 404],
    ['DELETE', `http://127.0.0.1${A}/configmaps/..`, 400],
  ];
  it.each(rows)('%s %s → %i', async (method, path, code, message) => {
    const r = await raw(method, path, method === 'PUT' ? { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '..' } } : undefined);
    expect(r.status, r.text).toBe(code);
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', code, reason: REASON[code] });
    expect(r.json.message).toBe(message ?? (code === 404 ? NO_ROUTE : r.json.message));
    await expectSentinelsIntact();
  });
});

describe('deletecollection under a namespace', () => {
  it("deletes that namespace's objects only", async () => {
    for (const k of KINDS) {
      const r = await raw('DELETE', `${k.prefix}/namespaces/paths-a/${k.resource}`);
      expect(r.status, r.text).toBe(200);
    }
    for (const k of KINDS) {
      // pods and deployments may stay a moment with finalizers; none of ours carries any
      expect(await names(k.prefix, k.resource, 'paths-a'), k.resource).toEqual([]);
      expect(await names(k.prefix, k.resource, 'paths-b'), k.resource).toEqual(expect.arrayContaining(SENTINELS));
    }
  });
});
