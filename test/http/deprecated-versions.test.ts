// Requests to a deprecated version through app.request(): flowcontrol
// v1beta3 (deprecated in 1.29, removed in 1.32) answers every verb, errors
// included, with upstream's Warning (`299 - "<gv> <Kind> is deprecated in
// v1.29+, unavailable in v1.32+; use <gv> <Kind>"`), and the request's
// record carries the deprecated mark and the audit annotations admission
// sees; v1 of the same group does not warn, and discovery still lists
// v1beta3. A CRD's deprecated version warns with its deprecationWarning, or
// apiextensions' default text, by the same rule.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionPlugin } from '../../runtime/admission/chain.ts';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, eventually, type Json } from '../support/app-call.ts';

let s: RunningServer;
const call = appCaller(() => s);

const seen: Record<string, string>[] = [];
const annotations: AdmissionPlugin = {
  name: 'AnnotationRecorder',
  validate(a) {
    if (a.resource === 'flowschemas' && a.operation === 'CREATE') seen.push({ ...(a.auditAnnotations ?? {}) });
  },
};

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'], admissionPlugins: [annotations] });
});
afterAll(async () => {
  await s?.stop();
});

const FC = '/apis/flowcontrol.apiserver.k8s.io';
const WARNING = '299 - "flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema"';
const PLC_WARNING =
  '299 - "flowcontrol.apiserver.k8s.io/v1beta3 PriorityLevelConfiguration is deprecated in v1.29+, unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration"';

const flowSchema = (name: string) => ({
  apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
  kind: 'FlowSchema',
  metadata: { name },
  spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000 },
});

describe('a deprecated built-in version', () => {
  it('warns on every verb, and on errors once the endpoint is reached', async () => {
    const base = `${FC}/v1beta3/flowschemas`;
    const created = await call('POST', base, flowSchema('dep-a'));
    expect(created.status).toBe(201);
    expect(created.headers.get('warning')).toBe(WARNING);
    const steps: [string, string, unknown, string | undefined, number][] = [
      ['GET', `${base}/dep-a`, undefined, undefined, 200],
      ['GET', base, undefined, undefined, 200],
      ['PUT', `${base}/dep-a`, { ...created.json, spec: { ...created.json.spec, matchingPrecedence: 6000 } }, undefined, 200],
      ['PATCH', `${base}/dep-a`, { spec: { matchingPrecedence: 7000 } }, 'application/merge-patch+json', 200],
      ['GET', `${base}/dep-a/status`, undefined, undefined, 200],
      ['GET', `${base}/missing`, undefined, undefined, 404],
      ['POST', base, { ...flowSchema('dep-a') }, undefined, 409],
      ['DELETE', `${base}/dep-a`, undefined, undefined, 200],
      ['DELETE', base, undefined, undefined, 200],
    ];
    for (const [method, path, body, type, status] of steps) {
      const r = await call(method, path, body, type);
      expect({ method, path, status: r.status, warning: r.headers.get('warning') }).toEqual({ method, path, status, warning: WARNING });
    }
    const plc = await call('GET', `${FC}/v1beta3/prioritylevelconfigurations`);
    expect(plc.headers.get('warning')).toBe(PLC_WARNING);
  });

  it('warns on a watch', async () => {
    const res = await s.app.request(`${FC}/v1beta3/flowschemas?watch=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toBe(WARNING);
    await res.body?.cancel();
  });

  it("sets the record's audit annotations", async () => {
    seen.length = 0;
    expect((await call('POST', `${FC}/v1beta3/flowschemas`, flowSchema('dep-b'))).status).toBe(201);
    expect(seen).toEqual([{ 'k8s.io/deprecated': 'true', 'k8s.io/removed-release': '1.32' }]);
  });

  it('does not warn for v1, for a path no route serves, nor for discovery, which still lists v1beta3', async () => {
    const v1 = await call('GET', `${FC}/v1/flowschemas`);
    expect(v1.status).toBe(200);
    expect(v1.headers.get('warning')).toBeNull();
    const noRoute = await call('POST', `${FC}/v1beta3/flowschemas/x/y/z`, {});
    expect(noRoute.status).toBe(404);
    expect(noRoute.headers.get('warning')).toBeNull();
    const disc = await call('GET', `${FC}/v1beta3`);
    expect(disc.headers.get('warning')).toBeNull();
    expect(disc.json.resources.map((r: Json) => r.name)).toContain('flowschemas');
    const group = await call('GET', FC);
    expect(group.json.versions.map((v: Json) => v.version)).toEqual(['v1', 'v1beta3']);
  });
});

describe('a deprecated CRD version', () => {
  const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  const version = (name: string, extra: Json = {}) => ({ name, served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } }, ...extra });

  it('warns with its deprecationWarning or the default text, without a removed release', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { kind: 'Gadget', plural: 'gadgets' },
        versions: [version('v1alpha1', { deprecated: true, deprecationWarning: 'v1alpha1 gadgets go away soon' }), version('v1beta1', { deprecated: true }), version('v1', { storage: true })],
      },
    };
    expect((await call('POST', CRDS, crd)).status).toBe(201);
    await eventually(async () => ((await call('GET', '/apis/example.com/v1/namespaces/default/gadgets')).status === 200 ? true : undefined), 'gadgets served');
    const own = await call('GET', '/apis/example.com/v1alpha1/namespaces/default/gadgets');
    expect(own.headers.get('warning')).toBe('299 - "v1alpha1 gadgets go away soon"');
    const byDefault = await call('GET', '/apis/example.com/v1beta1/namespaces/default/gadgets/none');
    expect(byDefault.status).toBe(404);
    expect(byDefault.headers.get('warning')).toBe('299 - "example.com/v1beta1 Gadget is deprecated; use example.com/v1 Gadget"');
    expect((await call('GET', '/apis/example.com/v1/namespaces/default/gadgets')).headers.get('warning')).toBeNull();
  });
});
