import { describe, expect, it } from 'vitest';
import { metricSpecErrors, metricsErrors, metricTargetErrors, objectReferenceErrors } from './metrics.ts';

const texts = (errs: { toString(): string }[]) => errs.map(String);
/** Go's %#v of a parsed Quantity, as upstream prints one. */
const quantity = (value: string, scale: number, s: string) =>
  `resource.Quantity{i:resource.int64Amount{value:${value}, scale:${scale}}, d:resource.infDecAmount{Dec:(*inf.Dec)(nil)}, s:"${s}", Format:"DecimalSI"}`;
const SUPPORTED = 'supported values: "ContainerResource", "External", "Object", "Pods", "Resource"';

describe('metricTargetErrors', () => {
  it.each([
    ['Utilization', { type: 'Utilization', averageUtilization: 50 }, []],
    ['AverageValue', { type: 'AverageValue', averageValue: '100m' }, []],
    ['Value', { type: 'Value', value: '1' }, []],
    ['type missing', {}, ['t.type: Required value: must specify a metric target type', 't.type: Invalid value: "": must be either Utilization, Value, or AverageValue']],
    ['type unknown', { type: 'Percent' }, ['t.type: Invalid value: "Percent": must be either Utilization, Value, or AverageValue']],
    ['value zero', { type: 'Value', value: '0' }, [`t.value: Invalid value: ${quantity('0', 0, '0')}: must be positive`]],
    ['averageValue negative', { type: 'AverageValue', averageValue: '-1' }, [`t.averageValue: Invalid value: ${quantity('-1', 0, '-1')}: must be positive`]],
    ['averageValue -500m', { type: 'AverageValue', averageValue: '-500m' }, [`t.averageValue: Invalid value: ${quantity('-500', -3, '-500m')}: must be positive`]],
    ['averageUtilization 0', { type: 'Utilization', averageUtilization: 0 }, ['t.averageUtilization: Invalid value: 0: must be greater than 0']],
  ])('%s', (_name, t, want) => {
    expect(texts(metricTargetErrors('t', t))).toEqual(want);
  });
});

describe('objectReferenceErrors', () => {
  it.each([
    ['kind and name', { kind: 'Deployment', name: 'web' }, []],
    ['absent', undefined, ['r.kind: Required value', 'r.name: Required value']],
    ['kind with a slash', { kind: 'apps/Deployment', name: 'web' }, [`r.kind: Invalid value: "apps/Deployment": may not contain '/'`]],
    ['name ..', { kind: 'Deployment', name: '..' }, [`r.name: Invalid value: "..": may not be '..'`]],
    ['name with % and /', { kind: 'Deployment', name: 'a%b/c' }, [`r.name: Invalid value: "a%b/c": may not contain '/'`, `r.name: Invalid value: "a%b/c": may not contain '%'`]],
  ])('%s', (_name, ref, want) => {
    expect(texts(objectReferenceErrors('r', ref))).toEqual(want);
  });
});

const P = 'm';
const cpu = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } };
const qps = { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } };

describe('metricSpecErrors', () => {
  it.each<[string, unknown, string[]]>([
    ['Resource', cpu, []],
    ['Pods', { type: 'Pods', pods: qps }, []],
    ['Object', { type: 'Object', object: { describedObject: { kind: 'Ingress', name: 'main' }, metric: { name: 'rps' }, target: { type: 'Value', value: '2k' } } }, []],
    ['External', { type: 'External', external: { metric: { name: 'queue', selector: { matchLabels: { q: 'a' } } }, target: { type: 'Value', value: '30' } } }, []],
    ['ContainerResource', { type: 'ContainerResource', containerResource: { name: 'memory', container: 'app', target: { type: 'AverageValue', averageValue: '1Gi' } } }, []],
    [
      'ContainerResource with an extended resource',
      { type: 'ContainerResource', containerResource: { name: 'example.com/gpu', container: 'app', target: { type: 'AverageValue', averageValue: '1' } } },
      [],
    ],
    [
      'type missing',
      { resource: cpu.resource },
      ['m.type: Required value: must specify a metric source type', `m.type: Unsupported value: "": ${SUPPORTED}`, `m.type: Unsupported value: "": ${SUPPORTED}`],
    ],
    ['type unknown', { type: 'Custom', pods: qps }, [`m.type: Unsupported value: "Custom": ${SUPPORTED}`, `m.type: Unsupported value: "Custom": ${SUPPORTED}`]],
    ['source missing', { type: 'Pods' }, ['m.pods: Required value: must populate information for the given metric source']],
    ['another source', { type: 'Pods', resource: cpu.resource }, ['m.pods: Required value: must populate information for the given metric source']],
    ['two sources: the other is forbidden', { type: 'Resource', resource: cpu.resource, pods: qps }, ['m.pods: Forbidden: must populate the given metric source only']],
    ['first source checked only', { type: 'Pods', pods: qps, resource: {} }, ['m.resource: Forbidden: must populate the given metric source only']],
    ['metric name missing', { type: 'Pods', pods: { metric: {}, target: qps.target } }, ['m.pods.metric.name: Required value: must specify a metric name']],
    ['metric name with a slash', { type: 'Pods', pods: { metric: { name: 'a/b' }, target: qps.target } }, [`m.pods.metric.name: Invalid value: "a/b": may not contain '/'`]],
    [
      'Pods without averageValue',
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'Value', value: '1' } } },
      ['m.pods.target.averageValue: Required value: must specify a positive target averageValue'],
    ],
    [
      'Object without described object or value',
      { type: 'Object', object: { metric: { name: 'rps' }, target: { type: 'Utilization', averageUtilization: 5 } } },
      [
        'm.object.describedObject.kind: Required value',
        'm.object.describedObject.name: Required value',
        'm.object.target.averageValue: Required value: must set either a target value or averageValue',
      ],
    ],
    [
      'External without values',
      { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value' } } },
      ['m.external.target.averageValue: Required value: must set either a target value for metric or a per-pod target'],
    ],
    [
      'External with both values',
      { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1', averageValue: '2' } } },
      ['m.external.target.value: Forbidden: may not set both a target value for metric and a per-pod target'],
    ],
    ['Resource name missing', { type: 'Resource', resource: { target: cpu.resource.target } }, ['m.resource.name: Required value: must specify a resource name']],
    [
      'Resource without utilization or value',
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Value', value: '1' } } },
      ['m.resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization'],
    ],
    [
      'Resource with utilization and value',
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 5, averageValue: '1' } } },
      ['m.resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization'],
    ],
    [
      'ContainerResource without name and container',
      { type: 'ContainerResource', containerResource: { target: cpu.resource.target } },
      ['m.containerResource.name: Required value: must specify a resource name', 'm.containerResource.container: Required value: must specify a container'],
    ],
    [
      'ContainerResource with a bad container name',
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'App', target: cpu.resource.target } },
      [
        `m.containerResource.container: Invalid value: "App": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
    ],
    [
      'ContainerResource with a resource containers do not request',
      { type: 'ContainerResource', containerResource: { name: 'pods', container: 'app', target: cpu.resource.target } },
      ['m.containerResource.name: Invalid value: "pods": must be a standard resource for containers'],
    ],
    [
      'ContainerResource target type missing',
      { type: 'ContainerResource', containerResource: { name: 'cpu', container: 'app', target: { averageUtilization: 5 } } },
      ['m.containerResource.target.type: Required value: must specify a metric target type', 'm.containerResource.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue'],
    ],
  ])('%s', (_name, m, want) => {
    expect(texts(metricSpecErrors(P, m))).toEqual(want);
  });
});

describe('metricsErrors', () => {
  const external = { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '1' } } };
  it.each<[string, unknown[], unknown, string[]]>([
    ['indexes the items', [cpu, { type: 'Pods' }], 1, ['spec.metrics[1].pods: Required value: must populate information for the given metric source']],
    ['minReplicas 0 with an External metric', [cpu, external], 0, []],
    ['minReplicas 0 without Object or External metrics', [cpu], 0, ['spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas']],
    ['minReplicas 1 without them', [cpu], 1, []],
  ])('%s', (_name, metrics, min, want) => {
    expect(texts(metricsErrors(metrics, min))).toEqual(want);
  });
});
