// An autoscaling/v1 HorizontalPodAutoscaler whose round-trip annotations
// (metrics, current-metrics, conditions) are not JSON, or JSON that is not a
// list of objects (Go's type error for its []v1.MetricSpec, ...): upstream's
// v1-to-internal conversion fails on the annotation's unmarshal while the
// request body is decoded, so the write is a 400 BadRequest naming the kind
// and version, with Go's syntax error; nothing is stored. A JSON or merge
// patch through v1 that writes one fails the patched document's decode (422
// Invalid on the `patch` field); a strategic merge patch, which upstream
// leaves an unclassified 500 of its conversion, gets the same 422 (bad input
// is never a 500 here). Either way the object is left as it was. The behavior
// annotation is the exception: upstream moves only a well-formed one into
// the object and drops it otherwise, so such a write succeeds without it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, type Json } from '../support/app-call.ts';

let s: RunningServer;
const call = appCaller(() => s);

const hpas = (v: string) => `/apis/autoscaling/${v}/namespaces/default/horizontalpodautoscalers`;
const PREFIX = 'HorizontalPodAutoscaler in version "v1" cannot be handled as a HorizontalPodAutoscaler: ';

function v1(name: string, annotations?: Record<string, string>): Json {
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, targetCPUUtilizationPercentage: 50 },
  };
}

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

const cases: [string, string, string][] = [
  ['metrics', 'not-json', `invalid character 'o' in literal null (expecting 'u')`],
  ['metrics', '[{"type":"Pods"', 'unexpected end of JSON input'],
  ['current-metrics', '[1,]', `invalid character ']' looking for beginning of value`],
  ['conditions', '', 'unexpected end of JSON input'],
  ['metrics', '{}', 'json: cannot unmarshal object into Go value of type []v1.MetricSpec'],
  ['current-metrics', '"x"', 'json: cannot unmarshal string into Go value of type []v1.MetricStatus'],
  ['conditions', '[1]', 'json: cannot unmarshal number into Go value of type v1.HorizontalPodAutoscalerCondition'],
];

describe('a v1 HorizontalPodAutoscaler whose annotation is not JSON', () => {
  it.each(cases)('a create with a %s annotation of %j is a 400', async (which, text, detail) => {
    const name = `create-${which}-${cases.findIndex((c) => c[1] === text)}`;
    const r = await call('POST', hpas('v1'), v1(name, { [`autoscaling.alpha.kubernetes.io/${which}`]: text }));
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'BadRequest', code: 400, message: PREFIX + detail });
    expect((await call('GET', `${hpas('v1')}/${name}`)).status).toBe(404);
  });

  it('an update that writes a metrics annotation that is not JSON is a 400 and changes nothing', async () => {
    const created = await call('POST', hpas('v1'), v1('upd'));
    expect(created.status).toBe(201);
    const body = { ...created.json, metadata: { ...created.json.metadata, annotations: { 'autoscaling.alpha.kubernetes.io/metrics': '[' } } };
    const r = await call('PUT', `${hpas('v1')}/upd`, body);
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ reason: 'BadRequest', code: 400, message: PREFIX + 'unexpected end of JSON input' });
    const after = await call('GET', `${hpas('v1')}/upd`);
    expect(after.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
  });

  const GO_ERR = `invalid character 'o' in literal null (expecting 'u')`;
  const notJSON = { metadata: { annotations: { 'autoscaling.alpha.kubernetes.io/metrics': 'nope' } } };

  it.each([
    ['merge', 'application/merge-patch+json', notJSON],
    ['JSON', 'application/json-patch+json', [{ op: 'add', path: '/metadata/annotations', value: notJSON.metadata.annotations }]],
  ])('a %s patch that writes one is a 422 on the patch field, the patched object as its value', async (which, type, patch) => {
    const name = `patch-${which.toLowerCase()}`;
    const created = await call('POST', hpas('v1'), v1(name));
    expect(created.status).toBe(201);
    const r = await call('PATCH', `${hpas('v1')}/${name}`, patch, type);
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422 });
    const cause = r.json.details.causes[0];
    expect(r.json.details.causes).toHaveLength(1);
    expect(cause).toMatchObject({ reason: 'FieldValueInvalid', field: 'patch' });
    expect(r.json.message).toBe(` "" is invalid: patch: ${cause.message}`);
    const prefix = 'Invalid value: "';
    const suffix = `": ${GO_ERR}`;
    expect(cause.message.startsWith(prefix) && cause.message.endsWith(suffix)).toBe(true);
    const patched = JSON.parse(JSON.parse(cause.message.slice(prefix.length - 1, cause.message.length - suffix.length + 1)));
    expect(patched).toMatchObject({ apiVersion: 'autoscaling/v1', metadata: { name, annotations: { 'autoscaling.alpha.kubernetes.io/metrics': 'nope' } } });
    const after = await call('GET', `${hpas('v1')}/${name}`);
    expect(after.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
  });

  it('a strategic merge patch that writes one is the same 422 (upstream: an unclassified 500)', async () => {
    const created = await call('POST', hpas('v1'), v1('patch-smp'));
    expect(created.status).toBe(201);
    const r = await call('PATCH', `${hpas('v1')}/patch-smp`, notJSON, 'application/strategic-merge-patch+json');
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Invalid', code: 422 });
    expect(r.json.details.causes).toHaveLength(1);
    expect(r.json.details.causes[0]).toMatchObject({ reason: 'FieldValueInvalid', field: 'patch' });
    expect(r.json.details.causes[0].message.endsWith(`": ${GO_ERR}`)).toBe(true);
    const after = await call('GET', `${hpas('v1')}/patch-smp`);
    expect(after.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
  });

  it('a behavior annotation that is not JSON is dropped, the write accepted', async () => {
    const r = await call('POST', hpas('v1'), v1('bad-behavior', { 'autoscaling.alpha.kubernetes.io/behavior': '{scaleUp:1}', keep: 'me' }));
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(r.json.metadata.annotations).toEqual({ keep: 'me' });
    const inV2 = await call('GET', `${hpas('v2')}/bad-behavior`);
    expect(inV2.json.metadata.annotations).toEqual({ keep: 'me' });
  });

  it('a valid metrics annotation is still converted', async () => {
    const metrics = JSON.stringify([{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }]);
    const r = await call('POST', hpas('v1'), v1('good', { 'autoscaling.alpha.kubernetes.io/metrics': metrics }));
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    const inV2 = await call('GET', `${hpas('v2')}/good`);
    expect(inV2.json.spec.metrics[0]).toEqual({ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } });
  });
});
