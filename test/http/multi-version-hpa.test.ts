// autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscaler served from one
// store: objects are stored once in v2 (the storage version) and answered in
// the version of each request, with upstream's conversion: v1's
// targetCPUUtilizationPercentage is v2's `Resource cpu Utilization` metric,
// and what v1 cannot say (other metrics, behavior, current metrics,
// conditions) rides in the autoscaling.alpha.kubernetes.io annotations of a
// v1 object. resourceVersions, lists, watches and patches (merge,
// strategic, apply) are shared across the versions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, type Json, watchUntil } from '../support/app-call.ts';

let s: RunningServer;
const call = appCaller(() => s);

const NS = 'default';
const hpas = (v: string) => `/apis/autoscaling/${v}/namespaces/${NS}/horizontalpodautoscalers`;
const METRICS = 'autoscaling.alpha.kubernetes.io/metrics';
const BEHAVIOR = 'autoscaling.alpha.kubernetes.io/behavior';
const CURRENT = 'autoscaling.alpha.kubernetes.io/current-metrics';
const CONDITIONS = 'autoscaling.alpha.kubernetes.io/conditions';
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const cpu = (n: number) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } } });
const pods = { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } };
const behavior = { scaleDown: { stabilizationWindowSeconds: 120 } };

function v1(name: string, spec: Json = {}, annotations?: Record<string, string>): Json {
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, ...(annotations ? { annotations } : {}) },
    spec: { scaleTargetRef: ref, maxReplicas: 5, ...spec },
  };
}
function v2(name: string, spec: Json = {}): Json {
  return { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name }, spec: { scaleTargetRef: ref, maxReplicas: 5, ...spec } };
}

/** The object as storage holds it (no conversion on the way). */
async function stored(name: string): Promise<Json> {
  const obj = await s.storage.base.get(`/registry/autoscaling/horizontalpodautoscalers/${NS}/${name}`);
  if (!obj) throw new Error(`${name} is not stored`);
  return obj;
}
const annotationJson = (o: Json, key: string): unknown => JSON.parse(o.metadata.annotations[key] as string);

/** Reads events of a watch until `n` have come. */
const events = (path: string, n: number, during: () => Promise<void>): Promise<Json[]> => watchUntil(s, path, n, during);

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

describe('HorizontalPodAutoscaler in autoscaling/v1 and v2', () => {
  it('created in v1 is stored in v2 and read in both with one resourceVersion; v1 defaults minReplicas', async () => {
    const created = await call('POST', hpas('v1'), v1('from-v1', { targetCPUUtilizationPercentage: 50 }));
    expect(created.status).toBe(201);
    expect(created.json.apiVersion).toBe('autoscaling/v1');
    expect(created.json.spec).toEqual({ scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 50 });
    const raw = await stored('from-v1');
    expect(raw.apiVersion).toBe('autoscaling/v2');
    expect(raw.spec.metrics).toEqual([cpu(50)]);
    expect(raw.metadata.annotations).toBeUndefined();
    const inV2 = await call('GET', `${hpas('v2')}/from-v1`);
    expect(inV2.json.spec).toEqual({ scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, metrics: [cpu(50)] });
    const inV1 = await call('GET', `${hpas('v1')}/from-v1`);
    expect(inV1.json).toEqual(created.json);
    expect(inV2.json.metadata.resourceVersion).toBe(created.json.metadata.resourceVersion);
  });

  it('a v1 object without a CPU target gets 80% in both versions (the metric v2 defaults when none is given)', async () => {
    expect((await call('POST', hpas('v1'), v1('no-target'))).status).toBe(201);
    expect((await call('GET', `${hpas('v2')}/no-target`)).json.spec.metrics).toEqual([cpu(80)]);
    expect((await call('GET', `${hpas('v1')}/no-target`)).json.spec.targetCPUUtilizationPercentage).toBe(80);
  });

  it('created in v2 with metrics v1 lacks, read in v1: the CPU target as the field, the rest in annotations; and back', async () => {
    const created = await call('POST', hpas('v2'), v2('from-v2', { metrics: [pods, cpu(70)], behavior }));
    expect(created.status).toBe(201);
    const inV1 = await call('GET', `${hpas('v1')}/from-v2`);
    expect(inV1.json.apiVersion).toBe('autoscaling/v1');
    expect(inV1.json.spec.targetCPUUtilizationPercentage).toBe(70);
    expect(annotationJson(inV1.json, METRICS)).toEqual([{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }]);
    expect(annotationJson(inV1.json, BEHAVIOR)).toEqual({
      ScaleUp: {
        StabilizationWindowSeconds: 0,
        SelectPolicy: 'Max',
        Policies: [
          { Type: 'Pods', Value: 4, PeriodSeconds: 15 },
          { Type: 'Percent', Value: 100, PeriodSeconds: 15 },
        ],
      },
      ScaleDown: { StabilizationWindowSeconds: 120, SelectPolicy: 'Max', Policies: [{ Type: 'Percent', Value: 100, PeriodSeconds: 15 }] },
    });
    // a PUT in v1 of what v1 read changes nothing stored
    const put = await call('PUT', `${hpas('v1')}/from-v2`, inV1.json);
    expect(put.status).toBe(200);
    const inV2 = await call('GET', `${hpas('v2')}/from-v2`);
    expect(inV2.json.spec).toEqual(created.json.spec);
    expect(inV2.json.metadata.annotations).toBeUndefined();
  });

  it.each([
    ['a merge patch', 'application/merge-patch+json', { spec: { maxReplicas: 9 } }],
    ['a strategic merge patch', 'application/strategic-merge-patch+json', { spec: { maxReplicas: 9 } }],
    ['a JSON patch', 'application/json-patch+json', [{ op: 'replace', path: '/spec/maxReplicas', value: 9 }]],
  ])('%s in v1 of an object with v2-only metrics keeps them', async (name, type, patch) => {
    const obj = `patched-${type.split('/')[1].split('+')[0]}`;
    expect((await call('POST', hpas('v2'), v2(obj, { metrics: [pods, cpu(70)], behavior }))).status).toBe(201);
    const patched = await call('PATCH', `${hpas('v1')}/${obj}`, patch, type);
    expect(patched.status, name).toBe(200);
    expect(patched.json.apiVersion).toBe('autoscaling/v1');
    expect(patched.json.spec.maxReplicas).toBe(9);
    const inV2 = await call('GET', `${hpas('v2')}/${obj}`);
    expect(inV2.json.spec.maxReplicas).toBe(9);
    expect(inV2.json.spec.metrics).toEqual([pods, cpu(70)]);
    expect(inV2.json.spec.behavior.scaleDown.stabilizationWindowSeconds).toBe(120);
    expect(inV2.json.metadata.resourceVersion).toBe(patched.json.metadata.resourceVersion);
  });

  it('a server-side apply in v1 changes the CPU target and keeps the v2-only metrics', async () => {
    expect((await call('POST', hpas('v2'), v2('applied', { metrics: [pods, cpu(70)] }))).status).toBe(201);
    const config = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'applied' }, spec: { scaleTargetRef: ref, maxReplicas: 5, targetCPUUtilizationPercentage: 40 } };
    const applied = await call('PATCH', `${hpas('v1')}/applied?fieldManager=tester&force=true`, config, 'application/apply-patch+yaml');
    expect(applied.status).toBe(200);
    expect(applied.json.spec.targetCPUUtilizationPercentage).toBe(40);
    const inV2 = await call('GET', `${hpas('v2')}/applied`);
    expect(inV2.json.spec.metrics).toEqual([pods, cpu(40)]);
  });

  it('status written through v1 is read through v2, and v2 status in v1 carries the current metrics and conditions', async () => {
    expect((await call('POST', hpas('v2'), v2('with-status', { metrics: [cpu(60)] }))).status).toBe(201);
    const read = await call('GET', `${hpas('v1')}/with-status`);
    const put = await call('PUT', `${hpas('v1')}/with-status/status`, { ...read.json, status: { currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 45 } });
    expect(put.status).toBe(200);
    const inV2 = await call('GET', `${hpas('v2')}/with-status`);
    expect(inV2.json.status).toEqual({ currentReplicas: 2, desiredReplicas: 3, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 45 } } }] });
    // what an HPA controller writes in v2
    const condition = { type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'ReadyForNewScale', message: 'ok' };
    const current = { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 45, averageValue: '120m' } } };
    const put2 = await call('PUT', `${hpas('v2')}/with-status/status`, { ...inV2.json, status: { currentReplicas: 2, desiredReplicas: 3, currentMetrics: [current], conditions: [condition] } });
    expect(put2.status).toBe(200);
    const inV1 = await call('GET', `${hpas('v1')}/with-status`);
    expect(inV1.json.status).toEqual({ currentReplicas: 2, desiredReplicas: 3, currentCPUUtilizationPercentage: 45 });
    expect(annotationJson(inV1.json, CURRENT)).toEqual([{ type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 45, currentAverageValue: '120m' } }]);
    expect(annotationJson(inV1.json, CONDITIONS)).toEqual([condition]);
  });

  it('a LIST in v1 answers every object in v1 at the resourceVersion of a v2 LIST', async () => {
    const list = await call('GET', hpas('v1'));
    expect(list.status).toBe(200);
    expect(list.json.kind).toBe('HorizontalPodAutoscalerList');
    expect(list.json.apiVersion).toBe('autoscaling/v1');
    expect(list.json.items.length).toBeGreaterThan(0);
    for (const item of list.json.items) {
      expect(item.apiVersion).toBe('autoscaling/v1');
      expect(item.spec.metrics).toBeUndefined();
    }
    const listV2 = await call('GET', hpas('v2'));
    expect(listV2.json.metadata.resourceVersion).toBe(list.json.metadata.resourceVersion);
    expect(listV2.json.items.map((i: Json) => i.metadata.name)).toEqual(list.json.items.map((i: Json) => i.metadata.name));
  });

  it('a WATCH in v1 sees writes made through v2, converted, at the same resourceVersions', async () => {
    const start = (await call('GET', hpas('v2'))).json.metadata.resourceVersion;
    let createdRv = '';
    let updatedRv = '';
    const got = await events(`${hpas('v1')}?watch=true&resourceVersion=${start}&fieldSelector=metadata.name=watched`, 2, async () => {
      const c = await call('POST', hpas('v2'), v2('watched', { metrics: [pods] }));
      createdRv = c.json.metadata.resourceVersion;
      const u = await call('PATCH', `${hpas('v2')}/watched`, { spec: { metrics: [pods, cpu(33)] } }, 'application/merge-patch+json');
      updatedRv = u.json.metadata.resourceVersion;
    });
    expect(got.map((e) => [e.type, e.object.apiVersion, e.object.metadata.resourceVersion, e.object.spec.targetCPUUtilizationPercentage])).toEqual([
      ['ADDED', 'autoscaling/v1', createdRv, undefined],
      ['MODIFIED', 'autoscaling/v1', updatedRv, 33],
    ]);
    for (const e of got) expect(annotationJson(e.object, METRICS)).toEqual([{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }]);
  });

  it('a Table in v1 shows what a Table in v2 shows', async () => {
    expect((await call('POST', hpas('v2'), v2('tabled', { metrics: [pods, cpu(70)] }))).status).toBe(201);
    const accept = { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };
    const t1 = await call('GET', `${hpas('v1')}/tabled`, undefined, undefined, accept);
    const t2 = await call('GET', `${hpas('v2')}/tabled`, undefined, undefined, accept);
    expect(t1.json.kind).toBe('Table');
    expect(t1.json.columnDefinitions.map((c: Json) => c.name)).toEqual(t2.json.columnDefinitions.map((c: Json) => c.name));
    expect(t1.json.rows[0].cells.slice(0, -1)).toEqual(t2.json.rows[0].cells.slice(0, -1));
    expect(t2.json.rows[0].cells[2]).toBe('<unknown>/10, cpu: <unknown>/70%');
  });

  it('discovery serves both versions, v2 preferred', async () => {
    const group = await call('GET', '/apis/autoscaling');
    expect(group.json.preferredVersion.version).toBe('v2');
    expect(group.json.versions.map((v: Json) => v.version)).toEqual(['v2', 'v1']);
    const v1List = await call('GET', '/apis/autoscaling/v1');
    expect(v1List.json.resources.map((r: Json) => r.name)).toEqual(['horizontalpodautoscalers', 'horizontalpodautoscalers/status']);
  });
});
