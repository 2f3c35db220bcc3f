// Embedded resources (x-kubernetes-embedded-resource) of a custom resource
// through app.request(), as the apiextensions server handles them: a
// request's embedded metadata is decoded into ObjectMeta (a field of the
// wrong type is 400 with encoding/json's text, unknown fields are dropped
// and reported per fieldValidation), a non-string apiVersion or kind is 400
// where the schema keeps it, the embedded objects are validated on create
// and update (apiVersion and kind required, ObjectMeta's rules: 422 at their
// paths), and an object read from storage has its invalid embedded metadata
// dropped field by field (dropInvalidMetadata), without a write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually, type Json } from '../support/app-call.ts';

let s: RunningServer;
const call = appCaller(() => s);
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const H = '/apis/embed.example.com/v1/namespaces/default/holders';

const EMBEDDED = { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { a: { type: 'string' } } } } };
const FREE = { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true };

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  const r = await call('POST', CRDS, {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'holders.embed.example.com' },
    spec: {
      group: 'embed.example.com',
      scope: 'Namespaced',
      names: { kind: 'Holder', plural: 'holders' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { template: EMBEDDED, free: FREE, many: { type: 'array', items: EMBEDDED } } } } } },
        },
      ],
    },
  });
  expect(r.status).toBe(201);
  await eventually(async () => ((await call('GET', H)).status === 200 ? true : undefined), 'holders served');
});

afterAll(async () => {
  await s?.stop();
});

const holder = (name: string, spec: Json) => ({ apiVersion: 'embed.example.com/v1', kind: 'Holder', metadata: { name }, spec });
const pod = (metadata: Json) => ({ apiVersion: 'v1', kind: 'Pod', metadata });

describe('embedded metadata in requests', () => {
  it('drops unknown metadata fields with a warning (Warn) and keeps ObjectMeta as Go encodes it', async () => {
    const r = await call('POST', `${H}?fieldValidation=Warn`, holder('warned', { template: pod({ name: 'p', bogus: 1, labels: {}, annotations: { a: 'b' } }), free: pod({ other: true }) }));
    expect(r.status).toBe(201);
    expect(r.json.spec.template).toEqual(pod({ name: 'p', annotations: { a: 'b' } }));
    expect(r.json.spec.free).toEqual(pod({}));
    expect(r.headers.get('warning')).toBe('299 - "unknown field \\"spec.free.metadata.other\\"", 299 - "unknown field \\"spec.template.metadata.bogus\\""');
    expect((await call('GET', `${H}/warned`)).json.spec.template.metadata).toEqual({ name: 'p', annotations: { a: 'b' } });
  });

  it('refuses unknown metadata fields under Strict', async () => {
    const r = await call('POST', `${H}?fieldValidation=Strict`, holder('strict', { many: [pod({ name: 'x' }), pod({ nope: 1 })] }));
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('Holder in version "v1" cannot be handled as a Holder: strict decoding error: unknown field "spec.many[1].metadata.nope"');
  });

  it.each([
    [
      'a number name',
      { template: pod({ name: 5 }) },
      'spec.template.metadata: Invalid value: map[string]interface {}{"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string',
    ],
    [
      'a label value that is not a string',
      { template: pod({ labels: { a: 1 } }) },
      'spec.template.metadata: Invalid value: map[string]interface {}{"labels":map[string]interface {}{"a":1}}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string',
    ],
    ['a non-string apiVersion kept by preserve-unknown-fields', { free: { apiVersion: 5, kind: 'Pod' } }, 'spec.free.apiVersion: Invalid value: 5: must be a string'],
  ])('answers 400 for %s', async (_what, spec, text) => {
    const r = await call('POST', H, holder('bad', spec));
    expect(r.status).toBe(400);
    expect(r.json.reason).toBe('BadRequest');
    expect(r.json.message).toBe(`Holder in version "v1" cannot be handled as a Holder: ${text}`);
  });

  it('validates embedded objects on create: 422 with the paths inside the object', async () => {
    const r = await call('POST', H, holder('invalid', { template: { kind: 'Pod', metadata: { name: '..', labels: { 'a b': 'c' } } } }));
    expect(r.status).toBe(422);
    expect(r.json.details.causes.map((c: Json) => `${c.field}: ${c.message}`)).toEqual([
      'spec.template.apiVersion: Required value',
      'spec.template.metadata.name: Invalid value: "..": may not be \'..\'',
      "spec.template.metadata.labels: Invalid value: \"a b\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    ]);
  });

  it('a non-string apiVersion the schema does not describe is pruned, then required', async () => {
    const r = await call('POST', `${H}?fieldValidation=Warn`, holder('pruned', { template: { apiVersion: 1, kind: 'Pod' } }));
    expect(r.status).toBe(422);
    expect(r.json.message).toBe('Holder.embed.example.com "pruned" is invalid: spec.template.apiVersion: Required value');
  });

  it('validates embedded objects on update too', async () => {
    const created = await call('POST', H, holder('updated', { template: pod({ name: 'ok' }) }));
    expect(created.status).toBe(201);
    const r = await call('PUT', `${H}/updated`, { ...created.json, spec: { template: { ...pod({ name: 'ok' }), kind: '' } } });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe('Holder.embed.example.com "updated" is invalid: spec.template.kind: Required value');
  });
});

describe('embedded metadata read from storage', () => {
  it('drops invalid metadata fields on every read, leaving storage as it is', async () => {
    const stored = holder('old', { template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 7, namespace: 'ns', labels: { a: 1 }, junk: 'x' } } });
    await s.storage.base.create('/registry/embed.example.com/holders/default/old', {
      ...stored,
      metadata: { ...stored.metadata, namespace: 'default', uid: 'u-old', creationTimestamp: '2024-01-01T00:00:00Z' },
    });
    const want = { apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns' } };
    expect((await call('GET', `${H}/old`)).json.spec.template).toEqual(want);
    const list = await call('GET', H);
    expect(list.json.items.find((i: Json) => i.metadata.name === 'old').spec.template).toEqual(want);
    const raw = await s.storage.base.get('/registry/embed.example.com/holders/default/old');
    expect(raw?.spec.template.metadata).toEqual({ name: 7, namespace: 'ns', labels: { a: 1 }, junk: 'x' });
  });
});
