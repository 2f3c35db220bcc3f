// Structural defaulting of custom resources through app.request(), as the
// apiextensions server does it: on the request body (a non-nullable null
// defaulted, a nullable null kept, nulls without a default dropped) and on
// every read from storage: an object stored before a default was added to
// its CRD's schema reads with it (GET, LIST, the Table, WATCH from the
// watch cache and from its history), at any depth (array items,
// additionalProperties, properties under x-kubernetes-preserve-unknown-fields),
// without the default being written back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually, type Json } from '../support/app-call.ts';

let s: RunningServer;

const call = appCaller(() => s);

/** The first `n` events of a watch. */
async function watchEvents(path: string, n: number): Promise<Json[]> {
  const res = await s.app.request(path);
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let text = '';
  while (text.split('\n').length <= n) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  return text
    .split('\n')
    .slice(0, n)
    .map((l) => JSON.parse(l) as Json);
}

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAME = 'gadgets.defaults.example.com';
const G = '/apis/defaults.example.com/v1/namespaces/default/gadgets';

/** The spec schema; `withDefaults` adds the defaults of the second generation. */
function specSchema(withDefaults: boolean): Json {
  const d = (v: unknown) => (withDefaults ? { default: v } : {});
  return {
    type: 'object',
    properties: {
      size: { type: 'integer' },
      mode: { type: 'string', ...d('fast') },
      note: { type: 'string', nullable: true, ...d('none') },
      tags: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, level: { type: 'string', ...d('info') } } } },
      opts: { type: 'object', additionalProperties: { type: 'object', properties: { weight: { type: 'integer', ...d(5) } } } },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { level: { type: 'string', ...d('debug') } } },
    },
  };
}

function crd(withDefaults: boolean): Json {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: NAME },
    spec: {
      group: 'defaults.example.com',
      scope: 'Namespaced',
      names: { kind: 'Gadget', plural: 'gadgets' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: specSchema(withDefaults) } } } }],
    },
  };
}

async function putCrd(withDefaults: boolean): Promise<void> {
  const cur = (await call('GET', `${CRDS}/${NAME}`)).json;
  const next = crd(withDefaults);
  next.metadata.resourceVersion = cur.metadata.resourceVersion;
  expect((await call('PUT', `${CRDS}/${NAME}`, next)).status).toBe(200);
}

const OLD_SPEC = { size: 1, tags: [{ name: 'x' }], opts: { o: {} }, free: { other: 1 } };
const DEFAULTED_SPEC = { size: 1, mode: 'fast', note: 'none', tags: [{ name: 'x', level: 'info' }], opts: { o: { weight: 5 } }, free: { other: 1, level: 'debug' } };

let storedRv = '';

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  expect((await call('POST', CRDS, crd(false))).status).toBe(201);
  const made = await eventually(async () => {
    const r = await call('POST', G, { apiVersion: 'defaults.example.com/v1', kind: 'Gadget', metadata: { name: 'old' }, spec: OLD_SPEC });
    return r.status === 201 ? r.json : undefined;
  }, 'gadgets served');
  expect(made.spec).toEqual(OLD_SPEC);
  storedRv = made.metadata.resourceVersion;
  expect((await call('POST', G, { apiVersion: 'defaults.example.com/v1', kind: 'Gadget', metadata: { name: 'untouched' }, spec: { size: 3 } })).status).toBe(201);
  await putCrd(true);
  await eventually(async () => ((await call('GET', `${G}/old`)).json.spec?.mode === 'fast' ? true : undefined), 'the new schema served');
});
afterAll(async () => {
  await s?.stop();
});

describe('defaults of custom resources', () => {
  it('reads an object stored before its defaults were added with them: GET and LIST', async () => {
    const got = (await call('GET', `${G}/old`)).json;
    expect(got.spec).toEqual(DEFAULTED_SPEC);
    expect(got.metadata.resourceVersion).toBe(storedRv);
    const list = (await call('GET', G)).json;
    expect(list.items.find((i: Json) => i.metadata.name === 'old').spec).toEqual(DEFAULTED_SPEC);
    const exact = (await call('GET', `${G}?resourceVersion=${storedRv}&resourceVersionMatch=Exact`)).json;
    expect(exact.items.find((i: Json) => i.metadata.name === 'old').spec).toEqual(DEFAULTED_SPEC);
  });

  it('reads it with them through WATCH: initial events and history', async () => {
    const initial = await watchEvents(`${G}?watch=true&resourceVersion=0&timeoutSeconds=5`, 1);
    expect(initial[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'old' }, spec: DEFAULTED_SPEC } });
    const replay = await watchEvents(`${G}?watch=true&resourceVersion=${Number(storedRv) - 1}&timeoutSeconds=5`, 1);
    expect(replay[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'old' }, spec: DEFAULTED_SPEC } });
  });

  it('patches the defaulted object: the defaults are stored with the patch', async () => {
    const patched = await call('PATCH', `${G}/old`, { metadata: { labels: { p: '1' } } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.json.spec).toEqual(DEFAULTED_SPEC);
    storedRv = patched.json.metadata.resourceVersion;
  });

  it('defaults a request body: non-nullable nulls defaulted, nullable nulls kept, nulls without a default dropped', async () => {
    const r = await call('POST', G, {
      apiVersion: 'defaults.example.com/v1',
      kind: 'Gadget',
      metadata: { name: 'nulls' },
      spec: { size: null, mode: null, note: null, tags: [{ name: 'y', level: null }], free: { other: null } },
    });
    expect(r.status).toBe(201);
    expect(r.json.spec).toEqual({ mode: 'fast', note: null, tags: [{ name: 'y', level: 'info' }], free: { other: null, level: 'debug' } });
    expect((await call('GET', `${G}/nulls`)).json.spec).toEqual(r.json.spec);
  });

  it('does not write read defaults back: once the schema drops them, an object not written since reads as stored', async () => {
    const untouched = (await call('GET', `${G}/untouched`)).json;
    expect(untouched.spec).toEqual({ size: 3, mode: 'fast', note: 'none' });
    await putCrd(false);
    await eventually(async () => ((await call('GET', `${G}/untouched`)).json.spec?.mode === undefined ? true : undefined), 'the schema without defaults served');
    const again = (await call('GET', `${G}/untouched`)).json;
    expect(again.spec).toEqual({ size: 3 });
    expect(again.metadata.resourceVersion).toBe(untouched.metadata.resourceVersion);
    // what the patch stored keeps the defaults it was written with
    expect((await call('GET', `${G}/old`)).json.spec).toEqual(DEFAULTED_SPEC);
  });
});
