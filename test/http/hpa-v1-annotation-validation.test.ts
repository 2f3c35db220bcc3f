// autoscaling/v1 HorizontalPodAutoscalers carry v2's metrics in the
// autoscaling.alpha.kubernetes.io/metrics annotation; upstream validates the
// converted (internal) object, so a bad metric there is a 422 with v2's
// field path (the annotation's metrics come first, then v1's CPU target),
// on create and on update, and the same metric written through v2 gets the
// same answer. A good one round-trips through v2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, type Json } from '../support/app-call.ts';

let s: RunningServer;
const call = appCaller(() => s);

const NS = 'default';
const hpas = (v: string) => `/apis/autoscaling/${v}/namespaces/${NS}/horizontalpodautoscalers`;
const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

function v1(name: string, metrics?: unknown): Json {
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, ...(metrics === undefined ? {} : { annotations: { [METRICS]: typeof metrics === 'string' ? metrics : JSON.stringify(metrics) } }) },
    spec: { scaleTargetRef: ref, maxReplicas: 5, targetCPUUtilizationPercentage: 50 },
  };
}

const zeroMemory = [{ type: 'Resource', resource: { name: 'memory', targetAverageUtilization: 0 } }];
const qps = [{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }];
const PATH = 'spec.metrics[0].resource.target.averageUtilization';

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

describe('autoscaling/v1 metrics in the annotation are validated as v2 metrics', () => {
  it('a create with a bad metric in the annotation is a 422 with the v2 field path', async () => {
    const r = await call('POST', hpas('v1'), v1('bad-util', zeroMemory));
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      code: 422,
      message: `HorizontalPodAutoscaler.autoscaling "bad-util" is invalid: ${PATH}: Invalid value: 0: must be greater than 0`,
      details: { name: 'bad-util', group: 'autoscaling', kind: 'HorizontalPodAutoscaler', causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: 0: must be greater than 0', field: PATH }] },
    });
    expect((await call('GET', `${hpas('v1')}/bad-util`)).status).toBe(404);
  });

  it('the same metric written through v2 gets the same answer', async () => {
    const r = await call('POST', hpas('v2'), {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'bad-util-v2' },
      spec: { scaleTargetRef: ref, maxReplicas: 5, metrics: [{ type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 0 } } }] },
    });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(`HorizontalPodAutoscaler.autoscaling "bad-util-v2" is invalid: ${PATH}: Invalid value: 0: must be greater than 0`);
  });

  it('an update that puts a bad metric in the annotation is a 422', async () => {
    const created = await call('POST', hpas('v1'), v1('later-bad'));
    expect(created.status).toBe(201);
    const updated = { ...created.json, metadata: { ...created.json.metadata, annotations: { [METRICS]: JSON.stringify(zeroMemory) } } };
    const r = await call('PUT', `${hpas('v1')}/later-bad`, updated);
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(`HorizontalPodAutoscaler.autoscaling "later-bad" is invalid: ${PATH}: Invalid value: 0: must be greater than 0`);
  });

  it('a good metric in the annotation round-trips through v2', async () => {
    const created = await call('POST', hpas('v1'), v1('good', qps));
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const inV2 = await call('GET', `${hpas('v2')}/good`);
    expect(inV2.json.spec.metrics).toEqual([
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
    ]);
    expect(inV2.json.metadata.annotations).toBeUndefined();
    const back = await call('PUT', `${hpas('v2')}/good`, inV2.json);
    expect(back.status).toBe(200);
    const inV1 = await call('GET', `${hpas('v1')}/good`);
    expect(inV1.json.spec.targetCPUUtilizationPercentage).toBe(50);
    expect(JSON.parse(inV1.json.metadata.annotations[METRICS])).toEqual(qps);
  });

  it('an annotation that is not JSON fails the conversion: 400, nothing stored (hpa-v1-annotation-json.test.ts has the rest)', async () => {
    const r = await call('POST', hpas('v1'), v1('not-json', '[{"type":'));
    expect(r.status).toBe(400);
    expect(r.json.message).toBe('HorizontalPodAutoscaler in version "v1" cannot be handled as a HorizontalPodAutoscaler: unexpected end of JSON input');
    expect((await call('GET', `${hpas('v2')}/not-json`)).status).toBe(404);
  });
});
