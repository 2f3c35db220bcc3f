// CustomResourceDefinitions of several versions through app.request():
// objects are stored in the storage version and answered in the version of
// each request (GET, LIST, WATCH, write answers); status.storedVersions
// follows storage version changes; a version still in storedVersions cannot
// leave spec.versions; an object stored in an older version reads in every
// version and is rewritten in the new storage version on its next write.
// `None` conversion rewrites apiVersion; `Webhook` conversion is exercised
// with a webhook served here over HTTPS with its own CA (caBundle), which
// renames a field between the versions, and fails on demand (500 with
// upstream's text, the server staying healthy). An object stored in a
// listed but unserved version reads with that version's schema; one stored
// in a version the CRD no longer lists is refused (500 with upstream's
// converter text; an ERROR event in a watch).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually, type Json, watchUntil } from '../support/app-call.ts';
import { startTlsWebhook, type TlsWebhook } from '../support/tls-webhook.ts';

let s: RunningServer;

const call = appCaller(() => s);

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** The object as storage holds it (no conversion on the way). */
const stored = (resource: string, name: string) => s.storage.base.get(`/registry/example.com/${resource}/default/${name}`);

/** The storageVersionHash discovery shows for a resource (changes when the storage version does). */
async function storageHash(version: string, resource: string): Promise<string | undefined> {
  const r = await call('GET', `/apis/example.com/${version}`);
  return r.json.resources?.find((x: Json) => x.name === resource)?.storageVersionHash;
}

const established = (name: string) =>
  eventually(async () => {
    const r = await call('GET', `${CRDS}/${name}`);
    return r.json.status?.conditions?.find((c: Json) => c.type === 'Established' && c.status === 'True') ? r.json : undefined;
  }, `${name} established`);

/** Reads events of a watch until `n` have come. */
const events = (path: string, n: number, during: () => Promise<void>): Promise<Json[]> => watchUntil(s, path, n, during);

const schema = (props: Json) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: props } } } });

function gizmoCrd(storage: 'v1alpha1' | 'v1'): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gizmos.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { kind: 'Gizmo', plural: 'gizmos' },
      versions: [
        { name: 'v1alpha1', served: true, storage: storage === 'v1alpha1', schema: schema({ size: { type: 'integer' } }) },
        { name: 'v1', served: true, storage: storage === 'v1', schema: schema({ size: { type: 'integer' } }) },
      ],
    },
  };
}

const GA = '/apis/example.com/v1alpha1/namespaces/default/gizmos';
const G1 = '/apis/example.com/v1/namespaces/default/gizmos';

// the conversion webhook: renames spec.colour (v1alpha1) to spec.color (v1) and back
let webhook: TlsWebhook | undefined;
let webhookURL = '';
let caBundle = '';
let failWith: string | undefined;
const reviews: Json[] = [];

/** Renames spec.colour and spec.copies (v1alpha1) to spec.color and spec.replicas (v1), and back. */
function convert(o: Json, want: string): Json {
  const { colour, color, copies, replicas, ...rest } = o.spec ?? {};
  const [c, n] = [colour ?? color, copies ?? replicas];
  const v1 = want === 'example.com/v1';
  const spec = { ...rest, ...(c !== undefined ? { [v1 ? 'color' : 'colour']: c } : {}), ...(n !== undefined ? { [v1 ? 'replicas' : 'copies']: n } : {}) };
  return { ...o, apiVersion: want, spec };
}

beforeAll(async () => {
  webhook = await startTlsWebhook(
    (req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const review = JSON.parse(body) as Json;
        reviews.push(review);
        const { uid, desiredAPIVersion, objects } = review.request;
        const response = failWith
          ? { uid, result: { status: 'Failure', message: failWith } }
          : { uid, result: { status: 'Success' }, convertedObjects: (objects as Json[]).map((o) => convert(o, desiredAPIVersion)) };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response }));
      });
    },
    { caName: 'conversion-webhook-ca' },
  );
  caBundle = webhook.caBundle;
  webhookURL = webhook.url('/convert');
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  expect((await call('POST', CRDS, gizmoCrd('v1alpha1'))).status).toBe(201);
  await established('gizmos.example.com');
});
afterAll(async () => {
  await s?.stop();
  await webhook?.close();
});

describe('None conversion', () => {
  it('stores in the storage version and answers in the version of each request', async () => {
    const created = await call('POST', G1, { apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g1' }, spec: { size: 1 } });
    expect(created.status).toBe(201);
    expect(created.json.apiVersion).toBe('example.com/v1');
    expect((await stored('gizmos', 'g1'))?.apiVersion).toBe('example.com/v1alpha1');
    const a = await call('GET', `${GA}/g1`);
    expect([a.json.apiVersion, a.json.spec]).toEqual(['example.com/v1alpha1', { size: 1 }]);
    const b = await call('GET', `${G1}/g1`);
    expect([b.json.apiVersion, b.json.spec]).toEqual(['example.com/v1', { size: 1 }]);
    const patched = await call('PATCH', `${G1}/g1`, { spec: { size: 2 } }, 'application/merge-patch+json');
    expect([patched.status, patched.json.apiVersion, patched.json.spec.size]).toEqual([200, 'example.com/v1', 2]);
  });

  it('lists the same objects through both versions', async () => {
    for (const [path, gv] of [
      [GA, 'example.com/v1alpha1'],
      [G1, 'example.com/v1'],
    ]) {
      const list = (await call('GET', path)).json;
      expect(list.apiVersion).toBe(gv);
      expect(list.items.map((i: Json) => [i.metadata.name, i.apiVersion])).toEqual([['g1', gv]]);
    }
  });

  it('records the storage version in status.storedVersions', async () => {
    expect((await call('GET', `${CRDS}/gizmos.example.com`)).json.status.storedVersions).toEqual(['v1alpha1']);
  });

  it('after a storage version change: old objects read in every version, and are rewritten in the new one on their next write', async () => {
    const before = await storageHash('v1', 'gizmos');
    const live = (await call('GET', `${CRDS}/gizmos.example.com`)).json;
    const updated = await call('PUT', `${CRDS}/gizmos.example.com`, { ...gizmoCrd('v1'), metadata: live.metadata });
    expect(updated.status).toBe(200);
    expect(updated.json.status.storedVersions).toEqual(['v1alpha1', 'v1']);
    await eventually(async () => ((await storageHash('v1', 'gizmos')) !== before ? true : undefined), 'the new storage version served');
    expect((await stored('gizmos', 'g1'))?.apiVersion).toBe('example.com/v1alpha1');
    expect((await call('GET', `${G1}/g1`)).json.apiVersion).toBe('example.com/v1');
    expect((await call('GET', `${GA}/g1`)).json.apiVersion).toBe('example.com/v1alpha1');
    const patched = await call('PATCH', `${GA}/g1`, { spec: { size: 3 } }, 'application/merge-patch+json');
    expect([patched.status, patched.json.apiVersion]).toEqual([200, 'example.com/v1alpha1']);
    expect((await stored('gizmos', 'g1'))?.apiVersion).toBe('example.com/v1');
    const created = await call('POST', GA, { apiVersion: 'example.com/v1alpha1', kind: 'Gizmo', metadata: { name: 'g2' }, spec: { size: 1 } });
    expect(created.json.apiVersion).toBe('example.com/v1alpha1');
    expect((await stored('gizmos', 'g2'))?.apiVersion).toBe('example.com/v1');
  });

  it('watches in the version of the watch', async () => {
    const rv = (await call('GET', GA)).json.metadata.resourceVersion;
    const evs = await events(`${GA}?watch=true&resourceVersion=${rv}&timeoutSeconds=5`, 1, async () => {
      expect((await call('PATCH', `${G1}/g2`, { spec: { size: 9 } }, 'application/merge-patch+json')).status).toBe(200);
    });
    expect([evs[0].type, evs[0].object.apiVersion, evs[0].object.spec.size]).toEqual(['MODIFIED', 'example.com/v1alpha1', 9]);
  });

  it('records the apiVersion of each manager in managedFields (server-side apply in both versions)', async () => {
    const apply = (path: string, gv: string, manager: string, spec: Json) =>
      call('PATCH', `${path}/g3?fieldManager=${manager}`, { apiVersion: gv, kind: 'Gizmo', metadata: { name: 'g3' }, spec }, 'application/apply-patch+yaml');
    expect((await apply(GA, 'example.com/v1alpha1', 'alpha', { size: 1 })).status).toBe(201);
    const second = await apply(G1, 'example.com/v1', 'ga', { size: 1 });
    expect(second.status).toBe(200);
    const managers = (second.json.metadata.managedFields as Json[]).map((m) => [m.manager, m.apiVersion]);
    expect(managers).toEqual([
      ['alpha', 'example.com/v1alpha1'],
      ['ga', 'example.com/v1'],
    ]);
  });

  it('stores in a storage version that is not served', async () => {
    const crd = gizmoCrd('v1');
    crd.metadata.name = 'sprockets.example.com';
    crd.spec.names = { kind: 'Sprocket', plural: 'sprockets' };
    crd.spec.versions = [
      { name: 'v1beta1', served: false, storage: true, schema: schema({ size: { type: 'integer' } }) },
      { name: 'v1', served: true, storage: false, schema: schema({ size: { type: 'integer' } }) },
    ];
    expect((await call('POST', CRDS, crd)).status).toBe(201);
    await established('sprockets.example.com');
    const created = await call('POST', '/apis/example.com/v1/namespaces/default/sprockets', { apiVersion: 'example.com/v1', kind: 'Sprocket', metadata: { name: 's1' }, spec: { size: 1 } });
    expect([created.status, created.json.apiVersion]).toEqual([201, 'example.com/v1']);
    expect((await stored('sprockets', 's1'))?.apiVersion).toBe('example.com/v1beta1');
    expect((await call('GET', '/apis/example.com/v1/namespaces/default/sprockets/s1')).json.apiVersion).toBe('example.com/v1');
    expect((await call('GET', '/apis/example.com/v1beta1/namespaces/default/sprockets/s1')).status).toBe(404);
    // discovery lists the resource without a storageVersionHash, as upstream's discovery controller does
    const listed = (await call('GET', '/apis/example.com/v1')).json.resources.find((x: Json) => x.name === 'sprockets');
    expect(listed).toBeDefined();
    expect(listed.storageVersionHash).toBeUndefined();
    expect(await storageHash('v1', 'gizmos')).toBeDefined();
  });

  it('refuses to drop a version still in status.storedVersions, and allows it once it is gone from there', async () => {
    const live = (await call('GET', `${CRDS}/gizmos.example.com`)).json;
    const onlyV1 = gizmoCrd('v1');
    onlyV1.spec.versions = onlyV1.spec.versions.filter((v: Json) => v.name === 'v1');
    const refused = await call('PUT', `${CRDS}/gizmos.example.com`, { ...onlyV1, metadata: live.metadata });
    expect(refused.status).toBe(422);
    expect(refused.json.reason).toBe('Invalid');
    expect(refused.json.message).toContain(
      'status.storedVersions[0]: Invalid value: "v1alpha1": missing from spec.versions; v1alpha1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1alpha1 and removes v1alpha1 from status.storedVersions',
    );
    // a storage migration: every object rewritten, then the old version dropped from storedVersions
    expect((await call('PUT', `${G1}/g1`, (await call('GET', `${G1}/g1`)).json)).status).toBe(200);
    const status = await call('PATCH', `${CRDS}/gizmos.example.com/status`, { status: { storedVersions: ['v1'] } }, 'application/merge-patch+json');
    expect([status.status, status.json.status.storedVersions]).toEqual([200, ['v1']]);
    const fresh = (await call('GET', `${CRDS}/gizmos.example.com`)).json;
    const allowed = await call('PUT', `${CRDS}/gizmos.example.com`, { ...onlyV1, metadata: fresh.metadata });
    expect(allowed.status).toBe(200);
  });
});

describe('objects stored in a version that is not served, or no longer listed', () => {
  const DD = '/apis/example.com/v1/namespaces/default/doodads';
  const put = (name: string, apiVersion: string, spec: Json) =>
    s.storage.base.create(`/registry/example.com/doodads/default/${name}`, {
      apiVersion,
      kind: 'Doodad',
      metadata: { name, namespace: 'default', uid: `uid-${name}`, creationTimestamp: '2024-01-01T00:00:00Z' },
      spec,
    });

  beforeAll(async () => {
    // v1alpha1 is listed but not served; v1 keeps every field of spec
    const crd = gizmoCrd('v1');
    crd.metadata.name = 'doodads.example.com';
    crd.spec.names = { kind: 'Doodad', plural: 'doodads' };
    crd.spec.versions = [
      { name: 'v1alpha1', served: false, storage: false, schema: schema({ old: { type: 'string' }, d: { type: 'string', default: 'x' } }) },
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } },
    ];
    expect((await call('POST', CRDS, crd)).status).toBe(201);
    await established('doodads.example.com');
  });

  it("reads an object stored in an unserved version with that version's schema: pruned and defaulted there, then converted", async () => {
    await put('old', 'example.com/v1alpha1', { old: 'o', gone: 1 });
    const r = await call('GET', `${DD}/old`);
    expect([r.status, r.json.apiVersion, r.json.spec]).toEqual([200, 'example.com/v1', { old: 'o', d: 'x' }]);
    const list = await call('GET', DD);
    expect(list.json.items.find((i: Json) => i.metadata.name === 'old')?.spec).toEqual({ old: 'o', d: 'x' });
    // an object stored in v1 reads with v1's schema (which keeps everything, defaults nothing)
    await put('new', 'example.com/v1', { gone: 1 });
    expect((await call('GET', `${DD}/new`)).json.spec).toEqual({ gone: 1 });
  });

  it("refuses to read an object stored in a version the CRD no longer lists (500, upstream's converter text)", async () => {
    await put('lost', 'example.com/v0', { a: 1 });
    const text = 'request to convert CR from an invalid group/version: example.com/v0';
    const r = await call('GET', `${DD}/lost`);
    // a plain error upstream: no reason (omitted)
    expect([r.status, r.json.reason, r.json.message]).toEqual([500, undefined, text]);
    const list = await call('GET', DD);
    expect([list.status, list.json.message]).toEqual([500, text]);
    // a watch from the cache's state: the object is an ERROR event, the others are read
    const evs = await events(`${DD}?watch=true&resourceVersion=0`, 3, async () => {});
    expect(evs.map((e) => [e.type, e.object.metadata?.name ?? e.object.message])).toEqual([
      ['ERROR', `Internal error occurred: ${text}`],
      ['ADDED', 'new'],
      ['ADDED', 'old'],
    ]);
    // the others still read, and the server stays healthy
    expect((await call('GET', `${DD}/old`)).status).toBe(200);
    expect((await call('DELETE', `${DD}/old`)).status).toBe(200);
    expect((await call('GET', '/readyz')).status).toBe(200);
  });
});

function gadgetCrd(): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { kind: 'Gadget', plural: 'gadgets' },
      conversion: { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: webhookURL, caBundle } } },
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: false,
          schema: schema({ colour: { type: 'string' }, copies: { type: 'integer' } }),
          subresources: { scale: { specReplicasPath: '.spec.copies', statusReplicasPath: '.status.copies' } },
        },
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: schema({ color: { type: 'string' }, replicas: { type: 'integer' } }),
          subresources: { scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
        },
      ],
    },
  };
}

const DA = '/apis/example.com/v1alpha1/namespaces/default/gadgets';
const D1 = '/apis/example.com/v1/namespaces/default/gadgets';

describe('Webhook conversion', () => {
  beforeAll(async () => {
    expect((await call('POST', CRDS, gadgetCrd())).status).toBe(201);
    await established('gadgets.example.com');
  });

  it('converts a create in v1alpha1 into the storage version v1 through the webhook, and answers in v1alpha1', async () => {
    const created = await call('POST', DA, { apiVersion: 'example.com/v1alpha1', kind: 'Gadget', metadata: { name: 'd1', labels: { a: 'b' } }, spec: { colour: 'red' } });
    expect(created.status).toBe(201);
    expect([created.json.apiVersion, created.json.spec]).toEqual(['example.com/v1alpha1', { colour: 'red' }]);
    const raw = await stored('gadgets', 'd1');
    expect([raw?.apiVersion, raw?.spec]).toEqual(['example.com/v1', { color: 'red' }]);
    expect(reviews.some((r) => r.request.desiredAPIVersion === 'example.com/v1')).toBe(true);
  });

  it('reads, lists and patches in both versions', async () => {
    expect((await call('GET', `${D1}/d1`)).json.spec).toEqual({ color: 'red' });
    expect((await call('GET', `${DA}/d1`)).json.spec).toEqual({ colour: 'red' });
    const list = (await call('GET', DA)).json;
    expect(list.items.map((i: Json) => [i.apiVersion, i.spec])).toEqual([['example.com/v1alpha1', { colour: 'red' }]]);
    const patched = await call('PATCH', `${DA}/d1`, { spec: { colour: 'blue' } }, 'application/merge-patch+json');
    expect([patched.status, patched.json.spec]).toEqual([200, { colour: 'blue' }]);
    expect((await stored('gadgets', 'd1'))?.spec).toEqual({ color: 'blue' });
  });

  it('reads and writes the scale subresource with the paths of the request version', async () => {
    expect((await call('PATCH', `${D1}/d1`, { spec: { replicas: 2 } }, 'application/merge-patch+json')).status).toBe(200);
    expect((await call('GET', `${DA}/d1/scale`)).json.spec).toEqual({ replicas: 2 });
    const scaled = await call('PATCH', `${DA}/d1/scale`, { spec: { replicas: 4 } }, 'application/merge-patch+json');
    expect([scaled.status, scaled.json.spec]).toEqual([200, { replicas: 4 }]);
    expect((await stored('gadgets', 'd1'))?.spec).toEqual({ color: 'blue', replicas: 4 });
    expect((await call('GET', `${DA}/d1`)).json.spec).toEqual({ colour: 'blue', copies: 4 });
  });

  it('watches in v1alpha1 with converted events', async () => {
    const rv = (await call('GET', DA)).json.metadata.resourceVersion;
    const evs = await events(`${DA}?watch=true&resourceVersion=${rv}&timeoutSeconds=5`, 1, async () => {
      expect((await call('PATCH', `${D1}/d1`, { spec: { color: 'green' } }, 'application/merge-patch+json')).status).toBe(200);
    });
    expect([evs[0].type, evs[0].object.apiVersion, evs[0].object.spec]).toEqual(['MODIFIED', 'example.com/v1alpha1', { colour: 'green', copies: 4 }]);
  });

  it('answers 500 with the upstream text when the webhook fails, and stays healthy', async () => {
    failWith = 'the converter is broken';
    try {
      const got = await call('GET', `${DA}/d1`);
      expect(got.status).toBe(500);
      // upstream's converter returns a plain error: no reason, its text as the message
      expect(got.json).toMatchObject({ kind: 'Status', code: 500, message: 'conversion webhook for example.com/v1, Kind=Gadget failed: the converter is broken' });
      expect(got.json.reason).toBeUndefined();
      expect((await call('GET', DA)).status).toBe(500);
      const create = await call('POST', DA, { apiVersion: 'example.com/v1alpha1', kind: 'Gadget', metadata: { name: 'd2' }, spec: { colour: 'red' } });
      expect([create.status, create.json.message]).toEqual([500, 'conversion webhook for example.com/v1alpha1, Kind=Gadget failed: the converter is broken']);
      // the storage version needs no conversion
      expect((await call('GET', `${D1}/d1`)).status).toBe(200);
      expect((await s.app.request('/readyz')).status).toBe(200);
    } finally {
      failWith = undefined;
    }
    expect((await call('GET', `${DA}/d1`)).status).toBe(200);
  });
});

describe('x-kubernetes-validations rules of several versions', () => {
  it('checks an object with the rules of the version it is written in', async () => {
    const ruled = (rule: string | undefined) => ({
      openAPIV3Schema: {
        type: 'object',
        properties: { spec: { type: 'object', properties: { size: { type: 'integer' } }, ...(rule ? { 'x-kubernetes-validations': [{ rule, message: 'too big' }] } : {}) } },
      },
    });
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'rulers.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { kind: 'Ruler', plural: 'rulers' },
        versions: [
          { name: 'v1alpha1', served: true, storage: false, schema: ruled('self.size < 10') },
          { name: 'v1', served: true, storage: true, schema: ruled(undefined) },
        ],
      },
    };
    expect((await call('POST', CRDS, crd)).status).toBe(201);
    await established('rulers.example.com');
    const make = (version: string, name: string) =>
      call('POST', `/apis/example.com/${version}/namespaces/default/rulers`, { apiVersion: `example.com/${version}`, kind: 'Ruler', metadata: { name }, spec: { size: 20 } });
    expect((await make('v1', 'r1')).status).toBe(201);
    const refused = await make('v1alpha1', 'r2');
    expect([refused.status, refused.json.details?.causes?.[0]?.message]).toEqual([422, 'Invalid value: "object": too big']);
  });
});

/**
 * A CRD whose storage version v1alpha1 has a field v1 does not describe
 * (`legacy`) and a default only it has (`fromStorage`), while v1 has a
 * default only it has (`fromRequest`).
 */
function twoSchemaCrd(plural: string, kind: string, strategy: 'None' | 'Webhook'): Json {
  const alpha = { legacy: { type: 'string' }, fromStorage: { type: 'string', default: 'S' }, fromRequest: { type: 'string' } };
  const v1 = { fromStorage: { type: 'string' }, fromRequest: { type: 'string', default: 'R' } };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { kind, plural },
      ...(strategy === 'Webhook' ? { conversion: { strategy, webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: webhookURL, caBundle } } } } : {}),
      versions: [
        { name: 'v1alpha1', served: true, storage: true, schema: schema(alpha) },
        { name: 'v1', served: true, storage: false, schema: schema(v1) },
      ],
    },
  };
}

describe.each(['None', 'Webhook'] as const)('reads in another version than stored (%s conversion)', (strategy) => {
  const plural = strategy === 'None' ? 'doohickeys' : 'thingamajigs';
  const kind = strategy === 'None' ? 'Doohickey' : 'Thingamajig';
  const A = `/apis/example.com/v1alpha1/namespaces/default/${plural}`;
  const V1 = `/apis/example.com/v1/namespaces/default/${plural}`;

  beforeAll(async () => {
    expect((await call('POST', CRDS, twoSchemaCrd(plural, kind, strategy))).status).toBe(201);
    await established(`${plural}.example.com`);
    const made = await eventually(async () => {
      const r = await call('POST', A, { apiVersion: 'example.com/v1alpha1', kind, metadata: { name: 'x1' }, spec: { legacy: 'old' } });
      return r.status === 201 ? r.json : undefined;
    }, `${plural} served`);
    expect(made.spec).toEqual({ legacy: 'old', fromStorage: 'S' });
  });

  it('GET and LIST in v1: pruned to v1 after the conversion, the stored version defaults kept, no v1 defaults (upstream defaults before it converts)', async () => {
    const got = await call('GET', `${V1}/x1`);
    expect([got.json.apiVersion, got.json.spec]).toEqual(['example.com/v1', { fromStorage: 'S' }]);
    const list = (await call('GET', V1)).json;
    expect(list.items.map((i: Json) => i.spec)).toEqual([{ fromStorage: 'S' }]);
    // the stored version keeps what it describes
    expect((await call('GET', `${A}/x1`)).json.spec).toEqual({ legacy: 'old', fromStorage: 'S' });
  });

  it('WATCH in v1: events pruned to v1', async () => {
    const rv = (await call('GET', V1)).json.metadata.resourceVersion;
    const evs = await events(`${V1}?watch=true&resourceVersion=${rv}&timeoutSeconds=5`, 1, async () => {
      expect((await call('PATCH', `${A}/x1`, { metadata: { labels: { w: '1' } } }, 'application/merge-patch+json')).status).toBe(200);
    });
    expect([evs[0].type, evs[0].object.apiVersion, evs[0].object.spec]).toEqual(['MODIFIED', 'example.com/v1', { fromStorage: 'S' }]);
  });

  it('a write in v1 starts from the pruned v1 object and stores what v1alpha1 describes of it', async () => {
    const patched = await call('PATCH', `${V1}/x1`, { metadata: { labels: { p: '1' } } }, 'application/merge-patch+json');
    expect([patched.status, patched.json.spec]).toEqual([200, { fromStorage: 'S', fromRequest: 'R' }]);
    const raw = await stored(plural, 'x1');
    expect([raw?.apiVersion, raw?.spec]).toEqual(['example.com/v1alpha1', { fromStorage: 'S', fromRequest: 'R' }]);
  });
});
