// End-to-end with the real kubectl: HorizontalPodAutoscalers of
// autoscaling/v1 and autoscaling/v2 are one set of objects. `kubectl
// autoscale` (kubectl 1.31 builds an autoscaling/v1 object) creates one that
// `kubectl get horizontalpodautoscalers.v2.autoscaling` reads as a CPU
// Utilization metric (the short name `hpa.v1.autoscaling` does not pin the
// version: kubectl expands it to the preferred v2); one created in v1
// without a target reads in v2 as the default CPU metric; one applied in v2
// with a metric v1 lacks reads in v1 with the rest in upstream's
// annotations, and prints the same in both versions.
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlSession, ok, type KubectlSession } from '../support/kubectl.ts';

const V1 = 'horizontalpodautoscalers.v1.autoscaling';
const V2 = 'horizontalpodautoscalers.v2.autoscaling';

let session: KubectlSession;
beforeAll(async () => {
  session = await kubectlSession();
});
afterAll(async () => {
  await session?.stop();
});

describe('kubectl and HorizontalPodAutoscaler across autoscaling/v1 and v2', () => {
  it('kubectl autoscale creates an autoscaling/v1 object that v2 reads as a CPU Utilization metric', async () => {
    ok(await session.k(['create', 'deployment', 'web', '--image=nginx']));
    const dry = parse(ok(await session.k(['autoscale', 'deployment', 'web', '--cpu-percent=50', '--min=2', '--max=4', '--dry-run=client', '-o', 'yaml'])));
    expect(dry.apiVersion).toBe('autoscaling/v1');
    ok(await session.k(['autoscale', 'deployment', 'web', '--cpu-percent=50', '--min=2', '--max=4']));
    const v2 = parse(ok(await session.k(['get', V2, 'web', '-o', 'yaml'])));
    expect(v2.apiVersion).toBe('autoscaling/v2');
    expect(v2.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
    const v1 = parse(ok(await session.k(['get', V1, 'web', '-o', 'yaml'])));
    expect(v1.apiVersion).toBe('autoscaling/v1');
    expect(v1.spec).toEqual({ scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 4, targetCPUUtilizationPercentage: 50 });
    expect(v1.metadata.annotations).toBeUndefined();
    expect(v1.metadata.resourceVersion).toBe(v2.metadata.resourceVersion);
  });

  it('an autoscaling/v1 object created without a CPU target reads in v2 as the 80% CPU metric', async () => {
    const manifest = `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: plain-v1
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  maxReplicas: 3
`;
    ok(await session.k(['create', '-f', '-'], { input: manifest }));
    const v2 = parse(ok(await session.k(['get', V2, 'plain-v1', '-o', 'yaml'])));
    expect(v2.spec.minReplicas).toBe(1);
    expect(v2.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    const v1 = parse(ok(await session.k(['get', V1, 'plain-v1', '-o', 'yaml'])));
    expect(v1.spec.targetCPUUtilizationPercentage).toBe(80);
  });

  it('an HPA applied in v2 with a Pods metric and behavior reads in v1 with the annotations, and prints the same in both', async () => {
    const manifest = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: mixed
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: web
  maxReplicas: 6
  metrics:
  - type: Pods
    pods:
      metric:
        name: qps
      target:
        type: AverageValue
        averageValue: "10"
  - type: Resource
    resource:
      name: cpu
      target:
        type: Utilization
        averageUtilization: 70
  behavior:
    scaleDown:
      stabilizationWindowSeconds: 120
`;
    ok(await session.k(['apply', '-f', '-'], { input: manifest }));
    const v1 = parse(ok(await session.k(['get', V1, 'mixed', '-o', 'yaml'])));
    expect(v1.spec.targetCPUUtilizationPercentage).toBe(70);
    const annotations = v1.metadata.annotations as Record<string, string>;
    expect(JSON.parse(annotations['autoscaling.alpha.kubernetes.io/metrics'])).toEqual([{ type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } }]);
    expect(JSON.parse(annotations['autoscaling.alpha.kubernetes.io/behavior']).ScaleDown.StabilizationWindowSeconds).toBe(120);
    // a label added through v1 keeps what v1 cannot say
    ok(await session.k(['label', V1, 'mixed', 'via=v1']));
    const v2 = parse(ok(await session.k(['get', V2, 'mixed', '-o', 'yaml'])));
    expect(v2.metadata.labels).toEqual({ via: 'v1' });
    expect(v2.spec.metrics.map((m: { type: string }) => m.type)).toEqual(['Pods', 'Resource']);
    expect(v2.spec.behavior.scaleDown.stabilizationWindowSeconds).toBe(120);
    const row = (out: string) =>
      out
        .trim()
        .split('\n')[1]
        .split(/\s{2,}/)
        .slice(0, 3);
    const printedV1 = row(ok(await session.k(['get', V1, 'mixed'])));
    const printedV2 = row(ok(await session.k(['get', V2, 'mixed'])));
    expect(printedV1).toEqual(['mixed', 'Deployment/web', '<unknown>/10, cpu: <unknown>/70%']);
    expect(printedV2).toEqual(printedV1);
  });
});
