// HorizontalPodAutoscaler validation through the API, as kube-apiserver's:
// the spec's rules (scaleTargetRef, replicas, metrics, behavior) answer 422
// Invalid with upstream's texts through autoscaling/v2 and through v1 (whose
// metrics and behavior travel in annotations, checked with v2's field
// paths); an absent required field is reported by those rules (Go's zero
// value), an error repeated by the rules is named once in the message;
// minReplicas 0 needs the HPAScaleToZero gate, and an object stored with 0
// may keep it once the gate is off; a status write checks its counts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../runtime/index.ts';
import { appCaller, type Json } from '../support/app-call.ts';

let s: RunningServer;
const call = appCaller(() => s);

const NS = 'default';
const hpas = (v: string) => `/apis/autoscaling/${v}/namespaces/${NS}/horizontalpodautoscalers`;
const ref = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };
const SUPPORTED = 'supported values: "ContainerResource", "External", "Object", "Pods", "Resource"';
const external = { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '30' } } };

function v2(name: string, spec: Json): Json {
  return { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name }, spec: { scaleTargetRef: ref, maxReplicas: 5, ...spec } };
}

function v1(name: string, annotations: Record<string, unknown>, spec: Json = {}): Json {
  const texts = Object.fromEntries(Object.entries(annotations).map(([k, v]) => [k, JSON.stringify(v)]));
  return { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name, annotations: texts }, spec: { scaleTargetRef: ref, maxReplicas: 5, ...spec } };
}

/** The message of a 422 Invalid for `name` with these errors. */
const invalid = (name: string, errs: string[]) => `HorizontalPodAutoscaler.autoscaling "${name}" is invalid: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}`;

beforeAll(async () => {
  s = await startServer({ authorizationMode: ['AlwaysAllow'] });
});
afterAll(async () => {
  await s?.stop();
});

describe('autoscaling/v2 HorizontalPodAutoscaler validation', () => {
  it.each<[string, Json, string[]]>([
    ['scaleTargetRef absent', { scaleTargetRef: undefined }, ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value']],
    ['scaleTargetRef name with a slash', { scaleTargetRef: { ...ref, name: 'a/b' } }, [`spec.scaleTargetRef.name: Invalid value: "a/b": may not contain '/'`]],
    [
      'maxReplicas absent',
      { maxReplicas: undefined },
      ['spec.maxReplicas: Invalid value: 0: must be greater than 0', 'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`'],
    ],
    ['maxReplicas below minReplicas', { minReplicas: 4, maxReplicas: 3 }, ['spec.maxReplicas: Invalid value: 3: must be greater than or equal to `minReplicas`']],
    ['minReplicas 0 without the gate', { minReplicas: 0, metrics: [external] }, ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1']],
    [
      'a metric type upstream does not know',
      { metrics: [{ type: 'Custom', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1' } } }] },
      [`spec.metrics[0].type: Unsupported value: "Custom": ${SUPPORTED}`],
    ],
    [
      'an External target value of 0 (printed as Go prints the Quantity)',
      { metrics: [{ type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '0' } } }] },
      [
        'spec.metrics[0].external.target.value: Invalid value: resource.Quantity{i:resource.int64Amount{value:0, scale:0}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"0", Format:"DecimalSI"}: must be positive',
      ],
    ],
    ['a metric without its source', { metrics: [{ type: 'External' }] }, ['spec.metrics[0].external: Required value: must populate information for the given metric source']],
    [
      'a metric with two sources',
      { metrics: [{ ...external, pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1' } } }] },
      ['spec.metrics[0].pods: Forbidden: must populate the given metric source only'],
    ],
    [
      'a metric without a name',
      { metrics: [{ type: 'External', external: { metric: {}, target: { type: 'Value', value: '1' } } }] },
      ['spec.metrics[0].external.metric.name: Required value: must specify a metric name'],
    ],
    [
      'a ContainerResource metric without a container',
      { metrics: [{ type: 'ContainerResource', containerResource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }] },
      ['spec.metrics[0].containerResource.container: Required value: must specify a container'],
    ],
    [
      'a stabilization window above an hour',
      { behavior: { scaleUp: { stabilizationWindowSeconds: 3601 } } },
      ['spec.behavior.scaleUp.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600'],
    ],
    [
      'a selectPolicy upstream does not know',
      { behavior: { scaleDown: { selectPolicy: 'Average' } } },
      ['spec.behavior.scaleDown.selectPolicy: Unsupported value: "Average": supported values: "Disabled", "Max", "Min"'],
    ],
    ['no policies', { behavior: { scaleDown: { policies: [] } } }, ['spec.behavior.scaleDown.policies: Required value: must specify at least one Policy']],
    [
      'a policy without value, and one with a long period',
      {
        behavior: {
          scaleUp: {
            policies: [
              { type: 'Pods', periodSeconds: 15 },
              { type: 'Percent', value: 10, periodSeconds: 1801 },
            ],
          },
        },
      },
      [
        'spec.behavior.scaleUp.policies[0].value: Invalid value: 0: must be greater than zero',
        'spec.behavior.scaleUp.policies[1].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
      ],
    ],
  ])('%s: 422', async (name, spec, errs) => {
    const hpa = `v2-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`.slice(0, 60).replace(/-$/, '');
    const r = await call('POST', hpas('v2'), v2(hpa, spec));
    expect(r.status, JSON.stringify(r.json)).toBe(422);
    expect(r.json).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422, details: { name: hpa, group: 'autoscaling', kind: 'HorizontalPodAutoscaler' } });
    expect(r.json.message).toBe(invalid(hpa, errs));
  });

  it('an unknown metric type is named once in the message and twice in the causes, as upstream reports it twice', async () => {
    const r = await call('POST', hpas('v2'), v2('twice', { metrics: [{ type: 'Custom' }] }));
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(invalid('twice', [`spec.metrics[0].type: Unsupported value: "Custom": ${SUPPORTED}`]));
    const cause = { reason: 'FieldValueNotSupported', message: `Unsupported value: "Custom": ${SUPPORTED}`, field: 'spec.metrics[0].type' };
    expect(r.json.details.causes).toEqual([cause, cause]);
  });

  it('a valid object with every metric source and a behavior is created', async () => {
    const r = await call(
      'POST',
      hpas('v2'),
      v2('every-source', {
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
          { type: 'ContainerResource', containerResource: { name: 'memory', container: 'app', target: { type: 'AverageValue', averageValue: '500Mi' } } },
          { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
          { type: 'Object', object: { describedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main' }, metric: { name: 'rps' }, target: { type: 'Value', value: '2k' } } },
          external,
        ],
        behavior: { scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Disabled', policies: [{ type: 'Percent', value: 50, periodSeconds: 1800 }] } },
      }),
    );
    expect(r.status, JSON.stringify(r.json)).toBe(201);
  });

  it('an update runs the same rules', async () => {
    const created = await call('POST', hpas('v2'), v2('updated', {}));
    expect(created.status).toBe(201);
    const r = await call('PUT', `${hpas('v2')}/updated`, { ...created.json, spec: { ...created.json.spec, minReplicas: 0 } });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(
      invalid('updated', [
        'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
        'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
      ]),
    );
  });

  it('a status write with a negative count is a 422', async () => {
    const created = await call('POST', hpas('v2'), v2('status-counts', {}));
    expect(created.status).toBe(201);
    const r = await call('PUT', `${hpas('v2')}/status-counts/status`, { ...created.json, status: { currentReplicas: -1, desiredReplicas: 1 } });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(invalid('status-counts', ['status.currentReplicas: Invalid value: -1: must be greater than or equal to 0']));
  });
});

describe('autoscaling/v1 HorizontalPodAutoscaler validation (v2 rules, v2 field paths)', () => {
  it('a metric type upstream does not know in the metrics annotation is a 422', async () => {
    const r = await call('POST', hpas('v1'), v1('v1-bad-type', { 'autoscaling.alpha.kubernetes.io/metrics': [{ type: 'Custom' }] }));
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(invalid('v1-bad-type', [`spec.metrics[0].type: Unsupported value: "Custom": ${SUPPORTED}`]));
    expect((await call('GET', `${hpas('v1')}/v1-bad-type`)).status).toBe(404);
  });

  it('a bad behavior in the behavior annotation is a 422 naming spec.behavior', async () => {
    const behavior = { ScaleUp: { StabilizationWindowSeconds: 0, SelectPolicy: 'Max', Policies: [{ Type: 'Nodes', Value: 1, PeriodSeconds: 15 }] } };
    const r = await call('POST', hpas('v1'), v1('v1-bad-behavior', { 'autoscaling.alpha.kubernetes.io/behavior': behavior }));
    expect(r.status, JSON.stringify(r.json)).toBe(422);
    expect(r.json.message).toBe(invalid('v1-bad-behavior', ['spec.behavior.scaleUp.policies[0].type: Unsupported value: "Nodes": supported values: "Percent", "Pods"']));
  });

  it('v1 fields get the same rules: minReplicas 0 and a scaleTargetRef without kind', async () => {
    const r = await call('POST', hpas('v1'), v1('v1-fields', {}, { minReplicas: 0, scaleTargetRef: { name: 'web' } }));
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(
      invalid('v1-fields', [
        'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
        'spec.scaleTargetRef.kind: Required value',
        'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
      ]),
    );
  });

  it('a valid v1 object with metrics and behavior in its annotations is created', async () => {
    const behavior = { ScaleDown: { StabilizationWindowSeconds: 120, SelectPolicy: 'Min', Policies: [{ Type: 'Pods', Value: 1, PeriodSeconds: 60 }] } };
    const metrics = [{ type: 'External', external: { metricName: 'queue', targetValue: '30' } }];
    const r = await call('POST', hpas('v1'), v1('v1-good', { 'autoscaling.alpha.kubernetes.io/behavior': behavior, 'autoscaling.alpha.kubernetes.io/metrics': metrics }));
    expect(r.status, JSON.stringify(r.json)).toBe(201);
  });
});

describe('minReplicas 0 and the HPAScaleToZero gate', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('with the gate minReplicas 0 is allowed; without it an object stored with 0 may keep it and another may not take it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hpa-zero-'));
    dirs.push(dataDir);
    const gated = await startServer({ authorizationMode: ['AlwaysAllow'], dataDir, featureGates: { HPAScaleToZero: true } });
    const onGated = appCaller(() => gated);
    try {
      expect((await onGated('POST', hpas('v2'), v2('zero', { minReplicas: 0 }))).json.message).toBe(
        invalid('zero', ['spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas']),
      );
      expect((await onGated('POST', hpas('v2'), v2('zero', { minReplicas: 0, metrics: [external] }))).status).toBe(201);
      expect((await onGated('POST', hpas('v2'), v2('one', { minReplicas: 1, metrics: [external] }))).status).toBe(201);
    } finally {
      await gated.stop();
    }
    const plain = await startServer({ authorizationMode: ['AlwaysAllow'], dataDir });
    const onPlain = appCaller(() => plain);
    try {
      const zero = (await onPlain('GET', `${hpas('v2')}/zero`)).json;
      const kept = await onPlain('PUT', `${hpas('v2')}/zero`, { ...zero, spec: { ...zero.spec, maxReplicas: 7 } });
      expect(kept.status, JSON.stringify(kept.json)).toBe(200);
      const one = (await onPlain('GET', `${hpas('v2')}/one`)).json;
      const lowered = await onPlain('PUT', `${hpas('v2')}/one`, { ...one, spec: { ...one.spec, minReplicas: 0 } });
      expect(lowered.status).toBe(422);
      expect(lowered.json.message).toBe(invalid('one', ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1']));
    } finally {
      await plain.stop();
    }
  });
});
