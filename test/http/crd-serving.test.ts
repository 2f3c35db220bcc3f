// CustomResourceDefinitions served while the server runs, through
// app.request(): a CRD created through the API is served in the same
// process (discovery and OpenAPI show it, its names and conditions as
// upstream's controllers set them), custom resources are validated,
// pruned, defaulted and served with their subresources, a name conflict
// shows in the conditions, and deleting a CRD deletes its custom resources
// and then stops serving it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually, type Json } from '../support/app-call.ts';

let s: RunningServer;

const call = appCaller(() => s);

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

function widgetCrd(over: Json = {}): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { kind: 'Widget', plural: 'widgets', shortNames: ['wd'], categories: ['all'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
          additionalPrinterColumns: [
            { name: 'Color', type: 'string', jsonPath: '.spec.color' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas', priority: 1 },
          ],
          selectableFields: [{ jsonPath: '.spec.color' }],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  required: ['color'],
                  properties: {
                    color: { type: 'string', enum: ['red', 'blue'] },
                    replicas: { type: 'integer', minimum: 0, default: 1 },
                    ports: {
                      type: 'array',
                      'x-kubernetes-list-type': 'map',
                      'x-kubernetes-list-map-keys': ['name'],
                      items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
                    },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                  },
                },
                status: { type: 'object', properties: { replicas: { type: 'integer' } } },
              },
            },
          },
        },
      ],
      ...over,
    },
  };
}

const established = (name: string) =>
  eventually(async () => {
    const r = await call('GET', `${CRDS}/${name}`);
    return r.json.status?.conditions?.find((c: Json) => c.type === 'Established' && c.status === 'True') ? r.json : undefined;
  }, `${name} established`);

const W = '/apis/example.com/v1/namespaces/default/widgets';

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  const created = await call('POST', CRDS, widgetCrd());
  expect(created.status).toBe(201);
  await established('widgets.example.com');
});
afterAll(async () => {
  await s?.stop();
});

describe('a CRD created through the API', () => {
  it('gets accepted names and the NamesAccepted and Established conditions', async () => {
    const crd = (await call('GET', `${CRDS}/widgets.example.com`)).json;
    expect(crd.status.acceptedNames).toEqual({ kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget', shortNames: ['wd'], categories: ['all'] });
    const conds = Object.fromEntries(crd.status.conditions.map((c: Json) => [c.type, [c.status, c.reason, c.message]]));
    expect(conds).toEqual({ NamesAccepted: ['True', 'NoConflicts', 'no conflicts found'], Established: ['True', 'InitialNamesAccepted', 'the initial names have been accepted'] });
  });

  it('gets an automanaged APIService, as the crd-registration controller keeps them', async () => {
    const svc = await eventually(async () => {
      const r = await call('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.example.com');
      return r.json.status?.conditions?.some((c: Json) => c.type === 'Available' && c.status === 'True') ? r.json : undefined;
    }, 'APIService available');
    expect(svc.metadata.labels).toEqual({ 'kube-aggregator.kubernetes.io/automanaged': 'true' });
    expect(svc.spec).toEqual({ group: 'example.com', version: 'v1', groupPriorityMinimum: 1000, versionPriority: 100 });
    expect(svc.status.conditions.find((c: Json) => c.type === 'Available')).toMatchObject({ reason: 'Local', message: 'Local APIServices are always available' });
  });

  it('shows in legacy and aggregated discovery', async () => {
    const groups = (await call('GET', '/apis')).json;
    expect(groups.groups.find((g: Json) => g.name === 'example.com')).toMatchObject({ preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' } });
    const list = (await call('GET', '/apis/example.com/v1')).json;
    const names = list.resources.map((r: Json) => r.name).sort();
    expect(names).toEqual(['widgets', 'widgets/scale', 'widgets/status']);
    expect(list.resources.find((r: Json) => r.name === 'widgets')).toMatchObject({ kind: 'Widget', namespaced: true, shortNames: ['wd'], categories: ['all'], singularName: 'widget' });
    const agg = (await call('GET', '/apis', undefined, 'application/json', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' })).json;
    expect(agg.items.some((g: Json) => g.metadata.name === 'example.com')).toBe(true);
  });

  it('serves custom resources: create with defaults and pruning, get, list, field selector, patch, status, scale', async () => {
    const created = await call('POST', `${W}?fieldValidation=Warn`, {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w1' },
      spec: { color: 'red', shade: 'dark', extra: { kept: { deep: 1 } } },
    });
    expect(created.status).toBe(201);
    expect(created.json.spec).toEqual({ color: 'red', replicas: 1, extra: { kept: { deep: 1 } } });
    expect(created.headers.get('warning')).toContain('unknown field \\"spec.shade\\"');
    expect(created.json.metadata.generation).toBe(1);
    await call('POST', W, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w2' }, spec: { color: 'blue' } });
    const list = (await call('GET', `${W}?fieldSelector=spec.color%3Dblue`)).json;
    expect(list.kind).toBe('WidgetList');
    expect(list.items.map((i: Json) => i.metadata.name)).toEqual(['w2']);
    const patched = await call('PATCH', `${W}/w1`, { spec: { replicas: 3 } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.json.metadata.generation).toBe(2);
    const status = await call('PATCH', `${W}/w1/status`, { status: { replicas: 2 }, spec: { replicas: 9 } }, 'application/merge-patch+json');
    expect(status.status).toBe(200);
    expect(status.json.status).toEqual({ replicas: 2 });
    expect(status.json.spec.replicas).toBe(3);
    const scale = (await call('GET', `${W}/w1/scale`)).json;
    expect(scale).toMatchObject({ apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 3 }, status: { replicas: 2 } });
    const scaled = await call('PATCH', `${W}/w1/scale`, { spec: { replicas: 5 } }, 'application/merge-patch+json');
    expect(scaled.status).toBe(200);
    expect((await call('GET', `${W}/w1`)).json.spec.replicas).toBe(5);
  });

  it.each<[string, Json, number, string]>([
    ['a value outside the enum', { color: 'green' }, 422, 'Unsupported value: "green": supported values: "red", "blue"'],
    ['a missing required field', {}, 422, 'spec.color: Required value'],
    ['a value below the minimum', { color: 'red', replicas: -1 }, 422, 'spec.replicas'],
    // decoded into unstructured, a wrong type is a schema failure (422 TypeInvalid), not a decode error
    ['a wrong type', { color: 'red', replicas: 'many' }, 422, 'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"'],
  ])('refuses %s', async (_name, spec, code, text) => {
    const r = await call('POST', W, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'bad' }, spec });
    expect(r.status).toBe(code);
    expect(r.json.kind).toBe('Status');
    expect(r.json.message).toContain(text);
  });

  it('refuses unknown fields with fieldValidation=Strict', async () => {
    const r = await call('POST', `${W}?fieldValidation=Strict`, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'strict' }, spec: { color: 'red', shade: 1 } });
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('strict decoding error: unknown field "spec.shade"');
  });

  it('answers a strategic merge patch with 415', async () => {
    const r = await call('PATCH', `${W}/w2`, { spec: { replicas: 2 } }, 'application/strategic-merge-patch+json');
    expect(r.status).toBe(415);
  });

  it('applies server-side with the list-map marker: items merged by key', async () => {
    const apply = (manager: string, ports: Json[]) =>
      call('PATCH', `${W}/w3?fieldManager=${manager}`, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w3' }, spec: { color: 'red', ports } }, 'application/apply-patch+yaml');
    expect((await apply('a', [{ name: 'http', port: 80 }])).status).toBe(201);
    const second = await apply('b', [{ name: 'https', port: 443 }]);
    expect(second.status).toBe(200);
    expect(second.json.spec.ports.map((p: Json) => p.name).sort()).toEqual(['http', 'https']);
  });

  // with additionalPrinterColumns declared, upstream prints Name and those columns only (no Age)
  it('prints the printer columns in a Table, priority 1 columns included', async () => {
    const r = await call('GET', W, undefined, 'application/json', { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(r.status).toBe(200);
    expect(r.json.columnDefinitions.map((c: Json) => [c.name, c.priority])).toEqual([
      ['Name', 0],
      ['Color', 0],
      ['Replicas', 1],
    ]);
    expect(r.json.rows.find((row: Json) => row.object.metadata.name === 'w1').cells).toEqual(['w1', 'red', 5]);
  });

  it('lists the resource in the OpenAPI documents', async () => {
    const v3 = await call('GET', '/openapi/v3/apis/example.com/v1');
    expect(v3.status).toBe(200);
    expect(v3.json.components.schemas['com.example.v1.Widget'].properties.spec.properties.color.enum).toEqual(['red', 'blue']);
    expect(Object.keys(v3.json.paths)).toContain('/apis/example.com/v1/namespaces/{namespace}/widgets/{name}');
    const index = (await call('GET', '/openapi/v3')).json;
    expect(Object.keys(index.paths)).toContain('apis/example.com/v1');
    const v2 = (await call('GET', '/openapi/v2')).json;
    expect(v2.definitions['com.example.v1.Widget']).toBeDefined();
  });
});

describe('name conflicts', () => {
  it('refuses a short name another CRD of the group holds, in the NamesAccepted condition', async () => {
    // (a plural is in the CRD's name, which must be <plural>.<group>: two CRDs of a group cannot share one)
    const other = widgetCrd({ names: { kind: 'Gizmo', plural: 'gizmos', shortNames: ['wd'] } });
    other.metadata.name = 'gizmos.example.com';
    expect((await call('POST', CRDS, other)).status).toBe(201);
    const crd = await eventually(async () => {
      const r = (await call('GET', `${CRDS}/gizmos.example.com`)).json;
      return r.status?.conditions?.some((c: Json) => c.type === 'NamesAccepted') ? r : undefined;
    }, 'conflict reported');
    const conds = Object.fromEntries(crd.status.conditions.map((c: Json) => [c.type, [c.status, c.reason, c.message]]));
    expect(conds.NamesAccepted).toEqual(['False', 'ShortNamesConflict', '"wd" is already in use']);
    expect(conds.Established).toEqual(['False', 'NotAccepted', 'not all names are accepted']);
    expect((await call('DELETE', `${CRDS}/gizmos.example.com`)).status).toBe(200);
  });

  // the last conflict found is the one reported (kind, then list kind), as upstream
  it('refuses a kind a built-in resource of the group serves', async () => {
    // a group under k8s.io needs the api-approved.kubernetes.io annotation
    const crd = widgetCrd({ group: 'networking.k8s.io', names: { kind: 'Ingress', plural: 'ingresses2' } });
    crd.metadata = { name: 'ingresses2.networking.k8s.io', annotations: { 'api-approved.kubernetes.io': 'https://github.com/kubernetes/enhancements/pull/1111' } };
    const created = await call('POST', CRDS, crd);
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const got = await eventually(async () => {
      const r = (await call('GET', `${CRDS}/ingresses2.networking.k8s.io`)).json;
      return r.status?.conditions?.some((c: Json) => c.type === 'NamesAccepted') ? r : undefined;
    }, 'conflict reported');
    expect(got.status.conditions.find((c: Json) => c.type === 'NamesAccepted')).toMatchObject({ status: 'False', reason: 'ListKindConflict', message: '"IngressList" is already in use' });
    expect((await call('GET', '/apis/networking.k8s.io/v1/namespaces/default/ingresses2')).status).toBe(404);
  });
});

describe('deleting a CRD', () => {
  it('deletes its custom resources, then the CRD, then stops serving it', async () => {
    const crd = widgetCrd({ group: 'gone.example.com', names: { kind: 'Thing', plural: 'things' } });
    crd.metadata.name = 'things.gone.example.com';
    expect((await call('POST', CRDS, crd)).status).toBe(201);
    await established('things.gone.example.com');
    const T = '/apis/gone.example.com/v1/namespaces/default/things';
    for (const n of ['a', 'b']) expect((await call('POST', T, { apiVersion: 'gone.example.com/v1', kind: 'Thing', metadata: { name: n }, spec: { color: 'red' } })).status).toBe(201);
    const del = await call('DELETE', `${CRDS}/things.gone.example.com`);
    expect(del.status).toBe(200);
    expect(del.json.metadata.finalizers).toContain('customresourcecleanup.apiextensions.k8s.io');
    expect(del.json.status.conditions.find((c: Json) => c.type === 'Terminating')).toMatchObject({
      status: 'True',
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    });
    await eventually(async () => ((await call('GET', `${CRDS}/things.gone.example.com`)).status === 404 ? true : undefined), 'CRD gone');
    expect((await call('GET', T)).status).toBe(404);
    const groups = (await call('GET', '/apis')).json;
    expect(groups.groups.some((g: Json) => g.name === 'gone.example.com')).toBe(false);
    await eventually(async () => ((await call('GET', '/apis/apiregistration.k8s.io/v1/apiservices/v1.gone.example.com')).status === 404 ? true : undefined), 'APIService removed');
    // created again: the old objects are not back
    expect((await call('POST', CRDS, crd)).status).toBe(201);
    await established('things.gone.example.com');
    expect((await call('GET', T)).json.items).toEqual([]);
  });
});

describe('more of the custom resource protocol', () => {
  const G = '/apis/example.com/v1/namespaces/proto/widgets';
  beforeAll(async () => {
    await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'proto' } });
  });

  it('lists with label selectors, watches, and deletes a collection', async () => {
    for (const [n, tier] of [
      ['l1', 'front'],
      ['l2', 'back'],
    ])
      expect((await call('POST', G, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: n, labels: { tier } }, spec: { color: 'red' } })).status).toBe(201);
    const list = (await call('GET', `${G}?labelSelector=tier%3Dback`)).json;
    expect(list.items.map((i: Json) => i.metadata.name)).toEqual(['l2']);
    const watch = await s.app.request(`${G}?watch=true&resourceVersion=${list.metadata.resourceVersion}&timeoutSeconds=5`);
    expect(watch.status).toBe(200);
    const reader = watch.body!.getReader();
    expect((await call('PATCH', `${G}/l1`, { metadata: { labels: { seen: 'yes' } } }, 'application/merge-patch+json')).status).toBe(200);
    let text = '';
    while (!text.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    const ev = JSON.parse(text.split('\n')[0]) as Json;
    expect(ev.type).toBe('MODIFIED');
    expect(ev.object.metadata.labels).toEqual({ tier: 'front', seen: 'yes' });
    const dc = await call('DELETE', `${G}?labelSelector=tier`);
    expect(dc.status).toBe(200);
    expect((await call('GET', G)).json.items).toEqual([]);
  });

  it('answers protobuf with the next acceptable type, and 406 when only protobuf is acceptable', async () => {
    const both = await call('GET', G, undefined, 'application/json', { accept: 'application/vnd.kubernetes.protobuf, application/json' });
    expect(both.status).toBe(200);
    expect(both.headers.get('content-type')).toContain('application/json');
    const only = await call('GET', G, undefined, 'application/json', { accept: 'application/vnd.kubernetes.protobuf' });
    expect(only.status).toBe(406);
    expect(only.json.kind).toBe('Status');
  });

  it('validates with the new schema once the CRD is updated', async () => {
    const crd = (await call('GET', `${CRDS}/widgets.example.com`)).json;
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.color.enum = ['red', 'blue', 'green'];
    expect((await call('PUT', `${CRDS}/widgets.example.com`, crd)).status).toBe(200);
    await eventually(async () => {
      const r = await call('POST', G, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'green' }, spec: { color: 'green' } });
      return r.status === 201 ? true : undefined;
    }, 'the new enum value accepted');
    const v3 = (await call('GET', '/openapi/v3/apis/example.com/v1')).json;
    expect(v3.components.schemas['com.example.v1.Widget'].properties.spec.properties.color.enum).toEqual(['red', 'blue', 'green']);
  });

  it('refuses creates while the CRD is terminating, and finishes once the last custom resource goes', async () => {
    const crd = widgetCrd({ group: 'held.example.com', names: { kind: 'Held', plural: 'helds' } });
    crd.metadata.name = 'helds.held.example.com';
    expect((await call('POST', CRDS, crd)).status).toBe(201);
    await established('helds.held.example.com');
    const H = '/apis/held.example.com/v1/namespaces/default/helds';
    expect((await call('POST', H, { apiVersion: 'held.example.com/v1', kind: 'Held', metadata: { name: 'h', finalizers: ['example.com/hold'] }, spec: { color: 'red' } })).status).toBe(201);
    expect((await call('DELETE', `${CRDS}/helds.held.example.com`)).status).toBe(200);
    const waiting = await eventually(async () => {
      const r = (await call('GET', `${CRDS}/helds.held.example.com`)).json;
      const t = r.status?.conditions?.find((c: Json) => c.type === 'Terminating');
      return t?.reason === 'InstanceDeletionCheck' ? t : undefined;
    }, 'waiting for the held custom resource');
    expect(waiting).toMatchObject({ status: 'True', message: 'could not confirm zero CustomResources remaining: timed out waiting for the condition' });
    const refused = await call('POST', H, { apiVersion: 'held.example.com/v1', kind: 'Held', metadata: { name: 'late' }, spec: { color: 'red' } });
    expect(refused.status).toBe(405);
    expect(refused.json).toMatchObject({ reason: 'MethodNotAllowed', message: 'create not allowed while custom resource definition is terminating' });
    expect((await call('PATCH', `${H}/h`, { metadata: { finalizers: null } }, 'application/merge-patch+json')).status).toBe(200);
    await eventually(async () => ((await call('GET', `${CRDS}/helds.held.example.com`)).status === 404 ? true : undefined), 'CRD gone');
  });

  it('does not fall over on a CRD it cannot compile, and keeps serving the others', async () => {
    const props: Json = {};
    for (let i = 0; i < 2000; i++) props[`f${i}`] = { type: 'string', pattern: '^[a-z]+$' };
    const big = widgetCrd({ group: 'big.example.com', names: { kind: 'Big', plural: 'bigs' } });
    big.metadata.name = 'bigs.big.example.com';
    big.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties = props;
    big.spec.versions[0].schema.openAPIV3Schema.properties.spec.required = [];
    const r = await call('POST', CRDS, big);
    expect([201, 422]).toContain(r.status);
    if (r.status === 201) {
      await established('bigs.big.example.com');
      const made = await call('POST', '/apis/big.example.com/v1/namespaces/default/bigs', { apiVersion: 'big.example.com/v1', kind: 'Big', metadata: { name: 'b' }, spec: { f1: 'abc', f1999: 'NO' } });
      expect(made.status).toBe(422);
    }
    const odd = widgetCrd({ group: 'odd.example.com', names: { kind: 'Odd', plural: 'odds' } });
    odd.metadata.name = 'odds.odd.example.com';
    odd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.color = { type: 'string', pattern: '(?<=x)[' };
    const o = await call('POST', CRDS, odd);
    expect(o.status).toBeLessThan(500);
    expect((await call('GET', `${W}/w1`)).status).toBe(200);
  });
});

describe('x-kubernetes-validations rules of a CRD served while running', () => {
  const GADGETS = '/apis/example.org/v1/gadgets';
  const gadget = (name: string, spec: Json) => ({ apiVersion: 'example.org/v1', kind: 'Gadget', metadata: { name }, spec });

  beforeAll(async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.org' },
      spec: {
        group: 'example.org',
        scope: 'Cluster',
        names: { kind: 'Gadget', plural: 'gadgets' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min must not exceed max' }],
                    properties: {
                      min: { type: 'integer' },
                      max: { type: 'integer' },
                      owner: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'owner is immutable' }] },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    };
    expect((await call('POST', CRDS, crd)).status).toBe(201);
    await established('gadgets.example.org');
  });

  it('runs the rules on create: a rule that holds admits, one that fails is a 422 with the rule message at its field', async () => {
    expect((await call('POST', GADGETS, gadget('ok', { min: 1, max: 2, owner: 'a' }))).status).toBe(201);
    const bad = await call('POST', GADGETS, gadget('bad', { min: 3, max: 2 }));
    expect(bad.status).toBe(422);
    expect(bad.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "object": min must not exceed max', field: 'spec' }]);
  });

  it('runs transition rules on update only, against the old object', async () => {
    const changed = await call('PATCH', `${GADGETS}/ok`, { spec: { owner: 'b' } }, 'application/merge-patch+json');
    expect(changed.status).toBe(422);
    expect(changed.json.details.causes).toEqual([{ reason: 'FieldValueInvalid', message: 'Invalid value: "string": owner is immutable', field: 'spec.owner' }]);
    expect((await call('PATCH', `${GADGETS}/ok`, { spec: { max: 5 } }, 'application/merge-patch+json')).status).toBe(200);
  });
});

describe('a restarted server', () => {
  it('serves the stored CRDs before it reports ready', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crd-restart-'));
    try {
      let first: RunningServer | undefined = await startServer({ authorizationMode: ['AlwaysAllow'], dataDir: dir });
      const req = (srv: RunningServer, method: string, path: string, body?: unknown) =>
        srv.app.request(path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      expect((await req(first, 'POST', CRDS, widgetCrd())).status).toBe(201);
      for (let i = 0; i < 2000; i++) {
        const c = (await (await req(first, 'GET', `${CRDS}/widgets.example.com`)).json()) as Json;
        if (c.status?.conditions?.some((x: Json) => x.type === 'Established' && x.status === 'True')) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      expect((await req(first, 'POST', W, { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'kept' }, spec: { color: 'red' } })).status).toBe(201);
      await first.stop();
      first = undefined;
      const second = await startServer({ authorizationMode: ['AlwaysAllow'], dataDir: dir });
      try {
        expect((await req(second, 'GET', '/readyz')).status).toBe(200);
        const got = await req(second, 'GET', `${W}/kept`);
        expect(got.status).toBe(200);
        expect(((await got.json()) as Json).spec).toEqual({ color: 'red', replicas: 1 });
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
