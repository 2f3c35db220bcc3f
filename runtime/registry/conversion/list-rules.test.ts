// The rules over lists one at a time, both ways (list-rules.ts), and through
// convertDeclared with the autoscaling/v1 declaration as generated: what
// upstream's conversion writes, and what a version cannot say left in place.
import { describe, expect, it } from 'vitest';
import type { ItemFieldRule, ItemRule } from '../../../generated/api-types.ts';
import { resources } from '../../../generated/registry.ts';
import type { Obj } from '../../storage/interface.ts';
import { itemFieldFromHub, itemFieldToHub, keptForAnnotation, keptFromAnnotation } from './list-rules.ts';
import { conversionsOf, convertDeclared } from './declared.ts';

const cpu: ItemFieldRule = {
  op: 'itemField',
  field: ['spec', 'cpu'],
  list: ['spec', 'metrics'],
  match: { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } },
  value: ['resource', 'target', 'averageUtilization'],
};
const item = (n: number, extra: Obj = {}) => ({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n, ...extra } } });
const mem = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } };

describe('itemField', () => {
  it.each([
    ['the item the scalar says whole leaves the list, and an emptied list goes', { metrics: [item(50)] }, { cpu: 50 }],
    ['other items stay', { metrics: [mem, item(50)] }, { metrics: [mem], cpu: 50 }],
    ['an item with more than the scalar says stays, the scalar mirrors it', { metrics: [item(50, { averageValue: '1' })] }, { metrics: [item(50, { averageValue: '1' })], cpu: 50 }],
    ['the first matching item is mirrored', { metrics: [item(50), item(60)] }, { metrics: [item(60)], cpu: 50 }],
    ['no matching item, no scalar', { metrics: [mem] }, { metrics: [mem] }],
    ['an empty list stays empty', { metrics: [] }, { metrics: [] }],
  ])('from the hub: %s', (_name, spec, want) => {
    const obj = { spec: structuredClone(spec) };
    itemFieldFromHub(obj, cpu);
    expect(obj.spec).toEqual(want);
  });

  it.each([
    ['the scalar becomes its item', { cpu: 50 }, { metrics: [item(50)] }],
    ['appended after the other items', { cpu: 50, metrics: [mem] }, { metrics: [mem, item(50)] }],
    ['not when the list already holds a matching item', { cpu: 50, metrics: [item(50, { averageValue: '1' })] }, { metrics: [item(50, { averageValue: '1' })] }],
    ['no scalar, nothing added', { metrics: [mem] }, { metrics: [mem] }],
  ])('to the hub: %s', (_name, spec, want) => {
    const obj = { spec: structuredClone(spec) };
    itemFieldToHub(obj, cpu);
    expect(obj.spec).toEqual(want);
  });
});

describe('a kept value in its annotation', () => {
  const items: ItemRule[] = [
    { op: 'rename', from: ['object', 'target'], to: ['object', 'describedObject'] },
    { op: 'rename', from: ['object', 'targetValue'], to: ['object', 'target', 'value'] },
    { op: 'derive', field: ['object', 'target', 'type'], when: ['object'], cases: [{ ifPresent: ['object', 'target', 'averageValue'], value: 'AverageValue' }], otherwise: 'Value' },
  ];
  const ref = { kind: 'Service', name: 's' };
  it.each([
    ['renames in reverse order, the derived field left out', [{ object: { describedObject: ref, target: { type: 'Value', value: '1' } } }], [{ object: { target: ref, targetValue: '1' } }]],
    [
      'a field that differs from what would be derived stays, and a rename onto a set field moves nothing',
      [{ object: { describedObject: ref, target: { type: 'Utilization', value: '1' } } }],
      [{ object: { describedObject: ref, target: { type: 'Utilization' }, targetValue: '1' } }],
    ],
    ['what no rule names stays as it is', [{ object: { describedObject: ref, target: { type: 'Value', value: '1' }, extra: 1 } }], [{ object: { target: ref, targetValue: '1', extra: 1 } }]],
    ['an item without `when` derives nothing', [{ pods: {} }], [{ pods: {} }]],
  ])('%s, and back', (_name, hubValue, annotated) => {
    expect(keptForAnnotation(structuredClone(hubValue), { items })).toEqual(annotated);
    expect(keptFromAnnotation(structuredClone(annotated), { items })).toEqual(hubValue);
  });

  it("spells keys as Go's encoding/json writes a struct without json tags, and reads them back (nulls are absent)", () => {
    const behavior = { scaleUp: { stabilizationWindowSeconds: 0, policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] } };
    const go = { ScaleUp: { StabilizationWindowSeconds: 0, Policies: [{ Type: 'Pods', Value: 4, PeriodSeconds: 15 }] } };
    expect(keptForAnnotation(structuredClone(behavior), { goFieldNames: true })).toEqual(go);
    expect(keptFromAnnotation({ ...go, ScaleDown: null }, { goFieldNames: true })).toEqual(behavior);
  });
});

describe('autoscaling/v1 HorizontalPodAutoscaler as declared', () => {
  const byApiVersion = conversionsOf(resources.filter((r) => r.group === 'autoscaling' && r.kind === 'HorizontalPodAutoscaler'));
  const hpa = (version: string, spec: Obj, status?: Obj, annotations?: Record<string, string>): Obj => ({
    apiVersion: `autoscaling/${version}`,
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'h', namespace: 'd', ...(annotations ? { annotations } : {}) },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 5, ...spec },
    ...(status ? { status } : {}),
  });
  const pods = { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } };
  const external = { type: 'External', external: { metric: { name: 'queue', selector: { matchLabels: { q: 'a' } } }, target: { type: 'Value', value: '3' } } };
  const behavior = { scaleDown: { stabilizationWindowSeconds: 300, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] } };
  const cpuStatus = { type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 42, averageValue: '120m' } } };
  const condition = { type: 'AbleToScale', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'ReadyForNewScale', message: 'ok' };
  const v2 = hpa('v2', { metrics: [pods, external, item(70)], behavior }, { currentReplicas: 2, desiredReplicas: 2, currentMetrics: [cpuStatus], conditions: [condition] });
  const v1 = hpa(
    'v1',
    { targetCPUUtilizationPercentage: 70 },
    { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 42 },
    {
      'autoscaling.alpha.kubernetes.io/metrics':
        '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}},{"type":"External","external":{"metricName":"queue","metricSelector":{"matchLabels":{"q":"a"}},"targetValue":"3"}}]',
      'autoscaling.alpha.kubernetes.io/behavior': '{"ScaleDown":{"StabilizationWindowSeconds":300,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}]}}',
      'autoscaling.alpha.kubernetes.io/current-metrics': '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":42,"currentAverageValue":"120m"}}]',
      'autoscaling.alpha.kubernetes.io/conditions': JSON.stringify([condition]),
    },
  );

  /** The object with its annotations' JSON parsed (key order is not compared). */
  const parsed = (o: Obj): Obj => {
    const out = structuredClone(o);
    for (const [k, v] of Object.entries<string>(out.metadata.annotations ?? {})) out.metadata.annotations[k] = JSON.parse(v);
    return out;
  };
  it('v2 → v1: the CPU target and current utilization as fields, the rest in upstream annotations of the v1 shapes', () => {
    expect(parsed(convertDeclared(v2, 'autoscaling/v1', byApiVersion))).toEqual(parsed(v1));
  });
  it('v1 → v2: back as it was', () => {
    expect(convertDeclared(v1, 'autoscaling/v2', byApiVersion)).toEqual(v2);
  });
  it('a v1 object with only the CPU target is one Utilization metric in v2, and a current utilization one current metric', () => {
    const plain = hpa('v1', { targetCPUUtilizationPercentage: 60 }, { currentReplicas: 1, desiredReplicas: 1, currentCPUUtilizationPercentage: 10 });
    expect(convertDeclared(plain, 'autoscaling/v2', byApiVersion)).toEqual(
      hpa('v2', { metrics: [item(60)] }, { currentReplicas: 1, desiredReplicas: 1, currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 10 } } }] }),
    );
  });
  it('annotations of those names a v2 object carries are not passed on to v1', () => {
    const stale = hpa('v2', { metrics: [item(70)] }, undefined, { 'autoscaling.alpha.kubernetes.io/behavior': '{"ScaleUp":null}' });
    expect(convertDeclared(stale, 'autoscaling/v1', byApiVersion)).toEqual(hpa('v1', { targetCPUUtilizationPercentage: 70 }));
  });
});
