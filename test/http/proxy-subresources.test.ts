// The proxy subresources of pods, services and nodes through app.request():
// every method upstream's proxy connecters take on `.../proxy` and
// `.../proxy/{path}`, the lookups before the connection (missing objects,
// unusable addresses, services without a ready endpoint) and, where
// kube-apiserver would connect, its answer for a connection that fails;
// under RBAC, the verb each method is authorized as.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestAuthenticator } from '../../runtime/auth/authenticator.ts';
import { type RunningServer, startServer } from '../../runtime/index.ts';
import { call, server, until } from '../semantics/helpers.ts';

let s: RunningServer;
const NS = 'default';
const API = `/api/v1/namespaces/${NS}`;
const NOT_CONNECTED = 'this API server does not connect to proxied backends';
const unreachable = (address: string) => `error trying to reach service: dial tcp ${address}: ${NOT_CONNECTED}`;

async function made(method: string, path: string, body: unknown, type?: string): Promise<any> {
  const r = await call(s, method, path, body, type);
  expect(r.code, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body;
}

async function pod(name: string, ip: string | undefined, ports: number[] = []): Promise<void> {
  const containers = [{ name: 'c', image: 'nginx', ...(ports.length ? { ports: ports.map((containerPort) => ({ containerPort })) } : {}) }];
  await made('POST', `${API}/pods`, { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers } });
  if (ip) await made('PATCH', `${API}/pods/${name}/status`, { status: { podIP: ip, podIPs: [{ ip }] } }, 'application/merge-patch+json');
}

/** A service whose one port (80, to 8080) is named `port` ('' for none), and its Endpoints when `subsets` are given. */
async function service(name: string, subsets?: unknown[], port = ''): Promise<void> {
  const spec = { selector: { app: name }, ports: [{ ...(port ? { name: port } : {}), port: 80, targetPort: 8080 }] };
  await made('POST', `${API}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec });
  if (subsets) await made('POST', `${API}/endpoints`, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name }, subsets });
}

const podRef = (name: string, namespace = NS) => ({ kind: 'Pod', namespace, name });

beforeAll(async () => {
  s = await server();
  await pod('web', '10.1.2.3', [8080]);
  await pod('portless', '10.1.2.4');
  await pod('v6', 'fd00::5', [8080]);
  await pod('noip', undefined);
  await made('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
  await made('PATCH', '/api/v1/nodes/n1/status', { status: { addresses: [{ type: 'InternalIP', address: '10.9.9.9' }] } }, 'application/merge-patch+json');
  await service('svc', [{ addresses: [{ ip: '10.1.2.3', targetRef: podRef('web') }], ports: [{ port: 8080 }] }]);
  await service('named', [{ addresses: [{ ip: '10.1.2.3', targetRef: podRef('web') }], ports: [{ name: 'http', port: 8080 }] }], 'http');
  await service('empty', []);
  await service('unready', [{ notReadyAddresses: [{ ip: '10.1.2.3', targetRef: podRef('web') }], ports: [{ port: 8080 }] }]);
  const unbacked = [{ ip: '10.1.2.3' }, { ip: '10.1.2.4', targetRef: podRef('web') }, { ip: '10.1.2.3', targetRef: podRef('gone') }, { ip: '10.1.2.3', targetRef: podRef('web', 'other') }];
  await service('unbacked', [{ addresses: unbacked, ports: [{ port: 8080 }] }]);
  await service('lonely');
});
afterAll(async () => {
  await s?.stop();
});

const METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const TARGETS: [string, string][] = [
  [`${API}/pods/web/proxy`, '10.1.2.3:8080'],
  [`${API}/services/svc/proxy`, '10.1.2.3:8080'],
  ['/api/v1/nodes/n1/proxy', '10.9.9.9:10250'],
];

describe('each method on each form', () => {
  const rows = TARGETS.flatMap(([base, address]) =>
    METHODS.flatMap((method) => [
      [method, `${base}/`, address] as const,
      [method, `${base}/some/path`, address] as const,
      [method, `${base}/some/path/?q=1`, address] as const,
      ...(method === 'GET' || method === 'HEAD' ? [] : [[method, base, address] as const]),
    ]),
  );
  it.each(rows)('%s %s: 503, upstream answer to a failed connection', async (method, path, address) => {
    const res = await s.app.request(path, { method, body: ['GET', 'HEAD'].includes(method) ? undefined : 'payload' });
    expect(res.status).toBe(503);
    if (method === 'HEAD') return;
    expect(await res.json()).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: unreachable(address), reason: 'ServiceUnavailable', code: 503 });
  });

  it.each(TARGETS.flatMap(([base]) => ['GET', 'HEAD'].map((m) => [m, base] as const)))('%s %s (the proxy root): 301 to the path with a slash', async (method, base) => {
    const res = await s.app.request(`${base}?a=1&b=2`, { method });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`${base}/?a=1&b=2`);
    expect(await res.text()).toBe('');
  });

  it('GET of services/x/proxy never answers the Service object', async () => {
    const res = await s.app.request(`${API}/services/svc/proxy`);
    expect(res.status).toBe(301);
  });

  it.each([`${API}/pods/web/proxy/x`, `${API}/services/svc/proxy`, '/api/v1/nodes/n1/proxy/'])('%s: methods no proxy takes are 405', async (path) => {
    expect((await s.app.request(path, { method: 'PROPFIND' })).status).toBe(405);
  });

  it('OPTIONS on other subresources and paths beyond other subresources stay refused', async () => {
    expect((await call(s, 'OPTIONS', `${API}/pods/web/status`)).code).toBe(405);
    expect((await call(s, 'GET', `${API}/pods/web/status/extra`)).code).toBe(404);
    expect((await call(s, 'GET', `${API}/pods/web/exec/extra`)).code).toBe(404);
  });

  it('the forwarded path may hold what a resource path may not (empty segments, escaped slashes)', async () => {
    for (const rest of ['a//b', 'a%2Fb', '//']) {
      const r = await call(s, 'GET', `${API}/services/svc/proxy/${rest}`);
      expect(r.code, rest).toBe(503);
    }
  });
});

describe('where the request would go', () => {
  it.each([
    ['a pod port', `${API}/pods/web:9000/proxy/`, '10.1.2.3:9000'],
    ['https and a pod port', `${API}/pods/https:web:9443/proxy/`, '10.1.2.3:9443'],
    ['a pod without container ports (http default)', `${API}/pods/portless/proxy/`, '10.1.2.4:80'],
    ['https to a pod without container ports', `${API}/pods/https:portless:/proxy/`, '10.1.2.4:443'],
    ['an IPv6 pod', `${API}/pods/v6/proxy/`, '[fd00::5]:8080'],
    ['a service port number names its port', `${API}/services/svc:80/proxy/`, '10.1.2.3:8080'],
    ['a service port name', `${API}/services/https:named:http/proxy/`, '10.1.2.3:8080'],
    ['a named service port by number', `${API}/services/named:80/proxy/`, '10.1.2.3:8080'],
    ['another port on the node', '/api/v1/nodes/n1:4194/proxy/metrics', '10.9.9.9:4194'],
    ['the kubelet port named', '/api/v1/nodes/http:n1:10250/proxy/', '10.9.9.9:10250'],
  ])('%s', async (_n, path, address) => {
    const r = await call(s, 'GET', path);
    expect(r.code).toBe(503);
    expect(r.body.message).toBe(unreachable(address));
  });

  it('a connection upgrade: 500 "error dialing backend", even at the proxy root', async () => {
    const res = await s.app.request(`${API}/services/svc/proxy`, { headers: { Connection: 'Upgrade', Upgrade: 'websocket' } });
    expect(res.status).toBe(500);
    expect((await res.json()).message).toBe(`error dialing backend: dial tcp 10.1.2.3:8080: ${NOT_CONNECTED}`);
  });
});

describe('refusals before any connection', () => {
  it.each([
    ['a missing pod', 'GET', `${API}/pods/nope/proxy/`, 404, 'NotFound', 'pods "nope" not found'],
    ['a pod without an IP', 'GET', `${API}/pods/noip/proxy/x`, 400, 'BadRequest', 'address not allowed'],
    ['a bad pod name form', 'GET', `${API}/pods/a:b:c:d/proxy/`, 400, 'BadRequest', 'invalid pod request "a:b:c:d"'],
    ['a missing service by port number', 'GET', `${API}/services/nope:80/proxy/`, 404, 'NotFound', 'services "nope" not found'],
    ['a missing service by name: its Endpoints are looked up', 'POST', `${API}/services/nope/proxy`, 404, 'NotFound', 'endpoints "nope" not found'],
    ['a service without Endpoints', 'GET', `${API}/services/lonely/proxy/`, 404, 'NotFound', 'endpoints "lonely" not found'],
    ['a port number the service lacks', 'GET', `${API}/services/svc:81/proxy/`, 503, 'ServiceUnavailable', 'no service port 81 found for service "svc"'],
    ['Endpoints without subsets', 'GET', `${API}/services/empty/proxy/`, 503, 'ServiceUnavailable', 'no endpoints available for service "empty"'],
    ['no ready address', 'PUT', `${API}/services/unready/proxy/x`, 503, 'ServiceUnavailable', 'no endpoints available for service "unready"'],
    ['no address backed by its pod', 'GET', `${API}/services/http:unbacked:/proxy/`, 503, 'ServiceUnavailable', 'no endpoints available for service "http:unbacked:"'],
    ['a port name no subset has', 'DELETE', `${API}/services/svc:metrics/proxy/`, 503, 'ServiceUnavailable', 'no endpoints available for service "svc:metrics"'],
    ['a named port not named', 'GET', `${API}/services/named/proxy/`, 503, 'ServiceUnavailable', 'no endpoints available for service "named"'],
    ['a scheme other than http and https', 'GET', `${API}/services/ftp:svc:80/proxy/`, 400, 'BadRequest', 'invalid service request "ftp:svc:80"'],
    ['a missing node', 'GET', '/api/v1/nodes/ghost/proxy/', 404, 'NotFound', 'nodes "ghost" not found'],
    ['dry run', 'POST', `${API}/services/svc/proxy/x?dryRun=All`, 400, 'BadRequest', 'dryRun is not supported'],
  ])('%s: %s %s → %i', async (_n, method, path, code, reason, message) => {
    const r = await call(s, method, path, method === 'GET' ? undefined : 'payload');
    expect(r.code, JSON.stringify(r.body)).toBe(code);
    expect(r.body).toMatchObject({ kind: 'Status', status: 'Failure', code, reason, message });
  });
});

describe('authorization: the verb of each method on subresource proxy', () => {
  let r: RunningServer;
  const users: Record<string, string> = { root: 'system:masters', getter: '', any: '' };
  const tokens: RequestAuthenticator = {
    authenticate: async (req) => {
      const who = /^Bearer (\w+)$/.exec(req.header('authorization') ?? '')?.[1];
      if (!who || !(who in users)) return undefined;
      return { user: { name: who, groups: [...(users[who] ? [users[who]] : []), 'system:authenticated'] } };
    },
  };
  const as = async (who: string, method: string, path: string, body?: unknown) => {
    const res = await r.app.request(path, { method, headers: { authorization: `Bearer ${who}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: method === 'HEAD' ? undefined : await res.json() };
  };
  const rbac = '/apis/rbac.authorization.k8s.io/v1/namespaces/default';
  const grant = async (name: string, verbs: string[]) => {
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules: [{ apiGroups: [''], resources: ['services/proxy'], verbs }] };
    expect((await as('root', 'POST', `${rbac}/roles`, role)).status).toBe(201);
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'User', name }],
    };
    expect((await as('root', 'POST', `${rbac}/rolebindings`, binding)).status).toBe(201);
  };
  const PROXY = `${API}/services/nope/proxy/x`;

  beforeAll(async () => {
    r = await startServer({ authorizationMode: ['RBAC'], insecureServeHTTP: true, authenticators: [tokens] });
    await grant('getter', ['get']);
    await grant('any', ['*']);
    await until(async () => (await as('getter', 'GET', PROXY)).status !== 403 && (await as('any', 'OPTIONS', PROXY)).status !== 403);
  });
  afterAll(async () => {
    await r?.stop();
  });

  it.each([
    ['GET', 'get'],
    ['HEAD', 'get'],
    ['POST', 'create'],
    ['PUT', 'update'],
    ['PATCH', 'patch'],
    ['DELETE', 'delete'],
    ['OPTIONS', ''],
  ])('%s is authorized as %j', async (method, verb) => {
    const allowed = await as(verb === 'get' ? 'getter' : 'any', method, PROXY);
    expect(allowed.status).toBe(404);
    if (verb === 'get') return;
    const denied = await as('getter', method, PROXY);
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe(`services "nope" is forbidden: User "getter" cannot ${verb} resource "services/proxy" in API group "" in the namespace "default"`);
  });
});
