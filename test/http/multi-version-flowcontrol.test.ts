// flowcontrol.apiserver.k8s.io served in v1 and v1beta3 from one store:
// objects are stored once in v1 (the storage version) and answered in the
// version of each request; resourceVersions and watches are shared. The
// PriorityLevelConfiguration shares rule of each version as upstream 1.31:
// v1 keeps an explicit 0; v1beta3 defaults 0 to 30 unless the object
// carries flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares, which
// a v1beta3 read of a stored 0 carries and storage never holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, type Json, watchUntil } from '../support/app-call.ts';

let s: RunningServer;
const call = appCaller(() => s);

const GROUP = 'flowcontrol.apiserver.k8s.io';
const ZERO = 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares';
const plcs = (v: string) => `/apis/${GROUP}/${v}/prioritylevelconfigurations`;
const schemas = (v: string) => `/apis/${GROUP}/${v}/flowschemas`;
/** The object as storage holds it (no conversion on the way). */
async function stored(resource: string, name: string): Promise<Json> {
  const obj = await s.storage.base.get(`/registry/${GROUP}/${resource}/${name}`);
  if (!obj) throw new Error(`${resource}/${name} is not stored`);
  return obj;
}

function plc(v: string, name: string, shares?: number, annotations?: Record<string, string>): Json {
  return {
    apiVersion: `${GROUP}/${v}`,
    kind: 'PriorityLevelConfiguration',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { type: 'Limited', limited: { ...(shares === undefined ? {} : { nominalConcurrencyShares: shares }), limitResponse: { type: 'Reject' } } },
  };
}

/** Reads events of a watch until `n` have come. */
const events = (path: string, n: number, during: () => Promise<void>): Promise<Json[]> => watchUntil(s, path, n, during);

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

describe('PriorityLevelConfiguration nominalConcurrencyShares per version', () => {
  it.each([
    // [name, version written, shares sent, annotation sent, shares read in v1, shares read in v1beta3]
    ['v1 unset gets 30', 'v1', undefined, undefined, 30, 30],
    ['v1 explicit 0 stays 0', 'v1', 0, undefined, 0, 0],
    ['v1beta3 unset gets 30', 'v1beta3', undefined, undefined, 30, 30],
    ['v1beta3 explicit 0 means unset: 30', 'v1beta3', 0, undefined, 30, 30],
    ['v1beta3 0 with the annotation stays 0', 'v1beta3', 0, '', 0, 0],
    ['v1beta3 annotation with any value counts', 'v1beta3', 0, 'true', 0, 0],
    ['v1beta3 7 stays 7', 'v1beta3', 7, undefined, 7, 7],
  ])('%s', async (_name, version, shares, annotation, inV1, inBeta) => {
    const name = `p-${version}-${shares ?? 'unset'}-${annotation === undefined ? 'none' : annotation || 'empty'}`.toLowerCase();
    const created = await call('POST', plcs(version), plc(version, name, shares, annotation === undefined ? undefined : { [ZERO]: annotation }));
    expect(created.status).toBe(201);
    expect(created.json.apiVersion).toBe(`${GROUP}/${version}`);
    const v1 = await call('GET', `${plcs('v1')}/${name}`);
    const beta = await call('GET', `${plcs('v1beta3')}/${name}`);
    expect(v1.json.spec.limited.nominalConcurrencyShares).toBe(inV1);
    expect(beta.json.spec.limited.nominalConcurrencyShares).toBe(inBeta);
    // the zero is marked in v1beta3 only; storage holds v1 without the annotation
    expect(v1.json.metadata.annotations?.[ZERO]).toBeUndefined();
    expect(beta.json.metadata.annotations?.[ZERO]).toBe(inBeta === 0 ? '' : undefined);
    const raw = await stored('prioritylevelconfigurations', name);
    expect(raw.apiVersion).toBe(`${GROUP}/v1`);
    expect(raw.metadata.annotations?.[ZERO]).toBeUndefined();
    expect(v1.json.metadata.resourceVersion).toBe(beta.json.metadata.resourceVersion);
  });

  it('a zero created in v1 survives a v1beta3 PUT of what v1beta3 read, and a merge patch', async () => {
    expect((await call('POST', plcs('v1'), plc('v1', 'keep-zero', 0))).status).toBe(201);
    const read = await call('GET', `${plcs('v1beta3')}/keep-zero`);
    const put = await call('PUT', `${plcs('v1beta3')}/keep-zero`, { ...read.json, metadata: { ...read.json.metadata, labels: { via: 'put' } } });
    expect(put.status).toBe(200);
    expect(put.json.spec.limited.nominalConcurrencyShares).toBe(0);
    const patched = await call('PATCH', `${plcs('v1beta3')}/keep-zero`, { metadata: { labels: { via: 'patch' } } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(patched.json.apiVersion).toBe(`${GROUP}/v1beta3`);
    expect(patched.json.spec.limited.nominalConcurrencyShares).toBe(0);
    expect(patched.json.metadata.annotations).toEqual({ [ZERO]: '' });
    const v1 = await call('GET', `${plcs('v1')}/keep-zero`);
    expect(v1.json.spec.limited.nominalConcurrencyShares).toBe(0);
    expect(v1.json.metadata.labels).toEqual({ via: 'patch' });
    expect(v1.json.metadata.annotations).toBeUndefined();
    expect(v1.json.metadata.resourceVersion).toBe(patched.json.metadata.resourceVersion);
    // and back: a v1 patch, read in v1beta3
    const back = await call('PATCH', `${plcs('v1')}/keep-zero`, { spec: { limited: { nominalConcurrencyShares: 4 } } }, 'application/merge-patch+json');
    expect(back.status).toBe(200);
    const beta = await call('GET', `${plcs('v1beta3')}/keep-zero`);
    expect(beta.json.spec.limited.nominalConcurrencyShares).toBe(4);
    expect(beta.json.metadata.annotations).toBeUndefined();
  });

  it('status written through v1beta3 is read through v1', async () => {
    expect((await call('POST', plcs('v1'), plc('v1', 'with-status', 0))).status).toBe(201);
    const read = await call('GET', `${plcs('v1beta3')}/with-status`);
    const condition = { type: 'ConcurrencyShared', status: 'True', reason: 'Test', message: 'm', lastTransitionTime: '2026-01-01T00:00:00Z' };
    const put = await call('PUT', `${plcs('v1beta3')}/with-status/status`, { ...read.json, status: { conditions: [condition] } });
    expect(put.status).toBe(200);
    const v1 = await call('GET', `${plcs('v1')}/with-status`);
    expect(v1.json.status).toEqual({ conditions: [condition] });
    expect(v1.json.spec.limited.nominalConcurrencyShares).toBe(0);
  });

  it('a LIST in v1beta3 answers every object in v1beta3, marks included', async () => {
    expect((await call('POST', plcs('v1'), plc('v1', 'listed-zero', 0))).status).toBe(201);
    const list = await call('GET', plcs('v1beta3'));
    expect(list.status).toBe(200);
    expect(list.json.apiVersion).toBe(`${GROUP}/v1beta3`);
    for (const item of list.json.items) expect(item.apiVersion).toBe(`${GROUP}/v1beta3`);
    const item = list.json.items.find((i: Json) => i.metadata.name === 'listed-zero');
    expect(item.metadata.annotations).toEqual({ [ZERO]: '' });
    const v1 = await call('GET', plcs('v1'));
    expect(v1.json.metadata.resourceVersion).toBe(list.json.metadata.resourceVersion);
  });

  it('a WATCH in v1beta3 sees writes made through v1, converted, at the same resourceVersions', async () => {
    const start = (await call('GET', plcs('v1'))).json.metadata.resourceVersion;
    let createdRv = '';
    let updatedRv = '';
    const got = await events(`${plcs('v1beta3')}?watch=true&resourceVersion=${start}&fieldSelector=metadata.name=watched`, 2, async () => {
      const c = await call('POST', plcs('v1'), plc('v1', 'watched', 0));
      createdRv = c.json.metadata.resourceVersion;
      const u = await call('PATCH', `${plcs('v1')}/watched`, { spec: { limited: { nominalConcurrencyShares: 9 } } }, 'application/merge-patch+json');
      updatedRv = u.json.metadata.resourceVersion;
    });
    expect(got.map((e) => [e.type, e.object.apiVersion, e.object.metadata.resourceVersion, e.object.spec.limited.nominalConcurrencyShares])).toEqual([
      ['ADDED', `${GROUP}/v1beta3`, createdRv, 0],
      ['MODIFIED', `${GROUP}/v1beta3`, updatedRv, 9],
    ]);
    expect(got[0].object.metadata.annotations).toEqual({ [ZERO]: '' });
    expect(got[1].object.metadata.annotations).toBeUndefined();
  });
});

describe('FlowSchema', () => {
  const fs = (v: string, name: string): Json => ({
    apiVersion: `${GROUP}/${v}`,
    kind: 'FlowSchema',
    metadata: { name },
    spec: {
      priorityLevelConfiguration: { name: 'global-default' },
      matchingPrecedence: 500,
      rules: [{ subjects: [{ kind: 'Group', group: { name: 'g' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] }],
    },
  });

  it('created in v1beta3 is stored in v1 and read in both with one resourceVersion', async () => {
    const created = await call('POST', schemas('v1beta3'), fs('v1beta3', 'from-beta'));
    expect(created.status).toBe(201);
    expect((await stored('flowschemas', 'from-beta')).apiVersion).toBe(`${GROUP}/v1`);
    const v1 = await call('GET', `${schemas('v1')}/from-beta`);
    expect(v1.json.apiVersion).toBe(`${GROUP}/v1`);
    expect(v1.json.spec).toEqual(created.json.spec);
    expect(v1.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
    const patched = await call('PATCH', `${schemas('v1')}/from-beta`, { spec: { matchingPrecedence: 600 } }, 'application/merge-patch+json');
    const beta = await call('GET', `${schemas('v1beta3')}/from-beta`);
    expect(beta.json.apiVersion).toBe(`${GROUP}/v1beta3`);
    expect(beta.json.spec.matchingPrecedence).toBe(600);
    expect(beta.json.metadata.resourceVersion).toBe(patched.json.metadata.resourceVersion);
  });
});
