// Field ownership is recorded where kube-apiserver records it: on the
// decoded and defaulted object, before mutating admission and before the
// strategy prepares it. The writer owns what it sent and the defaults (the
// spec's and the Go defaulters'), not what a mutating plugin adds, what
// prepare sets (a namespace's kubernetes finalizer, a Job's generated
// selector and labels) or what is allocated (a Service's cluster IPs and IP
// families). A subresource that copies the stored object keeps the
// ownership recorded for the write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import type { AdmissionAttributes } from '../../runtime/admission/chain.ts';

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({
    authorizationMode: ['AlwaysAllow'],
    admissionPlugins: [
      {
        name: 'Labeller',
        admit(a: AdmissionAttributes) {
          if (a.resource === 'configmaps' && a.object) a.object.metadata.labels = { ...a.object.metadata.labels, 'added-by-admission': 'yes' };
        },
      },
    ],
  });
});
afterAll(async () => {
  await s?.stop();
});

type Fields = Record<string, any>;
const send = async (method: string, path: string, body: unknown) => {
  const r = await s.app.request(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await r.json();
  return { status: r.status, json };
};
const owned = (obj: { metadata: { managedFields?: { manager: string; subresource?: string; fieldsV1: Fields }[] } }, manager: string, subresource?: string): Fields =>
  obj.metadata.managedFields?.find((e) => e.manager === manager && e.subresource === subresource)?.fieldsV1 ?? {};

describe("what a create's writer owns", () => {
  it('a Service: its spec defaults, not the allocated cluster IPs or IP families', async () => {
    const res = await send('POST', '/api/v1/namespaces/default/services?fieldManager=me', { metadata: { name: 'mfo' }, spec: { ports: [{ port: 80 }], selector: { a: 'b' } } });
    expect(res.status).toBe(201);
    expect(res.json.spec.clusterIP).toMatch(/^10\./);
    const spec = owned(res.json, 'me')['f:spec'];
    expect(Object.keys(spec).sort()).toEqual(['.', 'f:internalTrafficPolicy', 'f:ports', 'f:selector', 'f:sessionAffinity', 'f:type']);
  });

  it('a Namespace: the name label (a default), not the kubernetes finalizer (prepare)', async () => {
    const res = await send('POST', '/api/v1/namespaces?fieldManager=me', { metadata: { name: 'mfo-ns' } });
    expect(res.status).toBe(201);
    expect(res.json.spec.finalizers).toEqual(['kubernetes']);
    const fields = owned(res.json, 'me');
    expect(fields['f:metadata']['f:labels']['f:kubernetes.io/metadata.name']).toEqual({});
    expect(fields['f:spec']).toBeUndefined();
  });

  it('a Job: its defaults, not the generated selector and template labels', async () => {
    const res = await send('POST', '/apis/batch/v1/namespaces/default/jobs?fieldManager=me', {
      metadata: { name: 'mfo-job' },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'i' }] } } },
    });
    expect(res.status).toBe(201);
    expect(res.json.spec.selector.matchLabels).toBeDefined();
    const spec = owned(res.json, 'me')['f:spec'];
    expect(spec['f:backoffLimit']).toEqual({});
    expect(spec['f:selector']).toBeUndefined();
    expect(spec['f:template']['f:metadata']).toBeUndefined();
  });

  it('a ConfigMap: not the label a mutating plugin added', async () => {
    const res = await send('POST', '/api/v1/namespaces/default/configmaps?fieldManager=me', { metadata: { name: 'mfo-cm', labels: { mine: 'x' } }, data: { a: '1' } });
    expect(res.status).toBe(201);
    expect(res.json.metadata.labels).toEqual({ mine: 'x', 'added-by-admission': 'yes' });
    expect(Object.keys(owned(res.json, 'me')['f:metadata']['f:labels']).sort()).toEqual(['.', 'f:mine']);
  });
});

describe("what an update's writer owns", () => {
  it('through namespaces/finalize (which copies the stored object): the finalizers it wrote', async () => {
    const ns = await send('POST', '/api/v1/namespaces', { metadata: { name: 'mfo-fin' } });
    expect(ns.status).toBe(201);
    const res = await send('PUT', '/api/v1/namespaces/mfo-fin/finalize?fieldManager=fin', { ...ns.json, spec: { finalizers: ['kubernetes', 'example.com/x'] } });
    expect(res.status).toBe(200);
    expect(res.json.spec.finalizers).toEqual(['kubernetes', 'example.com/x']);
    expect(owned(res.json, 'fin', 'finalize')['f:spec']['f:finalizers']).toEqual({});
  });

  it('a PUT of a ConfigMap: not the label a mutating plugin added', async () => {
    const created = await send('POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'mfo-put' }, data: { a: '1' } });
    const body = { ...created.json, metadata: { ...created.json.metadata, labels: { other: 'y' } } };
    delete body.metadata.labels['added-by-admission'];
    const res = await send('PUT', '/api/v1/namespaces/default/configmaps/mfo-put?fieldManager=putter', body);
    expect(res.status).toBe(200);
    expect(Object.keys(owned(res.json, 'putter')['f:metadata']['f:labels'])).toEqual(['f:other']);
  });
});
