// Protocol tests through app.request(): status codes, Status bodies,
// resourceVersion semantics, paging, selectors, negotiation, dry-run and
// field validation — the whole stack without a socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { ROOT_CA_CONFIGMAP, rootCAPublished } from '../support/root-ca.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  // the lists below count ConfigMaps: each namespace also has the published root CA
  for (const ns of ['default', 'kube-public', 'kube-node-lease']) await rootCAPublished(s, ns);
});
afterAll(async () => {
  await s?.stop();
});

const CM = '/api/v1/namespaces/default/configmaps';

async function req(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await s.app.request(path, init);
  const text = res.headers.get('content-encoding') === 'gzip' ? gunzipSync(Buffer.from(await res.arrayBuffer())).toString() : await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

const cm = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...extra }, data: { a: '1' } });

describe('errors are Status objects with upstream codes and texts', () => {
  it('404 for a missing object', async () => {
    const r = await req('GET', `${CM}/missing`);
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
      message: 'configmaps "missing" not found',
      details: { name: 'missing', kind: 'configmaps' },
    });
  });
  it('404 with the group for a named group', async () => {
    const r = await req('GET', '/apis/apps/v1/namespaces/default/deployments/x');
    expect(r.json).toMatchObject({ message: 'deployments.apps "x" not found', details: { group: 'apps', kind: 'deployments' } });
  });
  it('404 for an unknown resource', async () => {
    const r = await req('GET', '/api/v1/namespaces/default/nothings');
    expect(r.status).toBe(404);
    expect(r.json.message).toBe('the server could not find the requested resource');
  });
  it('plain 404 outside the API', async () => {
    const r = await req('GET', '/nowhere');
    expect(r.status).toBe(404);
    expect(r.text).toBe('404 page not found\n');
  });
  it('409 AlreadyExists', async () => {
    expect((await req('POST', CM, cm('dup'))).status).toBe(201);
    const r = await req('POST', CM, cm('dup'));
    expect(r.status).toBe(409);
    expect(r.json).toMatchObject({ reason: 'AlreadyExists', message: 'configmaps "dup" already exists' });
  });
  it('409 Conflict on a stale resourceVersion, 200 on the current one', async () => {
    const created = (await req('POST', CM, cm('rv'))).json;
    const stale = await req('PUT', `${CM}/rv`, { ...cm('rv', { resourceVersion: '1' }), data: { a: '2' } });
    expect(stale.status).toBe(409);
    expect(stale.json.reason).toBe('Conflict');
    expect(stale.json.message).toContain('the object has been modified; please apply your changes to the latest version and try again');
    const fresh = await req('PUT', `${CM}/rv`, { ...cm('rv', { resourceVersion: created.metadata.resourceVersion }), data: { a: '2' } });
    expect(fresh.status).toBe(200);
    expect(Number(fresh.json.metadata.resourceVersion)).toBeGreaterThan(Number(created.metadata.resourceVersion));
  });
  it('422 Invalid with causes for a bad name', async () => {
    const r = await req('POST', CM, cm('Bad_Name'));
    expect(r.status).toBe(422);
    expect(r.json.reason).toBe('Invalid');
    expect(r.json.message).toMatch(/^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
    expect(r.json.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'metadata.name' });
  });
  it('422 when neither name nor generateName is given', async () => {
    const r = await req('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} });
    expect(r.status).toBe(422);
    expect(r.json.message).toContain('metadata.name: Required value: name or generateName is required');
  });
  it('400 for malformed JSON', async () => {
    const r = await req('POST', CM, '{"metadata": {"name": "x",}}');
    expect(r.status).toBe(400);
    expect(r.json.reason).toBe('BadRequest');
    expect(r.json.message).toContain("invalid character '}' looking for beginning of object key string");
  });
  it('400 for malformed YAML', async () => {
    const r = await req('POST', CM, 'metadata: [unclosed', { 'content-type': 'application/yaml' });
    expect(r.status).toBe(400);
  });
  it('400 for a namespace mismatch', async () => {
    const r = await req('POST', CM, cm('x', { namespace: 'other' }));
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('the namespace of the provided object does not match the namespace sent on the request');
  });
  it('400 for a wrong apiVersion or kind', async () => {
    expect((await req('POST', CM, { ...cm('x'), apiVersion: 'apps/v1' })).json.message).toBe('the API version in the data (apps/v1) does not match the expected API version (v1)');
    expect((await req('POST', CM, { ...cm('x'), kind: 'Secret' })).status).toBe(400);
  });
  it('400 for a wrong field type', async () => {
    const r = await req('POST', CM, { ...cm('x'), data: { a: 1 } });
    expect(r.status).toBe(400);
  });
  it('405 for a verb the resource does not have', async () => {
    const r = await req('POST', '/api/v1/componentstatuses', { apiVersion: 'v1', kind: 'ComponentStatus', metadata: { name: 'x' } });
    expect(r.status).toBe(405);
    expect(r.json.reason).toBe('MethodNotAllowed');
  });
  it('406 for an unsupported Accept', async () => {
    const r = await req('GET', CM, undefined, { accept: 'text/html' });
    expect(r.status).toBe(406);
    expect(r.json.reason).toBe('NotAcceptable');
  });
  it('413 for a body over 3 MiB', async () => {
    const big = { ...cm('big'), data: { a: 'x'.repeat(3 * 1024 * 1024 + 10) } };
    const r = await req('POST', CM, big);
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' });
  });
  it('415 for an unknown Content-Type', async () => {
    const r = await req('POST', CM, cm('x'), { 'content-type': 'text/plain' });
    expect(r.status).toBe(415);
    expect(r.json.reason).toBe('UnsupportedMediaType');
    const p = await req('PATCH', `${CM}/dup`, {}, { 'content-type': 'application/json' });
    expect(p.status).toBe(415);
  });
  it('422 for invalid list options', async () => {
    const r = await req('GET', `${CM}?resourceVersionMatch=Exact`);
    expect(r.status).toBe(422);
    expect(r.json.message).toBe('ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided');
    // causes as upstream's NewInvalid builds them: the field apart, the message without it
    expect(r.json.details).toEqual({
      group: 'meta.k8s.io',
      kind: 'ListOptions',
      causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided', field: 'resourceVersionMatch' }],
    });
  });
  it('400 for a bad label selector', async () => {
    const r = await req('GET', `${CM}?labelSelector=${encodeURIComponent('a in (b')}`);
    expect(r.status).toBe(400);
    expect(r.json.reason).toBe('BadRequest');
  });
});

describe('server-set metadata', () => {
  it('sets uid, creationTimestamp, resourceVersion (no generation for a ConfigMap); resolves generateName', async () => {
    const r = await req('POST', CM, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } });
    expect(r.status).toBe(201);
    const md = r.json.metadata;
    expect(md.name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(md.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(md.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(md.resourceVersion).toMatch(/^\d+$/);
    expect(md.generation).toBeUndefined();
  });
  it('refuses resourceVersion on create', async () => {
    const r = await req('POST', CM, cm('withrv', { resourceVersion: '5' }));
    expect(r.status).toBe(400);
  });
  it('bumps generation only when more than metadata changes', async () => {
    const dep = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'gen' },
      spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    const D = '/apis/apps/v1/namespaces/default/deployments';
    const c = await req('POST', D, dep);
    expect(c.json.metadata.generation).toBe(1);
    const labelled = await req('PATCH', `${D}/gen`, { metadata: { labels: { x: 'y' } } }, { 'content-type': 'application/merge-patch+json' });
    expect(labelled.json.metadata.generation).toBe(1);
    const scaled = await req('PATCH', `${D}/gen`, { spec: { replicas: 3 } }, { 'content-type': 'application/merge-patch+json' });
    expect(scaled.json.metadata.generation).toBe(2);
  });
});

describe('PUT on a missing object', () => {
  it('creates where the kind allows it (Lease) and is 404 where it does not (ConfigMap)', async () => {
    const L = '/apis/coordination.k8s.io/v1/namespaces/default/leases';
    const lease = await req('PUT', `${L}/put-made`, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'put-made' }, spec: { holderIdentity: 'me' } });
    expect(lease.status).toBe(201);
    expect(lease.json.metadata.uid).toBeTruthy();
    const again = await req('PUT', `${L}/put-made`, { ...lease.json, spec: { holderIdentity: 'you' } });
    expect(again.status).toBe(200);
    const cmPut = await req('PUT', `${CM}/put-missing`, cm('put-missing'));
    expect(cmPut.status).toBe(404);
  });
});

describe('dry run and field validation', () => {
  it('dryRun=All returns the object without storing it', async () => {
    const r = await req('POST', `${CM}?dryRun=All`, cm('dry'));
    expect(r.status).toBe(201);
    expect(r.json.metadata.uid).toBeTruthy();
    expect((await req('GET', `${CM}/dry`)).status).toBe(404);
    // an unsupported value is refused with the create options (422 on CreateOptions)
    expect((await req('POST', `${CM}?dryRun=Some`, cm('dry'))).status).toBe(422);
  });
  it('Warn (default) warns per unknown and duplicate field and drops unknown ones', async () => {
    const r = await req('POST', CM, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"warned","name":"warned"},"data":{},"extra":1,"more":{"x":1}}');
    expect(r.status).toBe(201);
    const warnings = r.headers.get('warning');
    expect(warnings).toContain('299 - "unknown field \\"extra\\""');
    expect(warnings).toContain('299 - "unknown field \\"more\\""');
    expect(warnings).toContain('299 - "duplicate field \\"metadata.name\\""');
    expect(r.json.extra).toBeUndefined();
  });
  it('Strict refuses unknown and duplicate fields with all of them listed', async () => {
    const r = await req('POST', `${CM}?fieldValidation=Strict`, '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"strict","name":"strict"},"extra":1}');
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "extra", duplicate field "metadata.name"');
  });
  it('Ignore says nothing', async () => {
    const r = await req('POST', `${CM}?fieldValidation=Ignore`, { ...cm('ignored'), extra: 1 });
    expect(r.status).toBe(201);
    expect(r.headers.get('warning')).toBeNull();
  });
});

describe('lists: paging, selectors, resourceVersion', () => {
  beforeAll(async () => {
    for (let i = 0; i < 10; i++) await req('POST', '/api/v1/namespaces/kube-public/configmaps', cm(`p${i}`, { labels: { i: String(i), tier: i < 5 ? 'low' : 'high' } }));
  });
  const P = '/api/v1/namespaces/kube-public/configmaps';
  it("pages with limit and continue, every page at the first page's revision", async () => {
    const first = await req('GET', `${P}?limit=4`);
    expect(first.json.items).toHaveLength(4);
    expect(first.json.metadata.continue).toBeTruthy();
    expect(first.json.metadata.remainingItemCount).toBe(7);
    await req('POST', P, cm('zz-after-first-page'));
    const second = await req('GET', `${P}?limit=4&continue=${encodeURIComponent(first.json.metadata.continue)}`);
    expect(second.json.metadata.resourceVersion).toBe(first.json.metadata.resourceVersion);
    const third = await req('GET', `${P}?limit=4&continue=${encodeURIComponent(second.json.metadata.continue)}`);
    expect(third.json.metadata.continue).toBeUndefined();
    const names = [...first.json.items, ...second.json.items, ...third.json.items].map((o: any) => o.metadata.name);
    expect(names).toEqual([ROOT_CA_CONFIGMAP, 'p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9']);
  });
  it('rejects a garbage continue token', async () => {
    const r = await req('GET', `${P}?limit=4&continue=garbage`);
    expect(r.status).toBe(400);
  });
  it('filters by set-based label selectors', async () => {
    const r = await req('GET', `${P}?labelSelector=${encodeURIComponent('tier=high,i notin (5,6)')}`);
    expect(r.json.items.map((o: any) => o.metadata.name)).toEqual(['p7', 'p8', 'p9']);
  });
  it('lists across all namespaces', async () => {
    const r = await req('GET', '/api/v1/configmaps');
    const namespaces = new Set(r.json.items.map((o: any) => o.metadata.namespace));
    expect(namespaces.has('default')).toBe(true);
    expect(namespaces.has('kube-public')).toBe(true);
  });
  it('serves an exact older resourceVersion', async () => {
    const before = await req('GET', P);
    await req('POST', P, cm('later'));
    const exact = await req('GET', `${P}?resourceVersion=${before.json.metadata.resourceVersion}&resourceVersionMatch=Exact`);
    expect(exact.status).toBe(200);
    expect(exact.json.items.map((o: any) => o.metadata.name)).not.toContain('later');
  });
});

describe('content negotiation', () => {
  it('Table with the resource columns', async () => {
    const r = await req('GET', CM, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(r.json.kind).toBe('Table');
    expect(r.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(r.json.rows[0].object.kind).toBe('PartialObjectMetadata');
  });
  it('Table with includeObject=Object and None', async () => {
    const full = await req('GET', `${CM}?includeObject=Object`, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(full.json.rows[0].object.kind).toBe('ConfigMap');
    const none = await req('GET', `${CM}?includeObject=None`, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(none.json.rows[0].object).toBeUndefined();
  });
  it('PartialObjectMetadataList', async () => {
    const r = await req('GET', CM, undefined, { accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' });
    expect(r.json.kind).toBe('PartialObjectMetadataList');
    expect(r.json.items[0].metadata.name).toBeTruthy();
    expect(r.json.items[0].data).toBeUndefined();
  });
  it('falls back along the Accept list', async () => {
    const r = await req('GET', CM, undefined, { accept: 'application/json;as=Table;v=v9;g=meta.k8s.io, application/json' });
    expect(r.json.kind).toBe('ConfigMapList');
  });
  it('YAML responses', async () => {
    const r = await req('GET', `${CM}/dup`, undefined, { accept: 'application/yaml' });
    expect(r.headers.get('content-type')).toBe('application/yaml');
    expect(r.text).toContain('name: dup');
  });
  it('gzip above 128 KiB only when accepted', async () => {
    for (let i = 0; i < 30; i++) await req('POST', '/api/v1/namespaces/kube-node-lease/configmaps', { ...cm(`big-${i}`), data: { v: 'x'.repeat(6000) } });
    const L = '/api/v1/namespaces/kube-node-lease/configmaps';
    const gz = await req('GET', L, undefined, { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.json.items.map((o: any) => o.metadata.name).sort()).toEqual([...Array.from({ length: 30 }, (_, i) => `big-${i}`), ROOT_CA_CONFIGMAP].sort());
    const plain = await req('GET', L);
    expect(plain.headers.get('content-encoding')).toBeNull();
    const small = await req('GET', `${CM}/dup`, undefined, { 'accept-encoding': 'gzip' });
    expect(small.headers.get('content-encoding')).toBeNull();
  });
});

describe('deletion', () => {
  it('returns 200 with a Status once gone, with the object while finalizers hold it (deletionTimestamp set)', async () => {
    await req('POST', CM, cm('del1'));
    const d1 = await req('DELETE', `${CM}/del1`);
    expect(d1.status).toBe(200);
    expect(d1.json).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'del1', kind: 'configmaps' } });
    await req('POST', CM, cm('del2', { finalizers: ['example.com/x'] }));
    const d2 = await req('DELETE', `${CM}/del2`);
    expect(d2.status).toBe(200);
    expect(d2.json.metadata.deletionTimestamp).toBeTruthy();
    const add = await req('PATCH', `${CM}/del2`, { metadata: { finalizers: ['example.com/x', 'example.com/y'] } }, { 'content-type': 'application/merge-patch+json' });
    expect(add.status).toBe(422);
    const rm = await req('PATCH', `${CM}/del2`, { metadata: { finalizers: [] } }, { 'content-type': 'application/merge-patch+json' });
    expect(rm.status).toBe(200);
    expect((await req('GET', `${CM}/del2`)).status).toBe(404);
  });
  it('202 only for a pending delete with orphanDependents=false', async () => {
    await req('POST', CM, cm('del3', { finalizers: ['example.com/x'] }));
    const d = await req('DELETE', `${CM}/del3`, { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: false });
    expect(d.status).toBe(202);
    await req('PATCH', `${CM}/del3`, { metadata: { finalizers: null } }, { 'content-type': 'application/merge-patch+json' });
  });
  it('honours uid and resourceVersion preconditions', async () => {
    const c = await req('POST', CM, cm('pre'));
    const bad = await req('DELETE', `${CM}/pre`, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'nope' } });
    expect(bad.status).toBe(409);
    expect(bad.json.message).toContain('Precondition failed: UID in precondition: nope');
    const good = await req('DELETE', `${CM}/pre`, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: c.json.metadata.uid } });
    expect(good.status).toBe(200);
  });
  it('deletes a collection by selector', async () => {
    for (const n of ['dc1', 'dc2', 'dc3']) await req('POST', CM, cm(n, { labels: { dc: n === 'dc3' ? 'keep' : 'go' } }));
    const r = await req('DELETE', `${CM}?labelSelector=dc%3Dgo`);
    expect(r.status).toBe(200);
    expect(r.json.items.map((o: any) => o.metadata.name).sort()).toEqual(['dc1', 'dc2']);
    expect((await req('GET', `${CM}/dc3`)).status).toBe(200);
    expect((await req('GET', `${CM}/dc1`)).status).toBe(404);
  });
});

describe('discovery, version, health', () => {
  it('legacy discovery', async () => {
    expect((await req('GET', '/api')).json).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const v1 = (await req('GET', '/api/v1')).json;
    const cmRes = v1.resources.find((r: any) => r.name === 'configmaps');
    expect(cmRes).toMatchObject({ kind: 'ConfigMap', namespaced: true, shortNames: ['cm'], singularName: 'configmap' });
    expect(cmRes.storageVersionHash).toMatch(/^[A-Za-z0-9+/=]{12}$/);
    const groups = (await req('GET', '/apis')).json;
    expect(groups.groups.find((g: any) => g.name === 'apps').preferredVersion.groupVersion).toBe('apps/v1');
    expect((await req('GET', '/apis/apps')).json.kind).toBe('APIGroup');
    expect((await req('GET', '/apis/apps/v1')).json.resources.some((r: any) => r.name === 'deployments/scale')).toBe(true);
    expect((await req('GET', '/apis/nope')).status).toBe(404);
  });
  it('aggregated discovery', async () => {
    const r = await req('GET', '/apis', undefined, { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json' });
    expect(r.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    const apps = r.json.items.find((g: any) => g.metadata.name === 'apps');
    const dep = apps.versions[0].resources.find((x: any) => x.resource === 'deployments');
    expect(dep).toMatchObject({ scope: 'Namespaced', singularResource: 'deployment', shortNames: ['deploy'] });
    expect(dep.subresources.find((x: any) => x.subresource === 'scale').responseKind).toEqual({ group: 'autoscaling', version: 'v1', kind: 'Scale' });
  });
  it('beta APIs off by default are absent', async () => {
    const v1beta1 = await req('GET', '/apis/networking.k8s.io/v1beta1');
    expect(v1beta1.status).toBe(404);
  });
  it('/version', async () => {
    expect((await req('GET', '/version')).json).toMatchObject({ major: '1', minor: '31' });
  });
  it('health endpoints', async () => {
    expect((await req('GET', '/livez')).text).toBe('ok');
    expect((await req('GET', '/healthz')).text).toBe('ok');
    const v = await req('GET', '/readyz?verbose&exclude=etcd');
    expect(v.text).not.toContain('[+]etcd ok');
    expect(v.text).toContain('[+]ping ok');
    expect((await req('GET', '/readyz/ping')).text).toBe('ok');
    expect((await req('GET', '/readyz/nope')).status).toBe(404);
  });
});
