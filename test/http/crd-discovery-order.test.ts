// Where CRD groups sit in discovery, as the aggregator orders them from
// their APIServices (groupPriorityMinimum 1000, versionPriority 100, set by
// upstream's crd-registration controller): after every built-in group,
// among themselves by group name, and a group's versions by Kubernetes
// version order (GA, then beta, then alpha), in legacy and aggregated
// discovery alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';

let s: RunningServer;
type Json = Record<string, any>;

async function call(path: string, init: RequestInit = {}): Promise<{ status: number; json: Json }> {
  const res = await s.app.request(path, { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  return { status: res.status, json: (res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : { text }) as Json };
}

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const crd = (group: string, versions: string[]) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `things.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { kind: 'Thing', plural: 'things' },
    versions: versions.map((name, i) => ({ name, served: true, storage: i === 0, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } })),
  },
});

const AGGREGATED = { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' };

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
  for (const [group, versions] of [
    ['zz.order.example.com', ['v1']],
    ['aa.order.example.com', ['v1alpha1', 'v1', 'v2beta1', 'v1beta1']],
  ] as const) {
    const r = await call(CRDS, { method: 'POST', body: JSON.stringify(crd(group, [...versions])) });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
  }
  // discovery is ordered by the APIServices, which the CRD controller makes once a CRD is served
  const services = ['v1.zz.order.example.com', 'v1alpha1.aa.order.example.com', 'v1.aa.order.example.com', 'v2beta1.aa.order.example.com', 'v1beta1.aa.order.example.com'];
  for (let i = 0; i < 2000; i++) {
    const present = await Promise.all(services.map(async (n) => (await call(`/apis/apiregistration.k8s.io/v1/apiservices/${n}`)).status === 200));
    if (present.every(Boolean)) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the APIServices of the CRD groups were never made');
});
afterAll(async () => {
  await s?.stop();
});

describe('CRD groups in discovery', () => {
  it('come after the built-in groups, by name, their versions in Kubernetes version order', async () => {
    // the documents are reordered when an APIService changes: wait for that to have happened
    let groups: Json[] = [];
    for (let i = 0; i < 2000; i++) {
      groups = (await call('/apis')).json.groups as Json[];
      if (groups.at(-1)?.name === 'zz.order.example.com') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const names = groups.map((g) => g.name);
    expect(names.slice(-2)).toEqual(['aa.order.example.com', 'zz.order.example.com']);
    const aa = groups.find((g) => g.name === 'aa.order.example.com')!;
    expect(aa.versions.map((v: Json) => v.version)).toEqual(['v1', 'v2beta1', 'v1beta1', 'v1alpha1']);
    expect(aa.preferredVersion.version).toBe('v1');

    const agg = (await call('/apis', { headers: AGGREGATED })).json.items as Json[];
    expect(agg.map((g) => g.metadata.name).slice(-2)).toEqual(['aa.order.example.com', 'zz.order.example.com']);
    expect(agg.find((g) => g.metadata.name === 'aa.order.example.com')!.versions.map((v: Json) => v.version)).toEqual(['v1', 'v2beta1', 'v1beta1', 'v1alpha1']);
  });

  it('have APIServices with upstream priorities', async () => {
    for (const v of ['v1', 'v2beta1', 'v1beta1', 'v1alpha1']) {
      const svc = (await call(`/apis/apiregistration.k8s.io/v1/apiservices/${v}.aa.order.example.com`)).json;
      expect(svc.spec).toMatchObject({ groupPriorityMinimum: 1000, versionPriority: 100 });
    }
  });
});
