// ResourceQuota and LimitRanger admission through the HTTP API of an
// in-process server (the quota controller running): a quota's status
// follows its spec; the Pod over `pods: 1` is refused with upstream's 403
// text; status.used is charged on create and given back after a delete;
// a claim over requests.storage, count/deployments.apps, the `must
// specify` refusal, a dry run that charges nothing; LimitRange defaults
// land in a Pod with upstream's annotation, and a container over max is
// refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

const JSON_CT = { 'content-type': 'application/json' };
const pod = (name: string, container: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'nginx', ...container }] },
});
const send = async (s: RunningServer, method: string, path: string, body?: unknown) => {
  const r = await s.app.request(path, { method, headers: JSON_CT, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
};

/** Polls until the check holds (the controller acts on watch events; nothing asserts how long it takes). */
async function eventually<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 4000; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`never: ${what}`);
}

describe('ResourceQuota and LimitRanger', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  });
  afterAll(async () => {
    await s?.stop();
  });

  const makeNamespace = async (ns: string) => expect((await send(s, 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  const quotaPath = (ns: string, name: string) => `/api/v1/namespaces/${ns}/resourcequotas/${name}`;
  /** Creates a quota and waits for the controller to fill its status. */
  const makeQuota = async (ns: string, name: string, spec: Record<string, unknown>) => {
    expect((await send(s, 'POST', `/api/v1/namespaces/${ns}/resourcequotas`, { metadata: { name }, spec })).status).toBe(201);
    return usedOf(ns, name, (u) => u !== undefined);
  };
  const usedOf = (ns: string, name: string, ok: (used: Record<string, string> | undefined) => boolean) =>
    eventually(async () => {
      const r = await send(s, 'GET', quotaPath(ns, name));
      return ok(r.json.status?.used) ? r.json.status : undefined;
    }, `quota ${ns}/${name} status`);

  it("refuses the second Pod over `pods: 1` with upstream's text; used follows create and delete", async () => {
    await makeNamespace('rq-pods');
    const status = await makeQuota('rq-pods', 'q', { hard: { pods: '1' } });
    expect(status).toEqual({ hard: { pods: '1' }, used: { pods: '0' } });
    expect((await send(s, 'POST', '/api/v1/namespaces/rq-pods/pods', pod('p1'))).status).toBe(201);
    // charged by admission before the Pod was stored
    expect((await send(s, 'GET', quotaPath('rq-pods', 'q'))).json.status.used).toEqual({ pods: '1' });
    const r = await send(s, 'POST', '/api/v1/namespaces/rq-pods/pods', pod('p2'));
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      code: 403,
      message: 'pods "p2" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1',
      details: { name: 'p2', kind: 'pods' },
    });
    expect((await send(s, 'GET', '/api/v1/namespaces/rq-pods/pods/p2')).status).toBe(404);
    expect((await send(s, 'DELETE', '/api/v1/namespaces/rq-pods/pods/p1?gracePeriodSeconds=0')).status).toBe(200);
    await usedOf('rq-pods', 'q', (u) => u?.pods === '0');
    expect((await send(s, 'POST', '/api/v1/namespaces/rq-pods/pods', pod('p2'))).status).toBe(201);
  });

  it('a dry run is checked but charges nothing', async () => {
    await makeNamespace('rq-dry');
    await makeQuota('rq-dry', 'q', { hard: { pods: '1', 'count/pods': '5' } });
    expect((await send(s, 'POST', '/api/v1/namespaces/rq-dry/pods?dryRun=All', pod('d1'))).status).toBe(201);
    expect((await send(s, 'GET', quotaPath('rq-dry', 'q'))).json.status.used).toEqual({ 'count/pods': '0', pods: '0' });
    expect((await send(s, 'POST', '/api/v1/namespaces/rq-dry/pods', pod('d1'))).status).toBe(201);
    const over = await send(s, 'POST', '/api/v1/namespaces/rq-dry/pods?dryRun=All', pod('d2'));
    expect(over.status).toBe(403);
    expect(over.json.message).toBe('pods "d2" is forbidden: exceeded quota: q, requested: pods=1, used: pods=1, limited: pods=1');
  });

  it('a Pod without the requests and limits a compute quota covers is refused (`must specify`)', async () => {
    await makeNamespace('rq-compute');
    await makeQuota('rq-compute', 'compute', { hard: { 'requests.cpu': '1', 'limits.memory': '1Gi' } });
    const r = await send(s, 'POST', '/api/v1/namespaces/rq-compute/pods', pod('bare'));
    expect(r.status).toBe(403);
    expect(r.json.message).toBe('pods "bare" is forbidden: failed quota: compute: must specify limits.memory for: c; requests.cpu for: c');
    const ok = await send(s, 'POST', '/api/v1/namespaces/rq-compute/pods', pod('sized', { resources: { requests: { cpu: '600m' }, limits: { memory: '512Mi' } } }));
    expect(ok.status).toBe(201);
    expect((await send(s, 'GET', quotaPath('rq-compute', 'compute'))).json.status.used).toEqual({ 'limits.memory': '512Mi', 'requests.cpu': '600m' });
    const over = await send(s, 'POST', '/api/v1/namespaces/rq-compute/pods', pod('big', { resources: { requests: { cpu: '500m' }, limits: { memory: '256Mi' } } }));
    expect(over.status).toBe(403);
    expect(over.json.message).toBe('pods "big" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1');
  });

  it('refuses a claim over requests.storage', async () => {
    await makeNamespace('rq-pvc');
    await makeQuota('rq-pvc', 'storage', { hard: { 'requests.storage': '10Gi', persistentvolumeclaims: '5' } });
    const claim = (name: string, size: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: size } } } });
    expect((await send(s, 'POST', '/api/v1/namespaces/rq-pvc/persistentvolumeclaims', claim('a', '8Gi'))).status).toBe(201);
    const r = await send(s, 'POST', '/api/v1/namespaces/rq-pvc/persistentvolumeclaims', claim('b', '4Gi'));
    expect(r.status).toBe(403);
    expect(r.json.message).toBe('persistentvolumeclaims "b" is forbidden: exceeded quota: storage, requested: requests.storage=4Gi, used: requests.storage=8Gi, limited: requests.storage=10Gi');
    expect((await send(s, 'GET', quotaPath('rq-pvc', 'storage'))).json.status.used).toEqual({ persistentvolumeclaims: '1', 'requests.storage': '8Gi' });
  });

  it('counts deployments.apps by count/deployments.apps', async () => {
    await makeNamespace('rq-count');
    await makeQuota('rq-count', 'objects', { hard: { 'count/deployments.apps': '1' } });
    const deploy = (name: string) => ({
      metadata: { name },
      spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    });
    expect((await send(s, 'POST', '/apis/apps/v1/namespaces/rq-count/deployments', deploy('one'))).status).toBe(201);
    const r = await send(s, 'POST', '/apis/apps/v1/namespaces/rq-count/deployments', deploy('two'));
    expect(r.status).toBe(403);
    expect(r.json.message).toBe('deployments.apps "two" is forbidden: exceeded quota: objects, requested: count/deployments.apps=1, used: count/deployments.apps=1, limited: count/deployments.apps=1');
    expect((await send(s, 'DELETE', '/apis/apps/v1/namespaces/rq-count/deployments/one')).status).toBe(200);
    await usedOf('rq-count', 'objects', (u) => u?.['count/deployments.apps'] === '0');
  });

  it('counts load balancers and node ports of services, on create and on a type change', async () => {
    await makeNamespace('rq-svc');
    await makeQuota('rq-svc', 'svc', { hard: { 'services.loadbalancers': '1', 'services.nodeports': '2' } });
    const svc = (name: string, type: string, ports: number[]) => ({ metadata: { name }, spec: { type, selector: { app: name }, ports: ports.map((port) => ({ name: `p${port}`, port })) } });
    expect((await send(s, 'POST', '/api/v1/namespaces/rq-svc/services', svc('lb', 'LoadBalancer', [80]))).status).toBe(201);
    expect((await send(s, 'GET', quotaPath('rq-svc', 'svc'))).json.status.used).toEqual({ 'services.loadbalancers': '1', 'services.nodeports': '1' });
    const second = await send(s, 'POST', '/api/v1/namespaces/rq-svc/services', svc('lb2', 'LoadBalancer', [80]));
    expect(second.status).toBe(403);
    expect(second.json.message).toBe('services "lb2" is forbidden: exceeded quota: svc, requested: services.loadbalancers=1, used: services.loadbalancers=1, limited: services.loadbalancers=1');
    expect((await send(s, 'POST', '/api/v1/namespaces/rq-svc/services', svc('plain', 'ClusterIP', [80, 443]))).status).toBe(201);
    // an update that makes it a NodePort service with two ports needs two node ports more
    const live = (await send(s, 'GET', '/api/v1/namespaces/rq-svc/services/plain')).json;
    const changed = await send(s, 'PUT', '/api/v1/namespaces/rq-svc/services/plain', { ...live, spec: { ...live.spec, type: 'NodePort' } });
    expect(changed.status).toBe(403);
    expect(changed.json.message).toBe('services "plain" is forbidden: exceeded quota: svc, requested: services.nodeports=2, used: services.nodeports=1, limited: services.nodeports=2');
  });

  it('a LimitRange bounds claim sizes; the claims admitted are charged', async () => {
    await makeNamespace('rq-grow');
    await makeQuota('rq-grow', 'storage', { hard: { 'requests.storage': '5Gi' } });
    expect(
      (
        await send(s, 'POST', '/api/v1/namespaces/rq-grow/limitranges', {
          metadata: { name: 'claims' },
          spec: { limits: [{ type: 'PersistentVolumeClaim', min: { storage: '1Gi' }, max: { storage: '4Gi' } }] },
        })
      ).status,
    ).toBe(201);
    const claim = (name: string, size: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: size } } } });
    const small = await send(s, 'POST', '/api/v1/namespaces/rq-grow/persistentvolumeclaims', claim('tiny', '500Mi'));
    expect(small.status).toBe(403);
    expect(small.json.message).toBe('persistentvolumeclaims "tiny" is forbidden: minimum storage usage per PersistentVolumeClaim is 1Gi, but request is 500Mi');
    const big = await send(s, 'POST', '/api/v1/namespaces/rq-grow/persistentvolumeclaims', claim('huge', '8Gi'));
    expect(big.status).toBe(403);
    expect(big.json.message).toBe('persistentvolumeclaims "huge" is forbidden: maximum storage usage per PersistentVolumeClaim is 4Gi, but request is 8Gi');
    expect((await send(s, 'POST', '/api/v1/namespaces/rq-grow/persistentvolumeclaims', claim('data', '3Gi'))).status).toBe(201);
    expect((await send(s, 'POST', '/api/v1/namespaces/rq-grow/persistentvolumeclaims', claim('more', '2Gi'))).status).toBe(201);
    expect((await send(s, 'GET', quotaPath('rq-grow', 'storage'))).json.status.used).toEqual({ 'requests.storage': '5Gi' });
  });

  it('LimitRange defaults land in a Pod with the annotation; over max is refused', async () => {
    await makeNamespace('lr');
    const lr = await send(s, 'POST', '/api/v1/namespaces/lr/limitranges', {
      metadata: { name: 'limits' },
      spec: { limits: [{ type: 'Container', max: { cpu: '1' }, defaultRequest: { cpu: '250m' }, default: { memory: '256Mi' } }] },
    });
    expect(lr.status).toBe(201);
    // upstream's defaulting of the item: default limit from max, default request from the default limit
    expect(lr.json.spec.limits[0]).toMatchObject({ default: { cpu: '1', memory: '256Mi' }, defaultRequest: { cpu: '250m', memory: '256Mi' } });
    const r = await send(s, 'POST', '/api/v1/namespaces/lr/pods', pod('defaults'));
    expect(r.status).toBe(201);
    expect(r.json.spec.containers[0].resources).toEqual({ limits: { cpu: '1', memory: '256Mi' }, requests: { cpu: '250m', memory: '256Mi' } });
    expect(r.json.metadata.annotations['kubernetes.io/limit-ranger']).toBe('LimitRanger plugin set: cpu, memory request for container c; cpu, memory limit for container c');
    const over = await send(s, 'POST', '/api/v1/namespaces/lr/pods', pod('greedy', { resources: { limits: { cpu: '2' } } }));
    expect(over.status).toBe(403);
    expect(over.json).toMatchObject({ reason: 'Forbidden', message: 'pods "greedy" is forbidden: maximum cpu usage per Container is 1, but limit is 2' });
  });
});
